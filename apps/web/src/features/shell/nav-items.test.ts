import { describe, expect, it } from 'vitest'
import { sideMenu, topMenu } from './nav-items.ts'

const user = { uid: 'u1', email: 'a@b.c', displayName: 'A' }

describe('top navigation by claim (docs/specification.md §2, §6)', () => {
  it('shows nothing to a signed-out visitor', () => {
    expect(topMenu({ user: undefined, claims: { 'create:simulations': true } }, '/')).toEqual([])
  })
  it('shows Tools to any signed-in user', () => {
    expect(topMenu({ user, claims: {} }, '/').map((i) => i.text)).toEqual(['Tools'])
  })
  it('adds Performance Simulation and Aero Optimization with their claims', () => {
    const all = topMenu(
      { user, claims: { 'create:simulations': true, 'access:aerooptimization': true } },
      '/',
    )
    expect(all.map((i) => i.text)).toEqual(['Tools', 'Performance Simulation', 'Aero Optimization'])
    const aeroOnly = topMenu({ user, claims: { 'access:aerooptimization': true } }, '/')
    expect(aeroOnly.map((i) => i.text)).toEqual(['Tools', 'Aero Optimization'])
  })
  it('marks an entry active when the path contains its section path', () => {
    const items = topMenu(
      { user, claims: { 'create:simulations': true } },
      '/simulation/optimizations/pacing/42',
    )
    expect(items.find((i) => i.active)?.text).toBe('Performance Simulation')
    expect(items.filter((i) => i.active)).toHaveLength(1)
  })
})

describe('side menu groups', () => {
  it('has Performance and Your collections on /simulation', () => {
    expect(sideMenu('simulation')).toEqual([
      {
        title: 'Performance',
        items: [{ text: 'Optimizations', link: '/simulation/optimizations' }],
      },
      {
        title: 'Your collections',
        items: [
          { text: 'Courses', link: '/simulation/courses' },
          { text: 'Rider Setups', link: '/simulation/riders' },
        ],
      },
    ])
  })
  it('has Sessions and Devices on /aero', () => {
    expect(sideMenu('aero').flatMap((g) => g.items.map((i) => i.link))).toEqual([
      '/aero/sessions',
      '/aero/devices',
    ])
  })
})

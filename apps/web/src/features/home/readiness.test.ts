import { describe, expect, it } from 'vitest'
import { homeState } from './readiness.ts'

const sim = { 'create:simulations': true }
const fullProfile = { rider_height: 1.8, rider_weight: 72 }

describe('home state (docs/specification.md §2 Home states, §4 Home readiness)', () => {
  it('signed out: the landing hero', () => {
    expect(
      homeState({ signedIn: false, claims: sim, profile: undefined, hasRiderSetup: undefined }),
    ).toEqual({ kind: 'signed-out' })
  })
  it('signed in without create:simulations: the Subscribe step', () => {
    expect(
      homeState({ signedIn: true, claims: {}, profile: fullProfile, hasRiderSetup: true }),
    ).toEqual({ kind: 'subscribe' })
  })
  it('with the claim, no profile and no setup: three steps, only Subscription complete', () => {
    const s = homeState({ signedIn: true, claims: sim, profile: null, hasRiderSetup: false })
    expect(s).toEqual({
      kind: 'get-ready',
      steps: [
        { key: 'subscription', title: 'Subscription', complete: true },
        { key: 'profile', title: 'Rider profile', complete: false },
        { key: 'setup', title: 'Rider setup', complete: false },
      ],
    })
  })
  it('a profile needs both rider_height and rider_weight', () => {
    const s = homeState({
      signedIn: true,
      claims: sim,
      profile: { rider_height: 1.8, rider_weight: null },
      hasRiderSetup: true,
    })
    expect(s.kind === 'get-ready' && s.steps.find((x) => x.key === 'profile')?.complete).toBe(false)
  })
  it('hides the rider profile step with use:multipleRiderProfiles', () => {
    const s = homeState({
      signedIn: true,
      claims: { ...sim, 'use:multipleRiderProfiles': true },
      profile: undefined,
      hasRiderSetup: false,
    })
    expect(s.kind === 'get-ready' && s.steps.map((x) => x.key)).toEqual(['subscription', 'setup'])
  })
  it('ready with the claim, a complete profile and a rider setup', () => {
    expect(
      homeState({ signedIn: true, claims: sim, profile: fullProfile, hasRiderSetup: true }),
    ).toEqual({ kind: 'ready' })
  })
  it('ready without a profile when multiple rider profiles are allowed', () => {
    const claims = { ...sim, 'use:multipleRiderProfiles': true }
    expect(homeState({ signedIn: true, claims, profile: null, hasRiderSetup: true })).toEqual({
      kind: 'ready',
    })
  })
  it('waits (loading) until the setups query has answered', () => {
    expect(
      homeState({ signedIn: true, claims: sim, profile: null, hasRiderSetup: undefined }),
    ).toEqual({ kind: 'loading' })
  })
})

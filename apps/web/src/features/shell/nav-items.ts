import { hasClaims, type AuthState } from '../../lib/auth.ts'

/** The specification's menu item: text, link, active. */
export type MenuItem = { text: string; link: string; active: boolean }

const entries = [
  { text: 'Tools', link: '/tools', claims: [] as string[] },
  { text: 'Performance Simulation', link: '/simulation', claims: ['create:simulations'] },
  { text: 'Aero Optimization', link: '/aero', claims: ['access:aerooptimization'] },
]

/**
 * The top navigation entries the user may see: Tools for any signed-in user, the other two by
 * claim. An entry is active when the current path contains its section path.
 */
export function topMenu(auth: Pick<AuthState, 'user' | 'claims'>, pathname: string): MenuItem[] {
  if (!auth.user) return []
  return entries
    .filter((e) => hasClaims(auth, ...e.claims))
    .map((e) => ({ text: e.text, link: e.link, active: pathname.includes(e.link) }))
}

export type SideGroup = { title: string; items: { text: string; link: string }[] }

/** The side menu groups of a section (/simulation or /aero). */
export function sideMenu(section: 'simulation' | 'aero'): SideGroup[] {
  if (section === 'aero') {
    return [
      {
        title: 'Aero Optimization',
        items: [
          { text: 'Sessions', link: '/aero/sessions' },
          { text: 'Devices', link: '/aero/devices' },
        ],
      },
    ]
  }
  return [
    { title: 'Performance', items: [{ text: 'Optimizations', link: '/simulation/optimizations' }] },
    {
      title: 'Your collections',
      items: [
        { text: 'Courses', link: '/simulation/courses' },
        { text: 'Rider Setups', link: '/simulation/riders' },
      ],
    },
  ]
}

import type { Db } from '@veloptima/db'
import { insertUserIfMissing } from '../repositories/users.ts'
import { joinOrganizationTeam } from '../routes/auth/repository.ts'
import { Accounts } from './accounts.ts'

export const DEMO_PASSWORD = 'veloptima-demo'

export const DEMO_ACCOUNTS = [
  {
    email: 'rider@example.com',
    name: 'Demo Rider',
    permissions: ['create:simulations'],
  },
  {
    email: 'coach@example.com',
    name: 'Demo Coach',
    permissions: [
      'create:simulations',
      'access:aerooptimization',
      'use:multipleRiderProfiles',
      'access:betaFeedback',
    ],
    team: { orgId: 'org_veloptima_demo', name: 'Veloptima Demo Team' },
  },
  { email: 'new@example.com', name: 'New Rider', permissions: [] },
] as const

/**
 * Creates the demo accounts of the embedded provider on first start (never overwrites them):
 * the rider (create:simulations), the coach (four claims and a team) and a new user (none).
 */
export async function ensureDemoAccounts(db: Db): Promise<string[]> {
  const accounts = new Accounts(db)
  const created: string[] = []
  for (const demo of DEMO_ACCOUNTS) {
    if (await accounts.findByEmail(demo.email)) continue
    const team = 'team' in demo ? demo.team : undefined
    const account = await accounts.create({
      email: demo.email,
      name: demo.name,
      password: DEMO_PASSWORD,
      permissions: [...demo.permissions],
      ...(team ? { orgId: team.orgId, orgName: team.name } : {}),
    })
    if (!account) continue
    created.push(demo.email)
    await insertUserIfMissing(db, {
      uid: account.sub,
      email: account.email,
      displayName: account.name,
    })
    if (team) {
      const org = { orgId: team.orgId, name: team.name }
      await joinOrganizationTeam(db, account.sub, org, { role: 'owner', current: 'always' })
    }
  }
  return created
}

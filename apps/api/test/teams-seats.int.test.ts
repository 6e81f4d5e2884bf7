// Seats at acceptance: a team plan's seats are checked under the team's row lock in
// the same transaction that adds the member, so two invitations accepted at the same moment on a
// team with one free seat cannot both join.
import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { subscriptions, teamMembers } from '@veloptima/db'
import { testDriver } from '@veloptima/db/testing'
import { suiteApp } from './helpers.ts'
import { caller, type Caller } from './platform-fixtures.ts'

const tokenOf = (link: string) => link.slice(link.lastIndexOf('/') + 1)

describe(`teams: the last free seat at acceptance on ${testDriver()}`, () => {
  const t = suiteApp({ PUBLIC_URL: 'https://veloptima.example' })
  let coach: Caller
  const riders: Caller[] = []

  beforeAll(async () => {
    coach = caller(t, await t.bearer({ uid: 'coach' }))
    await coach.get('/api/teams')
    for (let i = 0; i < 6; i++) {
      const c = caller(t, await t.bearer({ uid: `rider${i}` }))
      await c.get('/api/teams')
      riders.push(c)
    }
  })

  /**
   * A team whose plan has `seats` seats, with the coach as its only member and one open
   * invitation per rider (made before the plan: a team without a plan is not limited).
   */
  async function teamWithInvitations(name: string, seats: number, invited: number[]) {
    const team = await coach.post('/api/teams', { name })
    const teamId = team.body.id as string
    const tokens: string[] = []
    for (const i of invited) {
      const inv = await coach.post(`/api/teams/${teamId}/invitations`, {
        email: `rider${i}@example.com`,
      })
      expect(inv.status).toBe(201)
      tokens.push(tokenOf(inv.body.link as string))
    }
    await t.database.db.insert(subscriptions).values({
      teamId,
      plan: 'team',
      period: 'year',
      startsAt: new Date(Date.now() - 60_000),
      endsAt: new Date(Date.now() + 365 * 86_400_000),
      seats,
    })
    return { teamId, tokens }
  }

  const membersOf = async (teamId: string) =>
    (await t.database.db.select().from(teamMembers).where(eq(teamMembers.teamId, teamId))).length

  it('two accepts at once, one free seat: one joins, the other gets 409 no-seats', async () => {
    // Several rounds: the two requests interleave differently from round to round.
    for (let round = 0; round < 3; round++) {
      const a = round * 2
      const { teamId, tokens } = await teamWithInvitations(`Race ${round}`, 2, [a, a + 1])
      const results = await Promise.all([
        riders[a]!.post('/api/invitations/accept', { token: tokens[0] }),
        riders[a + 1]!.post('/api/invitations/accept', { token: tokens[1] }),
      ])
      const statuses = results.map((r) => r.status).sort()
      expect(statuses, JSON.stringify(results.map((r) => r.body))).toEqual([200, 409])
      const refused = results.find((r) => r.status === 409)!
      expect(refused.body.code).toBe('no-seats')
      expect(refused.body.message).toContain('2 seats, all taken (2 members)')
      // The coach and exactly one rider: the plan's 2 seats.
      expect(await membersOf(teamId)).toBe(2)
    }
  })

  it('the refused invitation stays open: it joins once a seat is freed', async () => {
    const { teamId, tokens } = await teamWithInvitations('Freed', 2, [0, 1])
    expect((await riders[0]!.post('/api/invitations/accept', { token: tokens[0] })).status).toBe(
      200,
    )
    const full = await riders[1]!.post('/api/invitations/accept', { token: tokens[1] })
    expect(full.status).toBe(409)
    expect((await coach.del(`/api/teams/${teamId}/members/rider0`)).status).toBe(204)
    expect((await riders[1]!.post('/api/invitations/accept', { token: tokens[1] })).status).toBe(
      200,
    )
    expect(await membersOf(teamId)).toBe(2)
  })
})

import { describe, expect, it } from 'vitest'
import type { BillingSubscription } from '@veloptima/contracts'
import { planNotices } from './plan-notice.ts'

// A lapsed plan (past_due, canceled) loses its claims at the period's end, and the home page and
// the account page say so. The subscriptions are as GET
// /api/billing/subscriptions returns them (services/billing.ts subscriptionJson).
const sub = (over: Partial<BillingSubscription>): BillingSubscription => ({
  id: 'sub-1',
  plan: 'individual',
  period: 'month',
  status: 'active',
  stripe_status: 'active',
  team_id: null,
  seats: null,
  starts_at: '2026-10-25T10:00:00.000Z',
  ends_at: '2026-12-25T10:00:00.000Z',
  current: true,
  cancel_at_period_end: false,
  lapsing: false,
  ...over,
})

describe('home page plan notices', () => {
  it('a plan that renews, and a plan an administrator granted, say nothing', () => {
    expect(planNotices([sub({})])).toEqual([])
    expect(planNotices([sub({ stripe_status: null, current: false, status: 'expired' })])).toEqual(
      [],
    )
  })

  it('payment past due: the plan lapses at its period end unless the card is updated', () => {
    const [n, ...rest] = planNotices([sub({ stripe_status: 'past_due', lapsing: true })])
    expect(rest).toEqual([])
    expect(n!.tone).toBe('warning')
    expect(n!.title).toBe('A payment failed: your Individual plan lapses on 2026-12-25')
    expect(n!.text).toContain('You can update the card in Manage subscription')
  })

  it('cancelled at the period end: ends on the period end, stays active until then', () => {
    const [n] = planNotices([sub({ cancel_at_period_end: true, lapsing: true })])
    expect(n!.title).toBe('Your Individual plan ends on 2026-12-25')
    expect(n!.text).toContain('stays active until then')
  })

  it('canceled: ended, the data kept read-only', () => {
    const [n] = planNotices([
      sub({
        status: 'cancelled',
        stripe_status: 'canceled',
        current: false,
        ends_at: '2026-11-20T08:00:00.000Z',
      }),
    ])
    expect(n!.title).toBe('Your Individual plan ended on 2026-11-20')
    expect(n!.text).toBe('Your data is kept, read-only. Subscribe again to edit and run it.')
  })

  it('an ended plan bought again says nothing; a team plan is the team’s, apart from the own', () => {
    const ended = sub({ id: 'old', status: 'cancelled', stripe_status: 'canceled', current: false })
    const again = sub({ id: 'new', ends_at: '2026-10-01T00:00:00.000Z' })
    expect(planNotices([ended, again])).toEqual([])
    expect(planNotices([again, ended])).toEqual([])
    const team = sub({
      id: 'team',
      plan: 'team',
      team_id: 't1',
      seats: 5,
      cancel_at_period_end: true,
      lapsing: true,
    })
    const notices = planNotices([ended, again, team])
    expect(notices.map((n) => n.title)).toEqual(['Your team’s Team plan ends on 2026-12-25'])
    // A member cannot manage the team's plan: the notice says who can.
    expect(notices[0]!.text).toContain('The team’s owners and admins can resume it')
  })

  it('of two ended subscriptions of one plan the later end speaks', () => {
    const a = sub({
      id: 'a',
      current: false,
      stripe_status: 'canceled',
      ends_at: '2026-09-01T00:00:00.000Z',
    })
    const b = sub({
      id: 'b',
      current: false,
      stripe_status: 'canceled',
      ends_at: '2026-11-01T00:00:00.000Z',
    })
    expect(planNotices([a, b]).map((n) => n.title)).toEqual([
      'Your Individual plan ended on 2026-11-01',
    ])
  })
})

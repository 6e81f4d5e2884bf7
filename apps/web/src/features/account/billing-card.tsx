import { Link } from 'react-router'
import type { BillingSubscription } from '@veloptima/contracts'
import { buttonClass } from '../../components/button.ts'
import { ApiError } from '../../lib/api-client.ts'
import { formatDay } from '../../lib/dates.ts'
import {
  PLAN_NAMES,
  useBillingConfig,
  useBillingSubscriptions,
  useClaimsFollowPlans,
  usePortal,
} from '../../lib/billing.ts'

const day = (iso: string) => formatDay(iso)

/** What a bought plan's state means for its holder. */
function stateOf(s: BillingSubscription): string {
  if (s.current && s.stripe_status === 'past_due') {
    return `Payment failed: the plan lapses on ${day(s.ends_at)} unless the card is updated.`
  }
  if (s.current && s.cancel_at_period_end) {
    return `Cancelled: ends on ${day(s.ends_at)}, active until then; your data is kept, read-only, afterwards.`
  }
  if (s.current) return `Active until ${day(s.ends_at)}, renews automatically unless cancelled.`
  return `Ended on ${day(s.ends_at)}. Your data is kept, read-only; subscribe again to edit and run it.`
}

/**
 * Subscriptions bought through Stripe (account page): each plan's state and the Manage
 * subscription link to Stripe's customer portal. Hidden when payment is not configured.
 */
export function BillingCard() {
  useClaimsFollowPlans()
  const config = useBillingConfig()
  const subs = useBillingSubscriptions()
  const portal = usePortal()
  const bought = subs.data?.items.filter((s) => s.stripe_status !== null) ?? []
  if (!config.data?.enabled && bought.length === 0) return null
  const own = bought.some((s) => !s.team_id)
  const teams = [...new Set(bought.flatMap((s) => (s.team_id ? [s.team_id] : [])))]
  return (
    <section
      aria-labelledby="billing-title"
      className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8"
    >
      <h2 id="billing-title" className="text-lg font-semibold text-slate-900">
        Subscriptions
      </h2>
      {bought.length === 0 ? (
        <p className="mt-5 text-sm text-slate-600">
          No subscription yet.{' '}
          <Link to="/pricing" className="font-semibold underline">
            Choose a plan
          </Link>
        </p>
      ) : (
        <ul className="mt-5 space-y-3" data-testid="billing-subscriptions">
          {bought.map((s) => (
            <li key={s.id} className="text-sm">
              <span className="font-medium text-slate-900">
                {PLAN_NAMES[s.plan]}
                {s.team_id ? ` (team${s.seats ? `, ${s.seats} seats` : ''})` : ''},{' '}
                {s.period === 'year' ? 'yearly' : 'monthly'}
              </span>
              <span className={s.current && !s.lapsing ? 'text-slate-600' : 'text-amber-700'}>
                {' '}
                — {stateOf(s)}
              </span>
            </li>
          ))}
        </ul>
      )}
      <div className="mt-6 flex flex-wrap gap-3">
        {own && (
          <button
            type="button"
            className={buttonClass.secondary}
            disabled={portal.isPending}
            onClick={() => portal.mutate(undefined)}
          >
            Manage subscription
          </button>
        )}
        {teams.map((teamId) => (
          <button
            key={teamId}
            type="button"
            className={buttonClass.secondary}
            disabled={portal.isPending}
            onClick={() => portal.mutate(teamId)}
          >
            Manage the team&apos;s subscription
          </button>
        ))}
      </div>
      {portal.isError && (
        <p role="alert" className="mt-3 text-sm text-red-700">
          {portal.error instanceof ApiError
            ? portal.error.message
            : 'The subscription page could not open.'}
        </p>
      )}
    </section>
  )
}

import { Link } from 'react-router'
import { useBillingSubscriptions, useClaimsFollowPlans } from '../../lib/billing.ts'
import { planNotices } from './plan-notice.ts'

/**
 * Above the signed-in home: a bought plan that lapses at its period's end (payment past due,
 * cancelled) or has lapsed says so, and that the data is kept (docs/billing.md). Follows the live
 * stream's plan changes.
 */
export function PlanNotices() {
  useClaimsFollowPlans()
  const subs = useBillingSubscriptions()
  const notices = planNotices(subs.data?.items ?? [])
  if (notices.length === 0) return null
  return (
    <div
      className="mx-auto w-full max-w-5xl space-y-3 px-6 pt-8 lg:px-8"
      data-testid="plan-notices"
    >
      {notices.map((n) => (
        <div
          key={n.key}
          role={n.tone === 'warning' ? 'alert' : 'status'}
          className={`rounded-2xl p-5 ring-1 ${
            n.tone === 'warning'
              ? 'bg-amber-50 text-amber-900 ring-amber-200'
              : 'bg-sky-50 text-sky-900 ring-sky-200'
          }`}
        >
          <p className="font-semibold">{n.title}</p>
          <p className="mt-1 text-sm">
            {n.text}{' '}
            <Link to="/account" className="font-semibold underline">
              Account
            </Link>
          </p>
        </div>
      ))}
    </div>
  )
}

import { useQuery } from '@tanstack/react-query'
import { Link } from 'react-router'
import type { Page, Subscription } from '@veloptima/contracts'
import { buttonClass } from '../../components/button.ts'
import { DUMMY_PROFILE_IMAGE } from '../../components/profile-image.ts'
import { PageSpinner } from '../../components/spinner.tsx'
import { api } from '../../lib/api-client.ts'
import { useBillingConfig } from '../../lib/billing.ts'
import { formatDay } from '../../lib/dates.ts'
import { hasClaims, useAuth } from '../../lib/auth.ts'
import { useLive } from '../../lib/live.tsx'
import { useUserDoc } from '../../lib/user.ts'
import { BillingCard } from './billing-card.tsx'
import { ProfileForm } from './profile-form-view.tsx'
import { TeamsCard } from './teams-card.tsx'

const planNames: Record<Subscription['plan'], string> = {
  individual: 'Individual',
  team: 'Team',
  aero: 'Aero add-on',
}

function Card({ title, children, id }: { title: string; children: React.ReactNode; id?: string }) {
  return (
    <section
      id={id}
      aria-labelledby={`${id ?? title}-title`}
      className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8"
    >
      <h2 id={`${id ?? title}-title`} className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      <div className="mt-5">{children}</div>
    </section>
  )
}

/** Your account: identity, rider profile, teams (current team, new team), plan and trial. */
export function AccountPage() {
  const auth = useAuth()
  const live = useLive()
  const user = auth.user!
  return (
    <div className="space-y-8">
      <header className="flex items-center gap-5">
        <img
          src={user.photoUrl || DUMMY_PROFILE_IMAGE}
          alt={user.displayName}
          referrerPolicy="no-referrer"
          className="h-16 w-16 rounded-full bg-slate-100 object-cover ring-1 ring-slate-200"
        />
        <div className="min-w-0">
          <h1 className="truncate text-2xl font-bold tracking-tight text-slate-900">
            {user.displayName}
          </h1>
          <p className="truncate text-slate-600">{user.email}</p>
        </div>
      </header>

      <Card title="Rider profile" id="rider-profile">
        {hasClaims(auth, 'use:multipleRiderProfiles') && (
          <p className="mb-5 text-sm text-slate-600">
            Your plan includes several rider profiles: each rider setup carries its rider&apos;s
            height and weight. This profile is your own.
          </p>
        )}
        {live.riderProfile === undefined ? (
          <PageSpinner label="Loading your rider profile" />
        ) : (
          <ProfileForm uid={user.uid} profile={live.riderProfile} onSaved={live.setRiderProfile} />
        )}
      </Card>

      <TeamsCard />
      <PlanCard />
      <BillingCard />
    </div>
  )
}

function PlanCard() {
  const auth = useAuth()
  const userDoc = useUserDoc()
  const trialDays = useBillingConfig().data?.trial_days
  const subs = useQuery({
    queryKey: ['subscriptions', auth.user?.uid],
    queryFn: () => api<Page<Subscription>>('/api/subscriptions'),
  })
  const active = subs.data?.items.filter((s) => s.status === 'active') ?? []
  const trialEnds = userDoc.data?.trial_ends_at ? new Date(userDoc.data.trial_ends_at) : undefined
  const canSimulate = hasClaims(auth, 'create:simulations')
  return (
    <Card title="Plan and trial" id="plan">
      <dl className="grid gap-6 sm:grid-cols-2">
        <div>
          <dt className="text-sm text-slate-500">Plan</dt>
          <dd className="mt-1 text-sm font-medium text-slate-900" data-testid="plan-status">
            {active.length > 0
              ? active
                  .map(
                    (s) =>
                      `${planNames[s.plan]}${s.team_id ? ' (team)' : ''} until ${formatDay(s.ends_at)}`,
                  )
                  .join(', ')
              : canSimulate
                ? 'Performance simulation included'
                : 'No plan'}
          </dd>
        </div>
        <div>
          <dt className="text-sm text-slate-500">Free trial</dt>
          <dd className="mt-1 text-sm font-medium text-slate-900" data-testid="trial-status">
            {!userDoc.data
              ? '…'
              : !userDoc.data.trial_used
                ? `Available: ${trialDays ? `${trialDays} days` : 'a free trial'} of performance simulation`
                : trialEnds && trialEnds.getTime() > (userDoc.dataUpdatedAt || 0)
                  ? `Running until ${formatDay(trialEnds)}`
                  : 'Used'}
          </dd>
        </div>
      </dl>
      <Link to="/pricing" className={`${buttonClass.secondary} mt-6`}>
        See plans
      </Link>
    </Card>
  )
}

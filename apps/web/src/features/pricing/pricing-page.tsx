import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { Link } from 'react-router'
import {
  MAX_SEATS,
  TRIAL_DAYS,
  type MyTeam,
  type PlanKind,
  type PlanPeriod,
  type User,
} from '@veloptima/contracts'
import { buttonClass } from '../../components/button.ts'
import { CheckIcon } from '../../components/icons.tsx'
import { api, ApiError } from '../../lib/api-client.ts'
import { hasClaims, useAuth } from '../../lib/auth.ts'
import { userKey, useUserDoc } from '../../lib/user.ts'
import { useBillingConfig, useCheckout, useClaimsFollowPlans } from '../../lib/billing.ts'

const CONTACT = 'mailto:sales@veloptima.app?subject=Veloptima%20plan'

type Plan = {
  key: PlanKind
  name: string
  claim: string
  tagline: string
  unlocks: string[]
  extra?: string
}

const plans: Plan[] = [
  {
    key: 'individual',
    name: 'Individual',
    claim: 'create:simulations',
    tagline: 'For the rider who wants every watt to count.',
    unlocks: [
      'Pacing optimization on your own courses',
      'Equipment optimization: wheels, tyres, positions ranked by time',
      'Courses and rider setups collections',
      'Exports to your bike computer (FIT course)',
      'Standalone tools',
    ],
  },
  {
    key: 'team',
    name: 'Team',
    claim: 'use:multipleRiderProfiles',
    tagline: 'For coaches and teams preparing several riders.',
    extra: 'Everything in Individual, plus',
    unlocks: [
      'Several rider profiles — one per athlete',
      'Shared team courses, rider setups and optimizations',
      'Switch between your own workspace and your team',
    ],
  },
  {
    key: 'aero',
    name: 'Aero add-on',
    claim: 'access:aerooptimization',
    tagline: 'For riders testing positions and equipment in the field.',
    extra: 'Adds to either plan',
    unlocks: [
      'Aero Optimization area: sessions and devices',
      'Runs per configuration compared with a baseline',
      'CdA from your aero sensor data',
    ],
  },
]

/** The plans, what each unlocks, the free trial (once per user) and how to buy. */
export function PricingPage() {
  useClaimsFollowPlans()
  const billing = useBillingConfig()
  const [period, setPeriod] = useState<PlanPeriod>('year')
  const enabled = billing.data?.enabled === true
  const buyable = (plan: PlanKind) =>
    enabled && billing.data!.plans.some((p) => p.plan === plan && p.period === period)
  const auth = useAuth()
  const userDoc = useUserDoc()
  const client = useQueryClient()
  const uid = auth.user?.uid
  const [now] = useState(() => Date.now())
  const trial = useMutation({
    mutationFn: () => api<User>(`/api/users/${encodeURIComponent(uid!)}/trial`, { method: 'POST' }),
    onSuccess: async (user) => {
      client.setQueryData(userKey(uid), user)
      await auth.refreshClaims()
    },
  })
  // The offer shows to visitors and to users who have not used it (trialAvailable, §3).
  const trialAvailable = !auth.user || (userDoc.data ? !userDoc.data.trial_used : false)
  const trialEnds = userDoc.data?.trial_ends_at ? new Date(userDoc.data.trial_ends_at) : undefined
  const trialRunning = trialEnds && trialEnds.getTime() > now

  return (
    <div className="mx-auto w-full max-w-6xl px-6 py-16 lg:px-8">
      <div className="mx-auto max-w-2xl text-center">
        <p className="text-sm font-semibold tracking-widest text-brand-700 uppercase">Pricing</p>
        <h1 className="mt-3 text-4xl font-bold tracking-tight text-slate-900 sm:text-5xl">
          Plans for riders and teams
        </h1>
        <p className="mt-5 text-lg leading-8 text-slate-600">
          Every plan gives you the simulations that tell you where your time goes. Start with a free{' '}
          {TRIAL_DAYS}-day trial of the Individual plan.
        </p>
      </div>

      {enabled && (
        <fieldset className="mx-auto mt-10 flex w-fit gap-1 rounded-full bg-slate-100 p-1 text-sm">
          <legend className="sr-only">Billing period</legend>
          {(['month', 'year'] as const).map((p) => (
            <label
              key={p}
              className={`cursor-pointer rounded-full px-4 py-1.5 font-medium ${period === p ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600'}`}
            >
              <input
                type="radio"
                name="period"
                value={p}
                checked={period === p}
                onChange={() => setPeriod(p)}
                className="sr-only"
              />
              {p === 'month' ? 'Monthly' : 'Yearly'}
            </label>
          ))}
        </fieldset>
      )}

      {trialAvailable && (
        <section
          aria-labelledby="trial-title"
          className="mx-auto mt-12 max-w-3xl rounded-3xl bg-slate-900 p-8 text-white sm:flex sm:items-center sm:justify-between sm:gap-8"
        >
          <div>
            <h2 id="trial-title" className="text-xl font-semibold">
              Free {TRIAL_DAYS}-day trial
            </h2>
            <p className="mt-2 text-sm leading-6 text-slate-300">
              Pacing and equipment optimization for {TRIAL_DAYS} days. No card needed; once per
              account.
            </p>
            {trial.isError && (
              <p role="alert" className="mt-3 text-sm text-red-300">
                {trial.error instanceof ApiError
                  ? trial.error.message
                  : 'The trial could not start.'}
              </p>
            )}
          </div>
          <button
            type="button"
            disabled={trial.isPending}
            onClick={() => (auth.user ? trial.mutate() : void auth.login('/pricing'))}
            className={`${buttonClass.primary} mt-6 shrink-0 sm:mt-0`}
          >
            {trial.isPending ? 'Starting…' : 'Start free trial'}
          </button>
        </section>
      )}
      {trialRunning && (
        <p
          role="status"
          className="mx-auto mt-10 max-w-3xl rounded-2xl bg-emerald-50 px-6 py-4 text-center text-sm text-emerald-900"
        >
          Your free trial runs until {trialEnds.toLocaleDateString()}.{' '}
          <Link to="/" className="font-semibold underline">
            Get ready
          </Link>{' '}
          for your first optimization.
        </p>
      )}

      <ul className="mt-14 grid gap-8 lg:grid-cols-3">
        {plans.map((plan) => {
          const held = auth.user && hasClaims(auth, plan.claim)
          return (
            <li
              key={plan.key}
              className={`flex flex-col rounded-3xl bg-white p-8 ring-1 ${plan.key === 'individual' ? 'ring-2 ring-brand-500' : 'ring-slate-200'}`}
            >
              <h2 className="text-lg font-semibold text-slate-900">{plan.name}</h2>
              <p className="mt-2 text-sm leading-6 text-slate-600">{plan.tagline}</p>
              {plan.extra && (
                <p className="mt-6 text-sm font-medium text-slate-900">{plan.extra}</p>
              )}
              <ul
                className={`${plan.extra ? 'mt-3' : 'mt-6'} flex-1 space-y-3 text-sm text-slate-700`}
              >
                {plan.unlocks.map((u) => (
                  <li key={u} className="flex gap-3">
                    <CheckIcon className="h-5 w-5 shrink-0 text-brand-600" />
                    {u}
                  </li>
                ))}
              </ul>
              {held ? (
                <p className="mt-8 rounded-lg bg-emerald-50 px-4 py-2.5 text-center text-sm font-semibold text-emerald-800">
                  Included in your account
                </p>
              ) : buyable(plan.key) ? (
                <Subscribe plan={plan} period={period} />
              ) : (
                <a
                  href={`${CONTACT}%20${encodeURIComponent(plan.name)}`}
                  className={`${buttonClass.secondary} mt-8`}
                >
                  Contact us for {plan.name}
                </a>
              )}
            </li>
          )
        })}
      </ul>
      <p className="mx-auto mt-12 max-w-2xl text-center text-sm leading-6 text-slate-500">
        {enabled
          ? 'Payment is handled by Stripe: cards, invoices and cancellation are in Manage subscription on your account page. A cancelled plan runs to the end of its period; your data is kept.'
          : 'Online payment is not available yet. Plans are granted by this server’s administrator (npm run admin -- plan): contact us and we set one up for your account or team — usually within one working day.'}
      </p>
    </div>
  )
}

/** Subscribe: Stripe Checkout for the plan; a team plan names the team and its seats. */
function Subscribe({ plan, period }: { plan: Plan; period: PlanPeriod }) {
  const auth = useAuth()
  const checkout = useCheckout()
  const isTeam = plan.key === 'team'
  const teams = useQuery({
    queryKey: ['teams', auth.user?.uid],
    queryFn: () => api<{ items: MyTeam[] }>('/api/teams'),
    enabled: Boolean(auth.user && isTeam),
  })
  const managed = teams.data?.items.filter((t) => t.role !== 'member') ?? []
  const [teamId, setTeamId] = useState('')
  const [seats, setSeats] = useState(5)
  const team = teamId || managed[0]?.id
  if (!auth.user) {
    return (
      <button
        type="button"
        onClick={() => void auth.login('/pricing')}
        className={`${buttonClass.primary} mt-8`}
      >
        Sign in to subscribe
      </button>
    )
  }
  if (isTeam && teams.data && managed.length === 0) {
    return (
      <p className="mt-8 text-sm text-slate-600">
        A team plan is bought for a team you own or administer.{' '}
        <Link to="/account" className="font-semibold underline">
          Create a team
        </Link>{' '}
        first.
      </p>
    )
  }
  return (
    <div className="mt-8 space-y-3">
      {isTeam && (
        <div className="grid grid-cols-2 gap-3 text-sm">
          <label className="block">
            <span className="text-slate-600">Team</span>
            <select
              value={team ?? ''}
              onChange={(e) => setTeamId(e.target.value)}
              className="mt-1 block w-full rounded-md border-slate-300 text-sm"
            >
              {managed.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
          </label>
          <label className="block">
            <span className="text-slate-600">Seats (members)</span>
            <input
              type="number"
              min={1}
              max={MAX_SEATS}
              value={seats}
              onChange={(e) =>
                setSeats(Math.max(1, Math.min(MAX_SEATS, Number(e.target.value) || 1)))
              }
              className="mt-1 block w-full rounded-md border-slate-300 text-sm"
            />
          </label>
        </div>
      )}
      <button
        type="button"
        disabled={checkout.isPending || (isTeam && !team)}
        onClick={() =>
          checkout.mutate({
            plan: plan.key,
            period,
            ...(isTeam && team ? { team_id: team, seats } : {}),
          })
        }
        className={`${buttonClass.primary} w-full`}
      >
        {checkout.isPending
          ? 'Opening Stripe…'
          : `Subscribe ${period === 'year' ? 'yearly' : 'monthly'}`}
      </button>
      {checkout.isError && (
        <p role="alert" className="text-sm text-red-700">
          {checkout.error instanceof ApiError
            ? checkout.error.message
            : 'The payment page could not open.'}
        </p>
      )}
    </div>
  )
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { Link } from 'react-router'
import {
  MAX_SEATS,
  type BillingConfig,
  type MyTeam,
  type PlanKind,
  type PlanPeriod,
  type User,
} from '@veloptima/contracts'
import { buttonClass } from '../../components/button.ts'
import { Options } from '../../components/form.tsx'
import { CheckIcon } from '../../components/icons.tsx'
import { api, ApiError } from '../../lib/api-client.ts'
import { hasClaims, useAuth } from '../../lib/auth.ts'
import { userKey, useUserDoc } from '../../lib/user.ts'
import { useBillingConfig, useCheckout, useClaimsFollowPlans } from '../../lib/billing.ts'
import { formatDay } from '../../lib/dates.ts'

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

/** "€9" or "€9.50" in the reader's locale, the currency's symbol from the configuration. */
export function formatPrice(amount: number, currency: string, locale?: string): string {
  const whole = Number.isInteger(amount)
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency,
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: 2,
  }).format(amount)
}

/** The price line of a plan: amount, "per seat" for a team, the period. */
function PriceTag({
  config,
  plan,
  period,
}: {
  config: BillingConfig
  plan: PlanKind
  period: PlanPeriod
}) {
  const price = config.prices.find((p) => p.plan === plan && p.period === period)
  if (!price) return null
  return (
    <p className="mt-6 flex items-baseline gap-x-1" data-testid={`price-${plan}`}>
      <span className="text-4xl font-bold tracking-tight text-slate-900">
        {formatPrice(price.amount, config.currency)}
      </span>
      <span className="text-sm font-medium text-slate-600">
        {price.per_seat ? 'per seat ' : ''}/ {period === 'year' ? 'year' : 'month'}
      </span>
    </p>
  )
}

/** The plans, their prices, what each unlocks, the free trial (once per user) and how to buy. */
export function PricingPage() {
  useClaimsFollowPlans()
  const billing = useBillingConfig()
  const config = billing.data
  const [chosen, setPeriod] = useState<PlanPeriod>('year')
  const periods = config?.periods ?? []
  const period = periods.includes(chosen) ? chosen : (periods[0] ?? chosen)
  const trialDays = config?.trial_days
  const enabled = config?.enabled === true
  const buyable = (plan: PlanKind) =>
    enabled && config!.plans.some((p) => p.plan === plan && p.period === period)
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
          Every plan gives you the simulations that tell you where your time goes.
          {trialDays ? ` Start with a free ${trialDays}-day trial of the Individual plan.` : ''}
        </p>
      </div>

      {periods.length > 1 && (
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

      {billing.isError && (
        <p role="alert" className="mx-auto mt-10 max-w-3xl text-center text-sm text-red-700">
          The prices could not be loaded. Reload the page to try again.
        </p>
      )}

      {trialAvailable && trialDays && (
        <section
          aria-labelledby="trial-title"
          className="mx-auto mt-12 max-w-3xl rounded-3xl bg-slate-900 p-8 text-white sm:flex sm:items-center sm:justify-between sm:gap-8"
        >
          <div>
            <h2 id="trial-title" className="text-xl font-semibold">
              Free {trialDays}-day trial
            </h2>
            <p className="mt-2 text-sm leading-6 text-slate-300">
              Pacing and equipment optimization for {trialDays} days. No card needed; once per
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
          Your free trial runs until {formatDay(trialEnds)}.{' '}
          <Link to="/" className="font-semibold underline">
            Get ready
          </Link>{' '}
          for your first optimization.
        </p>
      )}

      {config && !enabled && (
        <p
          role="note"
          className="mx-auto mt-10 max-w-3xl rounded-2xl bg-slate-100 px-6 py-4 text-center text-sm text-slate-700"
        >
          Online payment is not available on this server; your administrator can grant a plan.
        </p>
      )}

      <ul className="mt-14 grid gap-8 lg:grid-cols-3">
        {plans.map((plan) => (
          <PlanCard
            key={plan.key}
            plan={plan}
            config={config}
            period={period}
            held={Boolean(auth.user && hasClaims(auth, plan.claim))}
            buyable={buyable(plan.key)}
          />
        ))}
      </ul>
      {config && (
        <p className="mx-auto mt-12 max-w-2xl text-center text-sm leading-6 text-slate-600">
          Prices in {config.currency}
          {config.prices.some((p) => p.per_seat)
            ? '; the Team plan is priced per seat (member)'
            : ''}
          .{' '}
          {enabled
            ? 'Payment is handled by Stripe: cards, invoices and cancellation are in Manage subscription on your account page. A cancelled plan runs to the end of its period; your data is kept.'
            : 'A plan your administrator grants gives the same access as a bought one; your data is kept when it ends.'}
        </p>
      )}
    </div>
  )
}

/** One plan: what it unlocks, its price, and whether it is held, bought here or granted. */
function PlanCard({
  plan,
  config,
  period,
  held,
  buyable,
}: {
  plan: Plan
  config: BillingConfig | undefined
  period: PlanPeriod
  held: boolean
  buyable: boolean
}) {
  const enabled = config?.enabled === true
  return (
    <li
      className={`flex flex-col rounded-3xl bg-white p-8 ring-1 ${plan.key === 'individual' ? 'ring-2 ring-brand-500' : 'ring-slate-200'}`}
    >
      <h2 className="text-lg font-semibold text-slate-900">{plan.name}</h2>
      <p className="mt-2 text-sm leading-6 text-slate-600">{plan.tagline}</p>
      {config && <PriceTag config={config} plan={plan.key} period={period} />}
      {plan.extra && <p className="mt-6 text-sm font-medium text-slate-900">{plan.extra}</p>}
      <ul className={`${plan.extra ? 'mt-3' : 'mt-6'} flex-1 space-y-3 text-sm text-slate-700`}>
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
      ) : buyable ? (
        <Subscribe plan={plan} period={period} />
      ) : config ? (
        <p className="mt-8 rounded-lg bg-slate-50 px-4 py-2.5 text-center text-sm text-slate-700 ring-1 ring-slate-200">
          {enabled
            ? `The ${plan.name} plan cannot be bought online ${period === 'year' ? 'yearly' : 'monthly'} here; your administrator can grant it.`
            : 'Your administrator can grant this plan.'}
        </p>
      ) : null}
    </li>
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
              <Options options={managed.map((t) => ({ value: t.id, label: t.name }))} />
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

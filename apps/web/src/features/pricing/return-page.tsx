import { useQuery } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import { Link, useSearchParams } from 'react-router'
import type { CheckoutStatus } from '@veloptima/contracts'
import { buttonClass } from '../../components/button.ts'
import { PageSpinner } from '../../components/spinner.tsx'
import { api, ApiError } from '../../lib/api-client.ts'
import { hasClaims, useAuth } from '../../lib/auth.ts'
import { formatDay } from '../../lib/dates.ts'
import { PLAN_NAMES, useClaimsFollowPlans } from '../../lib/billing.ts'

const POLL_MS = 1500
/** Stripe usually calls the webhook within seconds; after this the page says it is late. */
const PATIENCE_MS = 120_000

/**
 * Where Stripe's Checkout returns (?session_id=cs_…): waits for the webhook to store the plan
 * (GET /api/billing/status), renews the session token, then shows what the plan unlocked.
 */
export function BillingReturnPage() {
  const [params] = useSearchParams()
  const sessionId = params.get('session_id') ?? ''
  const auth = useAuth()
  const { refreshClaims } = auth
  const [started] = useState(() => Date.now())
  const [late, setLate] = useState(false)
  const renewed = useRef(false)
  const [ready, setReady] = useState(false)
  useClaimsFollowPlans()

  const status = useQuery({
    queryKey: ['billing-status', sessionId],
    queryFn: () =>
      api<CheckoutStatus>(`/api/billing/status?session_id=${encodeURIComponent(sessionId)}`),
    enabled: Boolean(sessionId && auth.user),
    refetchInterval: (q) => (q.state.data?.status === 'active' || late ? false : POLL_MS),
    retry: false,
  })
  const active = status.data?.status === 'active'

  useEffect(() => {
    if (active || late) return
    const timer = setTimeout(() => setLate(true), Math.max(0, started + PATIENCE_MS - Date.now()))
    return () => clearTimeout(timer)
  }, [active, late, started])

  useEffect(() => {
    if (!active || renewed.current) return
    renewed.current = true
    void refreshClaims().finally(() => setReady(true))
  }, [active, refreshClaims])

  const plan = status.data?.subscription
  return (
    <div className="mx-auto max-w-xl py-16 text-center">
      {!sessionId ? (
        <p role="alert" className="text-slate-700">
          This page is where Stripe returns after a payment; the link has no Checkout session.{' '}
          <Link to="/pricing" className="font-semibold underline">
            See plans
          </Link>
        </p>
      ) : status.isError ? (
        <p role="alert" className="text-red-700">
          {status.error instanceof ApiError
            ? status.error.message
            : 'The payment could not be checked.'}
        </p>
      ) : active && ready && plan ? (
        <div role="status">
          <h1 className="text-3xl font-bold tracking-tight text-slate-900">
            Your {PLAN_NAMES[plan.plan]} plan is active
          </h1>
          <p className="mt-4 text-slate-600">
            Thank you! It runs until {formatDay(plan.ends_at)} and renews automatically; Manage
            subscription on your account page changes or cancels it.
          </p>
          <div className="mt-8 flex justify-center gap-4">
            {hasClaims(auth, 'create:simulations') && (
              <Link to="/simulation" className={buttonClass.primary}>
                Open Performance Simulation
              </Link>
            )}
            {hasClaims(auth, 'access:aerooptimization') && (
              <Link to="/aero" className={buttonClass.primary}>
                Open Aero Optimization
              </Link>
            )}
            <Link to="/account" className={buttonClass.secondary}>
              Your account
            </Link>
          </div>
        </div>
      ) : late ? (
        <p role="alert" className="text-slate-700">
          Stripe has taken your payment but has not confirmed it to us yet. This page stops waiting;
          your plan appears on your account page as soon as the confirmation arrives.
        </p>
      ) : (
        <PageSpinner label="Confirming your payment with Stripe…" />
      )}
    </div>
  )
}

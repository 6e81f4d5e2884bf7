import type { ReactNode } from 'react'
import { Link, useLocation } from 'react-router'
import { buttonClass } from '../../components/button.ts'
import { LockIcon } from '../../components/icons.tsx'
import { PageSpinner } from '../../components/spinner.tsx'
import { hasClaims, useAuth } from '../../lib/auth.ts'

const claimNames: Record<string, string> = {
  'create:simulations': 'a Veloptima plan (or the free trial)',
  'access:aerooptimization': 'the Aero add-on',
  'use:multipleRiderProfiles': 'the Team plan',
  'access:betaFeedback': 'beta access',
}

/**
 * A route that needs a signed-in user plus every listed claim. Without them the page is not
 * rendered; instead the visitor reads why and the way forward (sign in, or see the plans).
 */
export function RequireAccess({
  claims = [],
  children,
}: {
  claims?: string[]
  children: ReactNode
}) {
  const auth = useAuth()
  const location = useLocation()
  if (auth.isLoading || auth.loggingIn) return <PageSpinner label="Checking your session" />
  if (!auth.user) {
    return (
      <Gate title="Sign in to continue">
        <p>
          This page is part of your Veloptima workspace. Sign in and you will come straight back
          here.
        </p>
        <div className="mt-6">
          <button
            type="button"
            className={buttonClass.primary}
            onClick={() => void auth.login(location.pathname + location.search + location.hash)}
          >
            Sign in
          </button>
        </div>
      </Gate>
    )
  }
  const missing = claims.filter((c) => !hasClaims(auth, c))
  if (missing.length > 0) {
    return (
      <Gate title="Your plan does not include this yet">
        <p>
          This area needs {missing.map((c) => claimNames[c] ?? c).join(' and ')}. See what each plan
          unlocks; the Individual plan starts with a free trial.
        </p>
        <div className="mt-6 flex flex-wrap justify-center gap-3">
          <Link to="/pricing" className={buttonClass.primary}>
            See plans
          </Link>
          <Link to="/" className={buttonClass.secondary}>
            Back to home
          </Link>
        </div>
      </Gate>
    )
  }
  return <>{children}</>
}

function Gate({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="mx-auto max-w-lg px-6 py-20 text-center" data-testid="access-gate">
      <div className="mx-auto mb-5 flex h-12 w-12 items-center justify-center rounded-full bg-brand-50 text-brand-600">
        <LockIcon className="h-6 w-6" />
      </div>
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
      <div className="mt-3 text-base leading-7 text-slate-600">{children}</div>
    </div>
  )
}

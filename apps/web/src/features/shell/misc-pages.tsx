import { Link, useRouteError, isRouteErrorResponse } from 'react-router'
import { buttonClass } from '../../components/button.ts'
import { PageSpinner } from '../../components/spinner.tsx'

/** An unknown address. */
export function NotFoundPage() {
  return (
    <div className="mx-auto max-w-lg px-6 py-24 text-center">
      <p className="text-sm font-semibold text-brand-700">404</p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight text-slate-900">Page not found</h1>
      <p className="mt-4 text-slate-600">This address does not lead anywhere in Veloptima.</p>
      <Link to="/" className={`${buttonClass.primary} mt-8`}>
        Back to home
      </Link>
    </div>
  )
}

/** A page that failed to load or render (for example a lazy module after a deploy). */
export function RouteErrorPage() {
  const error = useRouteError()
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : 'Unknown error'
  return (
    <div className="mx-auto max-w-lg px-6 py-24 text-center">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">Something went wrong</h1>
      <p className="mt-4 text-slate-600">{message}</p>
      <button
        type="button"
        className={`${buttonClass.primary} mt-8`}
        onClick={() => window.location.reload()}
      >
        Reload the page
      </button>
    </div>
  )
}

/** Terms of Service and Privacy Policy (the default TERMS_URL and PRIVACY_URL). */
export function LegalPage({ kind }: { kind: 'terms' | 'privacy' }) {
  return (
    <article className="mx-auto max-w-3xl px-6 py-16 text-slate-700">
      {kind === 'terms' ? (
        <>
          <h1 className="text-3xl font-bold tracking-tight text-slate-900">Terms of Service</h1>
          <p className="mt-6 leading-7">
            Veloptima gives estimates from physical models and the data you provide. Results are
            guidance for training and racing decisions, not guarantees; ride within your limits and
            the rules of the road and your race.
          </p>
          <p className="mt-4 leading-7">
            You keep the rights to your courses, rider data and results. Plans are personal or per
            team as bought; the free trial is once per account.
          </p>
        </>
      ) : (
        <>
          <h1 className="text-3xl font-bold tracking-tight text-slate-900">Privacy Policy</h1>
          <p className="mt-6 leading-7">
            We store what the service needs: your account (name, e-mail), your rider profile and
            setups, your courses, optimizations and results, and feedback you send. We do not sell
            data or use it for advertising.
          </p>
          <p className="mt-4 leading-7">
            Your data is visible to you and, for team items, to your team. Ask support to export or
            delete it at any time.
          </p>
        </>
      )}
    </article>
  )
}

/** The first paint while the page module loads. */
export function HydrateFallback() {
  return (
    <div className="flex min-h-screen items-center justify-center bg-slate-50">
      <PageSpinner />
    </div>
  )
}

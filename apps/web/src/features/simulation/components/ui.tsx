// Small layout pieces of the simulation screens (Tailwind); form fields come from the form kit (components/form.tsx).
import type { ReactNode } from 'react'
import { Link } from 'react-router'

export { Button, Card } from '../../../components/layout-kit.tsx'

export function PageHeader({
  title,
  children,
  description,
}: {
  title: string
  description?: ReactNode
  children?: ReactNode
}) {
  return (
    <div className="flex flex-wrap items-start justify-between gap-4">
      <div>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
        {description ? (
          <p className="mt-1 max-w-3xl text-sm text-slate-600">{description}</p>
        ) : null}
      </div>
      {children ? <div className="flex flex-wrap gap-2">{children}</div> : null}
    </div>
  )
}

/** A page's content; the section layout around it gives the width, padding and breadcrumbs. */
export function Page({ children }: { children: ReactNode }) {
  return <div>{children}</div>
}

export function ErrorBox({
  children,
  className = '',
}: {
  children: ReactNode
  className?: string
}) {
  return (
    <div
      role="alert"
      className={`rounded-md bg-red-50 p-3 text-sm text-red-800 ring-1 ring-red-200 ${className}`}
    >
      {children}
    </div>
  )
}

/** What an action came to: a note when it worked, an alert naming what failed. */
export type Outcome = { ok: boolean; text: string }

/** An action's outcome under its controls (nothing before the first one). */
export function OutcomeLine({ outcome }: { outcome: Outcome | null }) {
  if (!outcome) return null
  return (
    <p
      role={outcome.ok ? 'status' : 'alert'}
      className={`text-sm ${outcome.ok ? 'text-green-700' : 'text-red-700'}`}
    >
      {outcome.text}
    </p>
  )
}

export function Loading({ what }: { what: string }) {
  return (
    <p role="status" className="text-sm text-slate-500">
      Loading {what}…
    </p>
  )
}

export function ButtonLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link
      to={to}
      className="rounded-md bg-brand-600 px-3 py-2 text-sm font-semibold text-white shadow-sm hover:bg-brand-700"
    >
      {children}
    </Link>
  )
}

export function Stat({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div className="rounded-md bg-slate-50 px-3 py-2 ring-1 ring-slate-200">
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="text-lg font-semibold text-slate-900">{value}</dd>
    </div>
  )
}

export function EmptyState({ children }: { children: ReactNode }) {
  return (
    <div className="rounded-lg border-2 border-dashed border-slate-300 p-8 text-center text-sm text-slate-600">
      {children}
    </div>
  )
}

import type { ReactNode } from 'react'

/** A real empty state: what this place will hold, and what to do now. */
export function EmptyState({
  title,
  children,
  action,
  icon,
}: {
  title: string
  children: ReactNode
  action?: ReactNode
  icon?: ReactNode
}) {
  return (
    <div className="rounded-2xl border border-dashed border-slate-300 bg-white px-6 py-12 text-center">
      {icon && (
        <div className="mx-auto mb-4 flex h-12 w-12 items-center justify-center rounded-full bg-brand-50 text-brand-600">
          {icon}
        </div>
      )}
      <h2 className="text-base font-semibold text-slate-900">{title}</h2>
      <div className="mx-auto mt-2 max-w-prose text-sm leading-6 text-slate-600">{children}</div>
      {action && <div className="mt-6 flex justify-center gap-3">{action}</div>}
    </div>
  )
}

// Pieces shared by the aero session page's sections: the section frame, alerts and a stat tile.
import type { ReactNode } from 'react'
import { formatDayTime } from '../../lib/dates.ts'

export type Anchor = { id: string; label: string }

/** A session's or file's start as every date of the app (lib/dates.ts), or that it has none. */
export const dateOf = (iso: string | null) => (iso ? formatDayTime(iso) : 'No start time')

export function Section({
  id,
  title,
  children,
  action,
}: {
  id: string
  title: string
  children: ReactNode
  action?: ReactNode
}) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="scroll-mt-20">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-4">
        <h2 id={`${id}-title`} className="text-lg font-semibold text-slate-900">
          {title}
        </h2>
        {action}
      </div>
      {children}
    </section>
  )
}

export function Alert({ children }: { children: ReactNode }) {
  return (
    <p role="alert" className="rounded-lg bg-red-50 px-4 py-3 text-sm text-red-800">
      {children}
    </p>
  )
}

export function Stat({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div className="rounded-md bg-white px-3 py-2 ring-1 ring-slate-200">
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="font-semibold text-slate-900">{value}</dd>
    </div>
  )
}

/** The head row of the aero tables: the column titles on a slate band. */
export function TableHead({ columns, nowrap = false }: { columns: string[]; nowrap?: boolean }) {
  return (
    <thead className="bg-slate-50 text-slate-600">
      <tr>
        {columns.map((h) => (
          <th key={h} className={`px-3 py-2 font-medium${nowrap ? ' whitespace-nowrap' : ''}`}>
            {h}
          </th>
        ))}
      </tr>
    </thead>
  )
}

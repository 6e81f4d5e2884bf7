import type { ReactNode } from 'react'

/** The card around one calculator. */
export function ToolCard({
  title,
  intro,
  children,
  labelledBy,
}: {
  title: string
  intro: string
  children: ReactNode
  labelledBy: string
}) {
  return (
    <section
      aria-labelledby={labelledBy}
      className="rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6"
    >
      <h2 id={labelledBy} className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      <p className="mt-1 text-sm text-slate-600">{intro}</p>
      {children}
    </section>
  )
}

export function Warnings({ items }: { items: { code: string; message: string }[] }) {
  if (items.length === 0) return null
  return (
    <ul
      aria-label="Warnings"
      className="mt-4 space-y-1 rounded-md bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200"
    >
      {items.map((w, i) => (
        <li key={`${w.code}-${i}`}>⚠ {w.message.charAt(0).toUpperCase() + w.message.slice(1)}</li>
      ))}
    </ul>
  )
}

export function Assumptions({ items }: { items: string[] }) {
  return (
    <details className="mt-4 text-sm text-slate-600">
      <summary className="cursor-pointer font-medium text-slate-700">Assumptions</summary>
      <ul className="mt-2 list-disc space-y-1 pl-5">
        {items.map((a) => (
          <li key={a}>{a}</li>
        ))}
      </ul>
    </details>
  )
}

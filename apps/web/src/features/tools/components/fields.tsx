import { ToolInputError } from '@veloptima/engine'
import { useState, type ReactNode } from 'react'

/** What a calculator shows under its form: its result, or why there is none. */
export type ToolOutcome<T> = { result?: T; error?: string }

/** The message while a required field is empty or holds no number. */
export const FILL_IN = 'Fill in the highlighted fields to see a recommendation.'

/** Engine validation errors, phrased for the form (the engine speaks SI and field names). */
export function describeInputError(e: ToolInputError, labels: Record<string, string>): string {
  const label = labels[e.field] ?? e.field
  if (e.message.includes('expected a number')) {
    return `${label} is outside the range this calculator handles.`
  }
  if (e.field === 'tyreMinPressurePa') return 'The tyre minimum must be below its maximum.'
  return `${label}: ${e.message.slice(e.field.length + 2)}`
}

/** Runs a calculator; an engine validation error becomes the form's message (`labels` name the fields). */
export function solveTool<T>(compute: () => T, labels: Record<string, string>): ToolOutcome<T> {
  try {
    return { result: compute() }
  } catch (e) {
    if (e instanceof ToolInputError) return { error: describeInputError(e, labels) }
    throw e
  }
}

/**
 * A calculator's outcome: FILL_IN while `input` finds a required field empty (null), else the
 * engine's answer by `compute` (see solveTool).
 */
export function solveInput<I, T>(
  input: () => I | null,
  compute: (input: I) => T,
  labels: Record<string, string>,
): ToolOutcome<T> {
  const filled = input()
  return filled === null ? { error: FILL_IN } : solveTool(() => compute(filled), labels)
}

/**
 * A calculator's choices, kept together: `choose(key)` gives a Select its value, its onChange and
 * its options (`options[key]`).
 */
export function useChoices<C extends Record<string, string>>(
  options: { [K in keyof C]: readonly { value: C[K]; label: string }[] },
  initial: NoInfer<C>,
) {
  const [choices, setChoices] = useState<C>(initial)
  const choose = <K extends keyof C>(key: K) => ({
    value: choices[key],
    onChange: (value: C[K]) => setChoices((c) => ({ ...c, [key]: value })),
    options: options[key],
  })
  return [choices, choose] as const
}

/** A calculator's inputs: two columns, recomputed as the user types (never submitted). */
export function ToolForm({ children }: { children: ReactNode }) {
  return (
    <form className="mt-4 grid grid-cols-2 gap-4" onSubmit={(e) => e.preventDefault()}>
      {children}
    </form>
  )
}

/** The live region under a calculator's form: the result, or the reason there is none. */
export function ToolResult<T>({
  outcome,
  children,
}: {
  outcome: ToolOutcome<T>
  children(result: T): ReactNode
}) {
  return (
    <div aria-live="polite" className="mt-6 border-t border-slate-200 pt-4">
      {outcome.result !== undefined ? (
        children(outcome.result)
      ) : (
        <p role="alert" className="text-sm text-red-700">
          {outcome.error}
        </p>
      )}
    </div>
  )
}

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

/**
 * One calculator: its card, its form of `children` (recomputed as the user types), `notes` under
 * the form, then the live region with `result` of the outcome or the reason there is none.
 */
export function Calculator<T>({
  title,
  labelledBy,
  intro,
  children,
  notes,
  outcome,
  result,
}: {
  title: string
  labelledBy: string
  intro: string
  children: ReactNode
  notes?: ReactNode
  outcome: ToolOutcome<T>
  result(result: T): ReactNode
}) {
  return (
    <ToolCard title={title} labelledBy={labelledBy} intro={intro}>
      <ToolForm>{children}</ToolForm>
      {notes}
      <ToolResult outcome={outcome}>{result}</ToolResult>
    </ToolCard>
  )
}

/** The details under a result: its warnings, `children`, then its assumptions. */
export function ToolDetails({
  warnings,
  assumptions,
  children,
}: {
  warnings: { code: string; message: string }[]
  assumptions: string[]
  children: ReactNode
}) {
  return (
    <>
      <Warnings items={warnings} />
      {children}
      <Assumptions items={assumptions} />
    </>
  )
}

/** One figure of a result: its name over its value (`testId` on the value). */
export function ResultTile({
  label,
  testId,
  className,
  labelClassName = '',
  children,
}: {
  label: string
  testId?: string
  className?: string
  labelClassName?: string
  children: ReactNode
}) {
  return (
    <div className="rounded-lg bg-brand-50 p-3">
      <dt className={`text-sm font-medium text-slate-600 ${labelClassName}`.trimEnd()}>{label}</dt>
      <dd data-testid={testId} className={className}>
        {children}
      </dd>
    </div>
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

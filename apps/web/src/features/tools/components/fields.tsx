import { useId, type ReactNode } from 'react'
import type { QuantityField } from '../hooks/use-quantity-field.ts'

const inputClass =
  'block w-full rounded-md border-0 bg-white py-1.5 pl-3 text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset placeholder:text-slate-400 focus:ring-2 focus:ring-brand-600 focus:ring-inset sm:text-sm'

/** A labelled numeric input with its unit; the label names the unit for screen readers too. */
export function NumberField({
  label,
  field,
  hint,
  placeholder,
  name,
}: {
  label: string
  field: QuantityField
  hint?: string
  placeholder?: string
  name: string
}) {
  const id = useId()
  const hintId = `${id}-hint`
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label} <span className="text-slate-500">({field.unit})</span>
      </label>
      <div className="relative mt-1">
        <input
          id={id}
          name={name}
          type="text"
          inputMode="decimal"
          autoComplete="off"
          value={field.text}
          placeholder={placeholder}
          onChange={(e) => field.onChange(e.target.value)}
          aria-invalid={field.invalid || undefined}
          aria-describedby={hint || field.invalid ? hintId : undefined}
          className={`${inputClass} pr-12 ${field.invalid ? 'ring-red-500' : ''}`}
        />
        <span
          aria-hidden="true"
          className="pointer-events-none absolute inset-y-0 right-0 flex items-center pr-3 text-sm text-slate-500"
        >
          {field.unit}
        </span>
      </div>
      {field.invalid ? (
        <p id={hintId} className="mt-1 text-xs text-red-600">
          Enter a number.
        </p>
      ) : hint ? (
        <p id={hintId} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
    </div>
  )
}

export function SelectField<T extends string>({
  label,
  value,
  onChange,
  options,
  name,
}: {
  label: string
  value: T
  onChange(value: NoInfer<T>): void
  options: readonly { value: NoInfer<T>; label: string }[]
  name: string
}) {
  const id = useId()
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <select
        id={id}
        name={name}
        value={value}
        onChange={(e) => onChange(e.target.value as T)}
        className={`${inputClass} mt-1 pr-8`}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  )
}

export function CheckboxField({
  label,
  checked,
  onChange,
  name,
}: {
  label: string
  checked: boolean
  onChange(checked: boolean): void
  name: string
}) {
  const id = useId()
  return (
    <div className="flex items-center gap-2 pt-6">
      <input
        id={id}
        name={name}
        type="checkbox"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        className="size-4 rounded border-slate-300 text-brand-600 focus:ring-brand-600"
      />
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {label}
      </label>
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

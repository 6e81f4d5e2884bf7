// Small form and layout pieces of the aero screens (the same look as the rest of the app).
import { useId, type ReactNode } from 'react'

export const inputClass =
  'block w-full rounded-md border-0 bg-white py-1.5 px-3 text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset placeholder:text-slate-400 focus:ring-2 focus:ring-brand-600 focus:ring-inset sm:text-sm'

export function Card({
  title,
  children,
  className = '',
}: {
  title?: string
  children: ReactNode
  className?: string
}) {
  return (
    <section className={`rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 ${className}`}>
      {title ? <h3 className="mb-3 text-base font-semibold text-slate-900">{title}</h3> : null}
      {children}
    </section>
  )
}

export function Button({
  children,
  onClick,
  type = 'button',
  variant = 'primary',
  disabled,
}: {
  children: ReactNode
  onClick?: () => void
  type?: 'button' | 'submit'
  variant?: 'primary' | 'secondary'
  disabled?: boolean
}) {
  const styles = {
    primary: 'bg-brand-600 text-white hover:bg-brand-700 disabled:bg-slate-400',
    secondary: 'bg-white text-slate-800 ring-1 ring-slate-300 ring-inset hover:bg-slate-50',
  }
  return (
    <button
      type={type}
      onClick={onClick}
      disabled={disabled}
      className={`rounded-md px-3 py-2 text-sm font-semibold shadow-sm disabled:cursor-not-allowed ${styles[variant]}`}
    >
      {children}
    </button>
  )
}

/** A labelled text input; `error` is shown under it and marks it invalid. */
export function Field({
  label,
  value,
  onChange,
  unit,
  error,
  hint,
  inputMode = 'decimal',
}: {
  label: string
  value: string
  onChange(value: string): void
  unit?: string
  error?: string | undefined
  hint?: string | undefined
  inputMode?: 'decimal' | 'text'
}) {
  const id = useId()
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
        {unit ? <span className="text-slate-500"> ({unit})</span> : null}
      </label>
      <input
        id={id}
        type="text"
        inputMode={inputMode}
        autoComplete="off"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error || hint ? `${id}-msg` : undefined}
        className={`${inputClass} mt-1 ${error ? 'ring-red-500' : ''}`}
      />
      {error ? (
        <p id={`${id}-msg`} className="mt-1 text-xs text-red-600">
          {error}
        </p>
      ) : hint ? (
        <p id={`${id}-msg`} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
    </div>
  )
}

export function Select<T extends string>({
  label,
  value,
  onChange,
  options,
}: {
  label: string
  value: T
  onChange(value: NoInfer<T>): void
  options: readonly { value: NoInfer<T>; label: string }[]
}) {
  const id = useId()
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <select
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value as T)}
        className={`${inputClass} mt-1`}
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

// The form kit: one set of labelled fields for every form of the app (simulation, tools, aero).
// Each control is named by its label (with the unit in brackets, so screen readers hear it too),
// and points at its error or hint through aria-describedby.
import { useId, type ReactNode } from 'react'
import type { QuantityField } from './use-quantity-field.ts'

export const inputClass =
  'block w-full rounded-md border-0 bg-white py-1.5 px-3 text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset placeholder:text-slate-400 focus:ring-2 focus:ring-brand-600 focus:ring-inset sm:text-sm'

/** What a row hands its control: the id the label points at and the message's id, if any. */
export type RowControl = { id: string; describedBy: string | undefined; invalid: boolean }

/**
 * One row of a form: the label (and unit), the control, and under it the error (red, marks the
 * control invalid) or else the hint.
 */
export function FormRow({
  label,
  unit,
  hint,
  error,
  children,
}: {
  label: string
  unit?: string | undefined
  hint?: string | undefined
  error?: string | undefined
  children(control: RowControl): ReactNode
}) {
  const id = useId()
  const msgId = `${id}-msg`
  const message = error || hint
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
        {unit ? <span className="text-slate-500"> ({unit})</span> : null}
      </label>
      {children({ id, describedBy: message ? msgId : undefined, invalid: Boolean(error) })}
      {message ? (
        <p id={msgId} className={`mt-1 text-xs ${error ? 'text-red-600' : 'text-slate-500'}`}>
          {message}
        </p>
      ) : null}
    </div>
  )
}

/** A labelled text input whose text the form keeps (and parses) itself. */
export function Field({
  label,
  value,
  onChange,
  unit,
  error,
  hint,
  inputMode = 'decimal',
  name,
  placeholder,
  required,
  type = 'text',
}: {
  label: string
  value: string
  onChange(value: string): void
  unit?: string | undefined
  error?: string | undefined
  hint?: string | undefined
  inputMode?: 'decimal' | 'text'
  name?: string
  placeholder?: string | undefined
  required?: boolean
  /** `datetime-local`: the browser's date and time picker ("YYYY-MM-DDTHH:mm"). */
  type?: 'text' | 'datetime-local'
}) {
  return (
    <FormRow label={label} unit={unit} error={error} hint={hint}>
      {(c) => (
        <input
          id={c.id}
          name={name}
          type={type}
          inputMode={type === 'text' ? inputMode : undefined}
          autoComplete="off"
          value={value}
          placeholder={placeholder}
          required={required}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={c.invalid || undefined}
          aria-describedby={c.describedBy}
          className={`${inputClass} mt-1 ${c.invalid ? 'ring-red-500' : ''}`}
        />
      )}
    </FormRow>
  )
}

/** The message of a quantity box that holds no number. */
export const NOT_A_NUMBER = 'Enter a number.'

/**
 * A numeric input in the user's units (see useQuantityField): the unit stands in the label and
 * inside the box; a text that is not a number marks it invalid with "Enter a number.".
 */
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
  return (
    <FormRow
      label={label}
      unit={field.unit}
      hint={hint}
      error={field.invalid ? NOT_A_NUMBER : undefined}
    >
      {(c) => (
        <div className="relative mt-1">
          <input
            id={c.id}
            name={name}
            type="text"
            inputMode="decimal"
            autoComplete="off"
            value={field.text}
            placeholder={placeholder}
            onChange={(e) => field.onChange(e.target.value)}
            aria-invalid={c.invalid || undefined}
            aria-describedby={c.describedBy}
            className={`${inputClass} pr-12 ${c.invalid ? 'ring-red-500' : ''}`}
          />
          <span
            aria-hidden="true"
            className="pointer-events-none absolute inset-y-0 right-0 flex items-center pr-3 text-sm text-slate-500"
          >
            {field.unit}
          </span>
        </div>
      )}
    </FormRow>
  )
}

/** A labelled choice among fixed options. */
export function Select<T extends string>({
  label,
  value,
  onChange,
  options,
  name,
  hint,
}: {
  label: string
  value: T
  onChange(value: NoInfer<T>): void
  options: readonly { value: NoInfer<T>; label: string }[]
  name?: string
  hint?: string
}) {
  return (
    <FormRow label={label} hint={hint}>
      {(c) => (
        <select
          id={c.id}
          name={name}
          value={value}
          onChange={(e) => onChange(e.target.value as T)}
          aria-describedby={c.describedBy}
          className={`${inputClass} mt-1`}
        >
          <Options options={options} />
        </select>
      )}
    </FormRow>
  )
}

/** The <option>s of a select, one per value, named by its label. */
export function Options({ options }: { options: readonly { value: string; label: string }[] }) {
  return options.map((o) => (
    <option key={o.value} value={o.value}>
      {o.label}
    </option>
  ))
}

/** A Select's options from their labels by value, in the order written. */
export function optionsOf<T extends string>(labels: Record<T, string>) {
  return (Object.entries(labels) as [T, string][]).map(([value, label]) => ({ value, label }))
}

/** A labelled checkbox, aligned with the inputs of a form grid. */
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
      <FieldLabel htmlFor={id}>{label}</FieldLabel>
    </div>
  )
}

/** The label of a form's own control (the control carries `id` = `htmlFor`). */
export function FieldLabel({ htmlFor, children }: { htmlFor: string; children: ReactNode }) {
  return (
    <label htmlFor={htmlFor} className="text-sm font-medium text-slate-700">
      {children}
    </label>
  )
}

/** A form's error message (an alert), nothing without one; `className` spaces it. */
export function FormError({
  message,
  className,
}: {
  message: ReactNode | undefined
  className?: string
}) {
  if (!message) return null
  return (
    <p
      role="alert"
      className={className ? `${className} text-sm text-red-700` : 'text-sm text-red-700'}
    >
      {message}
    </p>
  )
}

/**
 * Binds controls to the keys of an object kept in state: `bind('from')` gives the control
 * `state.from` and an onChange that sets it (`<Field label="From" {...bind('from')} />`).
 */
export function stateBinder<S extends object>(state: S, setState: (update: (s: S) => S) => void) {
  return <K extends keyof S>(key: K) => ({
    value: state[key],
    onChange: (value: S[K]) => setState((s) => ({ ...s, [key]: value })),
  })
}

/** The keys of a form whose values are the texts of its fields. */
export type TextKeys<F> = { [K in keyof F]: F[K] extends string ? K : never }[keyof F]

/**
 * Binds Fields to a form kept as texts: `bind('bikeMass')` gives the Field its value, its
 * onChange and its error (`<Field label="Bike mass" {...bind('bikeMass')} />`).
 */
export function fieldBinder<F extends object>(
  form: F,
  set: <K extends keyof F>(key: K, value: F[K]) => void,
  errors: Partial<Record<keyof F, string>> | Record<string, string>,
) {
  const byKey = errors as Partial<Record<keyof F, string>>
  return (key: TextKeys<F>) => ({
    value: form[key] as string,
    onChange: (value: string) => set(key, value as F[TextKeys<F>]),
    error: byKey[key],
  })
}

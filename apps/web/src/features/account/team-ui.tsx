// Building blocks shared by the team page's sections.
import type { ReactNode } from 'react'
import type { UseFormRegisterReturn } from 'react-hook-form'
import { FieldLabel, FormError } from '../../components/form.tsx'

export const dangerButton =
  'inline-flex items-center justify-center gap-2 rounded-lg bg-white px-4 py-2.5 text-sm font-semibold text-red-700 ring-1 ring-red-300 ring-inset transition hover:bg-red-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-600 disabled:cursor-not-allowed disabled:opacity-60'

export const inputClass =
  'block w-full rounded-lg border-0 px-3 py-2 text-sm ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-brand-600'

export function Section({
  title,
  children,
  id,
}: {
  title: string
  children: ReactNode
  id: string
}) {
  return (
    <section
      aria-labelledby={`${id}-title`}
      className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8"
    >
      <h2 id={`${id}-title`} className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      <div className="mt-5">{children}</div>
    </section>
  )
}

/** A team's name typed in a form (required, at most 100 characters), `field` its registration. */
export function TeamNameField({
  id,
  label,
  placeholder,
  field,
}: {
  id: string
  label: string
  placeholder?: string
  field: UseFormRegisterReturn<'name'>
}) {
  return (
    <div className="grow">
      <FieldLabel htmlFor={id}>{label}</FieldLabel>
      <input
        id={id}
        maxLength={100}
        required
        placeholder={placeholder}
        className={`mt-1 ${inputClass}`}
        {...field}
      />
    </div>
  )
}

export function ErrorText({ error }: { error: Error | null }) {
  return <FormError message={error?.message} className="mt-2" />
}

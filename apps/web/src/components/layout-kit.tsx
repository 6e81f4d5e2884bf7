// Small layout pieces shared by the feature screens (simulation, aero): a titled card and a
// compact button. Form fields come from the form kit (components/form.tsx).
import type { ReactNode } from 'react'

export function Card({
  title,
  children,
  className = '',
  titleLevel = 2,
}: {
  title?: string
  children: ReactNode
  className?: string
  /** Heading level of the title (2 by default; 3 inside a section that has its own h2). */
  titleLevel?: 2 | 3
}) {
  const Heading = titleLevel === 3 ? 'h3' : 'h2'
  return (
    <section className={`rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 ${className}`}>
      {title ? (
        <Heading className="mb-3 text-base font-semibold text-slate-900">{title}</Heading>
      ) : null}
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
  variant?: 'primary' | 'secondary' | 'danger'
  disabled?: boolean
}) {
  const styles = {
    primary: 'bg-brand-600 text-white hover:bg-brand-700 disabled:bg-slate-400',
    secondary: 'bg-white text-slate-800 ring-1 ring-slate-300 ring-inset hover:bg-slate-50',
    danger: 'bg-white text-red-700 ring-1 ring-red-300 ring-inset hover:bg-red-50',
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

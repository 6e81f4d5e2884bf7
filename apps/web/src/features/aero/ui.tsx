// Small layout pieces of the aero screens; form fields come from the form kit (components/form.tsx).
import type { ReactNode } from 'react'

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

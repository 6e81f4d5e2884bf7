/** Shared button looks (for <button> and <Link>): one orange accent, slate for the rest. */
const base =
  'inline-flex items-center justify-center gap-2 rounded-lg px-4 py-2.5 text-sm font-semibold transition focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:opacity-60'

export const buttonClass = {
  primary: `${base} bg-brand-700 text-white shadow-sm hover:bg-brand-800`,
  secondary: `${base} bg-white text-slate-900 ring-1 ring-slate-300 ring-inset hover:bg-slate-50`,
  ghost: `${base} text-slate-700 hover:bg-slate-100 hover:text-slate-900`,
}

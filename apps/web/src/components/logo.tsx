/** The Veloptima mark (a wheel with a rising line) and word mark. */
export function Logo({
  className = '',
  withText = true,
}: {
  className?: string
  withText?: boolean
}) {
  return (
    <span className={`inline-flex items-center gap-2 ${className}`}>
      <svg viewBox="0 0 32 32" className="h-8 w-8 shrink-0" aria-hidden="true">
        <circle
          cx="16"
          cy="16"
          r="14"
          fill="none"
          stroke="currentColor"
          strokeWidth="3"
          className="text-slate-900"
        />
        <path
          d="M7 21 L13 15 L17 18 L25 9"
          fill="none"
          stroke="currentColor"
          strokeWidth="3"
          strokeLinecap="round"
          strokeLinejoin="round"
          className="text-brand-500"
        />
      </svg>
      {withText && (
        <span className="text-lg font-bold tracking-tight text-slate-900">
          Vel<span className="text-brand-600">optima</span>
        </span>
      )}
    </span>
  )
}

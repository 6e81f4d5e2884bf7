/** A small busy indicator; `label` is what screen readers hear. */
export function Spinner({
  label = 'Loading',
  className = 'h-5 w-5',
}: {
  label?: string
  className?: string
}) {
  return (
    <span role="status" className="inline-flex items-center">
      <svg
        className={`animate-spin text-brand-600 ${className}`}
        viewBox="0 0 24 24"
        aria-hidden="true"
      >
        <circle
          cx="12"
          cy="12"
          r="10"
          stroke="currentColor"
          strokeWidth="3"
          fill="none"
          className="opacity-20"
        />
        <path
          d="M22 12a10 10 0 0 0-10-10"
          stroke="currentColor"
          strokeWidth="3"
          fill="none"
          strokeLinecap="round"
        />
      </svg>
      <span className="sr-only">{label}</span>
    </span>
  )
}

/** A centred spinner for a page that is still loading. */
export function PageSpinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="flex min-h-[40vh] items-center justify-center">
      <Spinner label={label} className="h-8 w-8" />
    </div>
  )
}

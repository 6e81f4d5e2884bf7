// A message for people with the technical detail behind a "Details" disclosure: a raw system
// error ("fetch failed: getaddrinfo ENOTFOUND …") never is the message a user reads, but stays
// at hand for a support request.

/** Raw system or network errors: worth keeping as a detail, never worth showing as the message. */
const RAW =
  /\b(fetch failed|failed to fetch|networkerror|getaddrinfo|ENOTFOUND|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EAI_AGAIN|EPIPE|socket hang up|TypeError|SyntaxError|ReferenceError|Unexpected token|status \d{3}|HTTP \d{3}|undefined is not|cannot read propert)/i

/** True when a message is a system's wording rather than a sentence for a user. */
export function isRawError(message: string): boolean {
  return RAW.test(message)
}

/**
 * The sentence to show and the detail to keep behind "Details": the error's own message when it
 * is written for people (the API's AppError messages, the readers' "expected …, got …"), else the
 * given sentence with the raw text as the detail.
 */
export function humanError(error: unknown, sentence: string): { message: string; detail?: string } {
  const raw = error instanceof Error ? error.message : String(error ?? '')
  if (!raw.trim()) return { message: sentence }
  if (isRawError(raw)) return { message: sentence, detail: raw }
  return { message: raw }
}

const TONES = {
  error: 'text-red-700',
  warning: 'text-amber-800',
  info: 'text-slate-700',
} as const

/**
 * The message, and its detail (if any) in a closed <details> under it. `alert` makes it an alert
 * region (announced by screen readers as it appears): for errors that answer an action.
 */
export function MessageDetails({
  message,
  detail,
  tone = 'error',
  alert = tone === 'error',
  className = '',
  testId,
}: {
  message: string
  detail?: string | null
  tone?: keyof typeof TONES
  alert?: boolean
  className?: string
  testId?: string
}) {
  return (
    <div
      role={alert ? 'alert' : undefined}
      className={`text-sm ${TONES[tone]} ${className}`}
      data-testid={testId}
    >
      <p>{message}</p>
      {detail && detail !== message ? (
        <details className="mt-1 text-xs text-slate-600">
          <summary className="cursor-pointer select-none">Details</summary>
          <p className="mt-1 font-mono break-words whitespace-pre-wrap">{detail}</p>
        </details>
      ) : null}
    </div>
  )
}

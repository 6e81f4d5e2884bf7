/**
 * Every code the API answers an error with, and its HTTP status (one status per code). The code
 * is stable: clients branch on it.
 */
export const ERROR_STATUS = {
  'bad-signature': 400,
  'body-too-deep': 400,
  'invalid-inputs': 400,
  'invalid-request': 400,
  'no-data': 400,
  'optimization-incomplete': 400,
  'reference-not-shared': 400,
  'invalid-credential': 401,
  unauthenticated: 401,
  'user-token-expired': 401,
  forbidden: 403,
  'invalid-signature': 403,
  'invitation-email-mismatch': 403,
  'missing-claim': 403,
  'move-forbidden': 403,
  'user-disabled': 403,
  'billing-disabled': 404,
  'invitation-invalid': 404,
  'not-found': 404,
  'owner-not-found': 404,
  'team-not-found': 404,
  'user-not-found': 404,
  'already-member': 409,
  'invitation-closed': 409,
  'job-finished': 409,
  'last-owner': 409,
  'move-conflict': 409,
  'no-seats': 409,
  'reference-in-use': 409,
  'trial-used': 409,
  'file-missing': 410,
  'invitation-expired': 410,
  'invitation-revoked': 410,
  'invitation-used': 410,
  'link-expired': 410,
  'body-too-large': 413,
  'file-too-large': 413,
  'unsupported-file-type': 415,
  'invalid-activity-file': 422,
  'invalid-course-file': 422,
  'too-many-invitations': 429,
  'too-many-jobs': 429,
  'too-many-requests': 429,
  'stripe-error': 502,
  'network-request-failed': 503,
} as const satisfies Record<string, number>

export type ErrorCode = keyof typeof ERROR_STATUS

/**
 * The one error type of the API. `code` is stable (clients branch on it) and gives the HTTP
 * `status` (ERROR_STATUS); `message` is for the user and says what to change when the user can act
 * on it; `headers` go out with the answer (e.g. Retry-After on a 429).
 */
export class AppError extends Error {
  readonly status: number
  constructor(
    public readonly code: ErrorCode,
    message: string,
    public readonly details?: unknown,
    public readonly headers?: Record<string, string>,
  ) {
    super(message)
    this.status = ERROR_STATUS[code]
  }
}

export const notFound = (what = 'The item') => new AppError('not-found', `${what} was not found.`)
export const unauthenticated = (message = 'Sign in to continue.') =>
  new AppError('unauthenticated', message)
export const forbidden = (message: string) => new AppError('forbidden', message)
export const badRequest = (message: string, details?: unknown) =>
  new AppError('invalid-request', message, details)

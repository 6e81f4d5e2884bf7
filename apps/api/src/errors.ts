/**
 * The one error type of the API. `code` is stable (clients branch on it), `status` is the HTTP
 * status, `message` is for the user and says what to change when the user can act on it;
 * `headers` go out with the answer (e.g. Retry-After on a 429).
 */
export class AppError extends Error {
  constructor(
    public readonly code: string,
    public readonly status: number,
    message: string,
    public readonly details?: unknown,
    public readonly headers?: Record<string, string>,
  ) {
    super(message)
  }
}

export const notFound = (what = 'The item') =>
  new AppError('not-found', 404, `${what} was not found.`)
export const unauthenticated = (message = 'Sign in to continue.') =>
  new AppError('unauthenticated', 401, message)
export const forbidden = (message: string) => new AppError('forbidden', 403, message)
export const badRequest = (message: string, details?: unknown) =>
  new AppError('invalid-request', 400, message, details)

/** A failed API call: the API's stable `code`, its user-facing `message` and the status. */
export class ApiError extends Error {
  constructor(
    public readonly code: string,
    message: string,
    public readonly status: number,
    public readonly details?: unknown,
  ) {
    super(message)
  }
}

type TokenSource = () => Promise<string | undefined>
let tokenSource: TokenSource = async () => undefined

/** features/auth registers where session tokens come from. */
export function setSessionTokenSource(source: TokenSource) {
  tokenSource = source
}

export async function sessionToken(): Promise<string | undefined> {
  return tokenSource()
}

/**
 * Calls the API (`/api/...`) with the session token. JSON in and out; errors become ApiError
 * with the API's code and message.
 */
export async function api<T>(
  path: string,
  init: Omit<RequestInit, 'body'> & { body?: unknown; raw?: boolean } = {},
): Promise<T> {
  const token = await tokenSource()
  const headers = new Headers(init.headers)
  if (token) headers.set('authorization', `Bearer ${token}`)
  let body: BodyInit | undefined
  if (init.body instanceof FormData || init.body instanceof Blob || typeof init.body === 'string') {
    body = init.body
  } else if (init.body !== undefined) {
    headers.set('content-type', 'application/json')
    body = JSON.stringify(init.body)
  }
  const response = await fetch(path.startsWith('/') ? path : `/api/${path}`, {
    ...init,
    headers,
    body,
    signal: init.signal ?? AbortSignal.timeout(30_000),
  })
  if (!response.ok) {
    let code = 'http-error'
    let message = `The server answered ${response.status}.`
    let details: unknown
    try {
      const data = (await response.json()) as { code?: string; message?: string; details?: unknown }
      code = data.code ?? code
      message = data.message ?? message
      details = data.details
    } catch {
      // Not JSON: keep the generic message.
    }
    throw new ApiError(code, message, response.status, details)
  }
  if (response.status === 204) return undefined as T
  if (init.raw) return response as unknown as T
  return (await response.json()) as T
}

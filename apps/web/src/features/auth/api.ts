// The two calls the sign-in makes to our API before a session exists (no session token).
import { publicConfigJson } from '../../lib/public-config.ts'

export type PublicConfig = {
  auth: { domain: string; client_id: string; audience: string }
  support_url: string
  feedback_survey_url: string | null
  map_tile_url: string
  terms_url: string
  privacy_url: string
}

export type CustomTokenResponse = {
  firebaseToken: string
  expires_at: string
  user: {
    uid: string
    email: string
    displayName: string
    photoUrl: string | null
    current_team: string | null
    trial_used: boolean
  }
  claims: Record<string, boolean>
  team: { id: string; name: string } | null
}

/** An error answer of our API: its stable code and message. */
export class AuthApiError extends Error {
  constructor(
    public readonly code: string,
    message: string,
  ) {
    super(message)
  }
}

async function call<T>(path: string, init?: RequestInit): Promise<T> {
  let response: Response
  try {
    response = await fetch(path, { ...init, signal: AbortSignal.timeout(10_000) })
  } catch (error) {
    throw new AuthApiError('network-request-failed', String(error))
  }
  if (!response.ok) {
    const data = (await response.json().catch(() => ({}))) as { code?: string; message?: string }
    throw new AuthApiError(data.code ?? 'http-error', data.message ?? `HTTP ${response.status}`)
  }
  return (await response.json()) as T
}

/** The page's one read of /api/public-config (lib/public-config.ts), errors as the auth API's. */
export const fetchPublicConfig = () =>
  publicConfigJson().then(
    (c) => c as PublicConfig,
    (error: unknown) => {
      throw new AuthApiError('network-request-failed', String(error))
    },
  )

/** §7: POST the provider's access token; the answer's `firebaseToken` is our session token. */
export const exchangeAccessToken = (accessToken: string) =>
  call<CustomTokenResponse>('/api/auth/custom-token', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ accessToken }),
  })

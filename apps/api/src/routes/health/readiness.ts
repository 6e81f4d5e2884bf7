// Readiness: whether this process can serve what a request needs now. The API's GET /api/ready
// and the worker role's GET /ready both answer from here (docs/deployment.md "Readiness").
import type { Database } from '@veloptima/db'
import type { FileStorage } from '../../files/storage.ts'

/** How long the identity provider's key set may take to answer before it counts as unreachable. */
const IDP_TIMEOUT_MS = 5000

export type DependencyCheck = { ready: boolean; problem?: string }

export type ReadinessParts = {
  database: Database
  storage: FileStorage
  /** The identity provider's key set (the API verifies sign-ins with it); absent in the worker. */
  jwksUrl?: string
  /** Further checks of the role (the worker's job threads), by the name the body gives them. */
  extra?: Record<string, () => Promise<DependencyCheck>>
}

export type Readiness = {
  ready: boolean
  body: {
    status: 'ready' | 'not-ready'
    /** The dependencies that are not there: `database`, `bucket` or `file directory`, `identity provider`, … */
    missing: string[]
    /** One sentence per missing dependency, saying what is wrong. */
    problems: string[]
    database: { driver: string; reachable: boolean; migrated: boolean }
    storage: { driver: 'local' | 's3'; ready: boolean; where: string }
    identityProvider?: { ready: boolean; jwksUrl: string }
  } & Record<string, unknown>
}

export async function checkReadiness(parts: ReadinessParts): Promise<Readiness> {
  const { database, storage, jwksUrl, extra = {} } = parts
  const [db, files, idp, ...more] = await Promise.all([
    database.check().catch(() => ({ reachable: false, migrated: false })),
    storage.check().catch((error: unknown): Awaited<ReturnType<FileStorage['check']>> => ({
      ready: false,
      where: '',
      problem: `the file storage cannot be checked: ${String(error)}`,
    })),
    jwksUrl === undefined ? undefined : checkIdentityProvider(jwksUrl),
    ...Object.values(extra).map((check) =>
      check().catch((error: unknown) => ({ ready: false, problem: String(error) })),
    ),
  ])
  const missing: string[] = []
  const problems: string[] = []
  if (!db.reachable || !db.migrated) {
    missing.push('database')
    problems.push(
      db.reachable
        ? 'the database lacks migrations this release needs'
        : `the database (${database.driver}) cannot be reached (DATABASE_URL)`,
    )
  }
  if (!files.ready) {
    missing.push(storage.driver === 's3' ? 'bucket' : 'file directory')
    problems.push(files.problem ?? 'the file storage is not ready')
  }
  if (idp && !idp.ready) {
    missing.push('identity provider')
    problems.push(idp.problem ?? 'the identity provider is not ready')
  }
  const extraBody: Record<string, { ready: boolean }> = {}
  Object.keys(extra).forEach((name, i) => {
    const result = more[i]!
    extraBody[name] = { ready: result.ready }
    if (!result.ready) {
      missing.push(name)
      problems.push(result.problem ?? `${name}: not ready`)
    }
  })
  const ready = missing.length === 0
  return {
    ready,
    body: {
      status: ready ? 'ready' : 'not-ready',
      missing,
      problems,
      database: { driver: database.driver, reachable: db.reachable, migrated: db.migrated },
      storage: { driver: storage.driver, ready: files.ready, where: files.where },
      ...(idp && jwksUrl !== undefined ? { identityProvider: { ready: idp.ready, jwksUrl } } : {}),
      ...extraBody,
    },
  }
}

/**
 * The identity provider is ready when its key set (AUTH_JWKS_URL, by default the issuer's
 * /.well-known/jwks.json) answers with at least one key: the token exchange needs it for every
 * sign-in.
 */
export async function checkIdentityProvider(jwksUrl: string): Promise<DependencyCheck> {
  try {
    const response = await fetch(jwksUrl, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(IDP_TIMEOUT_MS),
    })
    if (!response.ok) {
      return {
        ready: false,
        problem: `the identity provider's key set ${jwksUrl} answers HTTP ${response.status}`,
      }
    }
    const body = (await response.json().catch(() => ({}))) as { keys?: unknown }
    if (!Array.isArray(body.keys) || body.keys.length === 0) {
      return {
        ready: false,
        problem: `the identity provider's key set ${jwksUrl} holds no keys`,
      }
    }
    return { ready: true }
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause
    const why = cause?.code ?? cause?.message ?? (error as Error).name
    return {
      ready: false,
      problem: `the identity provider's key set ${jwksUrl} cannot be reached (${why}): check AUTH_ISSUER / AUTH_DOMAIN and that the provider or its balancer runs`,
    }
  }
}

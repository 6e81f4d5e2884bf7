import type { z } from 'zod'
import { badRequest } from '../errors.ts'

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let v = input
  for (const k of path) {
    if (v === null || typeof v !== 'object') return undefined
    v = (v as Record<PropertyKey, unknown>)[k]
  }
  return v
}

/** At most this many issues are named, each message cut at MAX_MESSAGE characters (a body
 * with 100,000 unknown keys is one issue listing them all). */
const MAX_ISSUES = 10
const MAX_MESSAGE = 300
const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s)

/**
 * A 400 `invalid-request` whose message names each field (a path into `input`), what is expected
 * and the value received, e.g. `rider_height: must be at most 2.5 m (got 25)`.
 */
export function invalidFields(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
  input: unknown,
  what = 'body',
) {
  const named = issues.slice(0, MAX_ISSUES).map((issue) => {
    const field = issue.path.length ? issue.path.map(String).join('.') : what
    const got = valueAt(input, [...issue.path])
    const shown =
      got === undefined ? '' : ` (got ${JSON.stringify(got)?.slice(0, 60) ?? String(got)})`
    const message = `${field}: ${cut(issue.message, MAX_MESSAGE)}${shown}`
    return { field, message }
  })
  const more = issues.length - named.length
  const text = named.map((i) => i.message).join('; ') + (more > 0 ? `; and ${more} more` : '')
  return badRequest(text, { issues: named })
}

/**
 * Validates `input` with a zod schema; on failure a 400 `invalid-request` whose message names
 * each field, what is expected and the value received (see invalidFields).
 */
export function parse<S extends z.ZodType>(schema: S, input: unknown, what = 'body'): z.output<S> {
  const result = schema.safeParse(input)
  if (result.success) return result.data
  throw invalidFields(result.error.issues, input, what)
}

const camel = (s: string) => s.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())
const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)

/** API body (snake_case) → column values (camelCase), leaving out undefined. */
export function toColumns(body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(body)) if (v !== undefined) out[camel(k)] = v
  return out
}

/** A row (camelCase, Dates) → API JSON (snake_case, ISO strings), without `omit` keys. */
export function toJson(row: Record<string, unknown>, omit: string[] = []): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(row)) {
    if (omit.includes(k)) continue
    out[snake(k)] = v instanceof Date ? v.toISOString() : v
  }
  return out
}

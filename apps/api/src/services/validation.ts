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

/**
 * Validates `input` with a zod schema; on failure a 400 `invalid-request` whose message names
 * each field, what is expected and the value received, e.g.
 * `rider_height: must be at most 2.5 m (got 25)`.
 */
export function parse<S extends z.ZodType>(schema: S, input: unknown, what = 'body'): z.output<S> {
  const result = schema.safeParse(input)
  if (result.success) return result.data
  const issues = result.error.issues.map((issue) => {
    const field = issue.path.length ? issue.path.join('.') : what
    const got = valueAt(input, issue.path)
    const shown =
      got === undefined ? '' : ` (got ${JSON.stringify(got)?.slice(0, 60) ?? String(got)})`
    return { field, message: `${field}: ${issue.message}${shown}` }
  })
  throw badRequest(issues.map((i) => i.message).join('; '), { issues })
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

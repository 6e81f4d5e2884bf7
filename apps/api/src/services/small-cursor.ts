import { badRequest } from '../errors.ts'

/** Opaque cursors for lists ordered by something other than creation time. */
export const encodeKey = (key: unknown[]) => Buffer.from(JSON.stringify(key)).toString('base64url')

export function decodeKey<T extends unknown[]>(
  s: string | undefined,
  check: (v: unknown[]) => v is T,
): T | undefined {
  if (!s) return undefined
  try {
    const v: unknown = JSON.parse(Buffer.from(s, 'base64url').toString('utf8'))
    if (Array.isArray(v) && check(v)) return v
  } catch {
    // fall through
  }
  throw badRequest('cursor: not a cursor this API returned (use next_cursor as given).')
}

export const isNumKey = (v: unknown[]): v is [number] =>
  v.length === 1 && typeof v[0] === 'number' && Number.isFinite(v[0])

export const isNumIdKey = (v: unknown[]): v is [number, string] =>
  v.length === 2 &&
  typeof v[0] === 'number' &&
  Number.isFinite(v[0]) &&
  typeof v[1] === 'string' &&
  /^[0-9a-f-]{36}$/i.test(v[1])

/** Page from `limit + 1` rows, with the cursor of the last kept row. */
export function page<R, T>(rows: R[], limit: number, key: (r: R) => unknown[], map: (r: R) => T) {
  const more = rows.length > limit
  const kept = more ? rows.slice(0, limit) : rows
  const last = kept[kept.length - 1]
  return { items: kept.map(map), next_cursor: more && last ? encodeKey(key(last)) : null }
}

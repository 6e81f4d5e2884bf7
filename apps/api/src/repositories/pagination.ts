import { and, desc, eq, gt, or, sql, type SQL } from 'drizzle-orm'
import type { PgColumn } from 'drizzle-orm/pg-core'
import { badRequest } from '../errors.ts'

/**
 * Keyset pagination, newest first, by (created_at, id). The cursor carries created_at as
 * PostgreSQL's own text (microseconds, which a JS Date would lose) and the id.
 */
export type Cursor = { ts: string; id: string }

export function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify([c.ts, c.id])).toString('base64url')
}

export function decodeCursor(s: string | undefined): Cursor | undefined {
  if (!s) return undefined
  try {
    const parsed: unknown = JSON.parse(Buffer.from(s, 'base64url').toString('utf8'))
    if (
      Array.isArray(parsed) &&
      parsed.length === 2 &&
      typeof parsed[0] === 'string' &&
      typeof parsed[1] === 'string' &&
      /^[0-9a-f-]{36}$/i.test(parsed[1])
    ) {
      return { ts: parsed[0], id: parsed[1] }
    }
  } catch {
    // fall through
  }
  throw badRequest('cursor: not a cursor this API returned (use next_cursor as given).')
}

/** Columns to select for the cursor, the condition after a cursor and the order. */
export function keyset(t: { createdAt: PgColumn; id: PgColumn }, cursor: Cursor | undefined) {
  return {
    /** Named `ts`: a union of list branches is ordered by its output columns' names. */
    ts: sql<string>`${t.createdAt}::text`.as('ts'),
    after: cursor
      ? sql`(${t.createdAt}, ${t.id}) < (${cursor.ts}::timestamptz, ${cursor.id}::uuid)`
      : undefined,
    order: [desc(t.createdAt), desc(t.id)],
  }
}

/** Builds the page from `limit + 1` fetched rows. */
export function pageFrom<R extends { ts: string }, T>(
  fetched: R[],
  limit: number,
  id: (r: R) => string,
  map: (r: R) => T,
): { items: T[]; next_cursor: string | null } {
  const more = fetched.length > limit
  const kept = more ? fetched.slice(0, limit) : fetched
  const last = kept[kept.length - 1]
  return {
    items: kept.map(map),
    next_cursor: more && last ? encodeCursor({ ts: last.ts, id: id(last) }) : null,
  }
}

export const where = (...parts: (SQL | undefined)[]) => and(...parts.filter(Boolean))

/**
 * Rows after `after` = (key, id) in ascending (column, id) order, the keyset of a list walked
 * forwards; every row without `after`.
 */
export function ascendingAfter(
  column: PgColumn,
  id: PgColumn,
  after: [key: number, id: string] | undefined,
): SQL | undefined {
  return after ? or(gt(column, after[0]), and(eq(column, after[0]), gt(id, after[1]))) : undefined
}

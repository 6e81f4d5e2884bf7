import { and, eq, or, sql, type SQL } from 'drizzle-orm'
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core'
import type { Db } from '@veloptima/db'
import { ownedByAny, visibleTo, type OwnerCols } from './ownership.ts'
import { keyset, type Cursor } from './pagination.ts'

/** A table of owned items (owner.ts in packages/db): id, owner columns, timestamps. */
export type OwnedTable = PgTable &
  OwnerCols & { id: PgColumn; createdAt: PgColumn; updatedAt: PgColumn }

export type ListOptions = {
  limit: number
  cursor?: Cursor | undefined
  /** The `owner=` filter (already split). */
  owners?: string[] | undefined
  /** Further conditions (e.g. type=pacing). */
  filter?: SQL | undefined
}

/**
 * SQL for one owned collection, always scoped to the caller: reads see the caller's items and
 * their teams' items (plus `publicRead` rows, such as sample courses); writes only the former.
 */
export class OwnedCollection<Row extends { id: string }> {
  constructor(
    private readonly table: OwnedTable,
    private readonly publicRead?: SQL,
  ) {}

  private readable(db: Db, uid: string): SQL {
    const own = visibleTo(db, this.table, uid)
    return this.publicRead ? or(own, this.publicRead)! : own
  }

  async list(db: Db, uid: string, o: ListOptions): Promise<(Row & { ts: string })[]> {
    const t = this.table
    const k = keyset(t, o.cursor)
    const scope = o.owners ? ownedByAny(db, t, uid, o.owners) : this.readable(db, uid)
    const found = await db
      .select({ row: t, ts: k.ts } as never)
      .from(t)
      .where(and(scope, o.filter, k.after))
      .orderBy(...k.order)
      .limit(o.limit + 1)
    return (found as unknown as { row: Row; ts: string }[]).map((f) => ({ ...f.row, ts: f.ts }))
  }

  async find(db: Db, uid: string, id: string): Promise<Row | undefined> {
    const t = this.table
    const [row] = await db
      .select()
      .from(t)
      .where(and(eq(t.id, id), this.readable(db, uid)))
    return row as Row | undefined
  }

  /** The item if the caller may change it. */
  async findWritable(db: Db, uid: string, id: string): Promise<Row | undefined> {
    const t = this.table
    const [row] = await db
      .select()
      .from(t)
      .where(and(eq(t.id, id), visibleTo(db, t, uid)))
    return row as Row | undefined
  }

  async insert(db: Db, values: Record<string, unknown>): Promise<Row> {
    const [row] = await db
      .insert(this.table)
      .values(values as never)
      .returning()
    return row as unknown as Row
  }

  async update(
    db: Db,
    uid: string,
    id: string,
    set: Record<string, unknown>,
  ): Promise<Row | undefined> {
    const t = this.table
    const [row] = await db
      .update(t)
      .set({ ...set, updatedAt: sql`now()` } as never)
      .where(and(eq(t.id, id), visibleTo(db, t, uid)))
      .returning()
    return row as Row | undefined
  }

  async remove(db: Db, uid: string, id: string): Promise<boolean> {
    const t = this.table
    const gone = await db
      .delete(t)
      .where(and(eq(t.id, id), visibleTo(db, t, uid)))
      .returning({ id: t.id })
    return gone.length > 0
  }
}

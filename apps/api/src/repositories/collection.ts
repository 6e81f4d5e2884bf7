import { and, eq, getTableColumns, or, sql, type SQL } from 'drizzle-orm'
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
  /** What a list selects: every column but `listOmit`, chosen in SQL. */
  readonly listColumns: Record<string, PgColumn>

  constructor(
    private readonly table: OwnedTable,
    private readonly options: {
      /** Rows everyone may read (sample courses). */
      publicRead?: SQL
      /** Columns lists never return (a course's track and segments): never read for a list. */
      listOmit?: string[]
    } = {},
  ) {
    const omit = new Set(options.listOmit ?? [])
    this.listColumns = Object.fromEntries(
      Object.entries(getTableColumns(table) as Record<string, PgColumn>).filter(
        ([key]) => !omit.has(key),
      ),
    )
  }

  private get publicRead() {
    return this.options.publicRead
  }

  private readable(db: Db, uid: string): SQL {
    const own = visibleTo(db, this.table, uid)
    return this.publicRead ? or(own, this.publicRead)! : own
  }

  /** The list query (a page of the caller's items, newest first) without running it. */
  listQuery(db: Db, uid: string, o: ListOptions) {
    const t = this.table
    const k = keyset(t, o.cursor)
    const scope = o.owners ? ownedByAny(db, t, uid, o.owners) : this.readable(db, uid)
    return db
      .select({ ...this.listColumns, ts: k.ts } as never)
      .from(t)
      .where(and(scope, o.filter, k.after))
      .orderBy(...k.order)
      .limit(o.limit + 1)
  }

  /** A page of items: the list columns only (`listOmit` never leaves the database). */
  async list(db: Db, uid: string, o: ListOptions): Promise<(Row & { ts: string })[]> {
    return (await this.listQuery(db, uid, o)) as unknown as (Row & { ts: string })[]
  }

  /** Owner and sample flag of an item the caller can see (reference checks read nothing more). */
  async findRef(
    db: Db,
    uid: string,
    id: string,
  ): Promise<{ ownerTeam: string | null; sample: boolean } | undefined> {
    const t = this.table as OwnedTable & { sample?: PgColumn }
    const [row] = await db
      .select({ ownerTeam: t.ownerTeam, sample: t.sample ?? sql<boolean>`false` })
      .from(t)
      .where(and(eq(t.id, id), this.readable(db, uid)))
    return row as { ownerTeam: string | null; sample: boolean } | undefined
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

import { and, count, desc, eq, getTableColumns, inArray, or, sql, type SQL } from 'drizzle-orm'
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core'
import {
  aeroSessions,
  courses,
  devices,
  files,
  optimizations,
  riderSetups,
  teamMembers,
  type Db,
} from '@veloptima/db'
import { findVisible, listScopes, visibleTo, type OwnerCols } from './ownership.ts'
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

/** The owner columns' values of an item. */
export type OwnerColumns = { ownerUid: string | null; ownerTeam: string | null }

/** What `listQuery` needs of drizzle's set-operator builder (the branches' types are erased). */
type Unionable = {
  unionAll(next: unknown): Unionable
  orderBy(...order: SQL[]): { limit(n: number): unknown }
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

  /**
   * The list query (a page of the caller's items, newest first) without running it. Each owner
   * scope (`listScopes`: the caller's, their teams', the public rows) is its own branch that walks
   * its keyset index backwards from the cursor and stops at `limit + 1` rows; a `union all` of the
   * branches, ordered and cut again, is the page. One query with the scopes OR-ed together would
   * read every visible row through a bitmap and sort them all (slow once a caller owns thousands).
   * The teams' branch is one lateral keyset walk per membership of the caller, so a team the
   * caller left is never read.
   */
  listQuery(db: Db, uid: string, o: ListOptions) {
    const t = this.table
    const n = o.limit + 1
    const branch = (where: SQL | undefined) => {
      const k = keyset(t, o.cursor)
      return db
        .select({ ...this.listColumns, ts: k.ts } as never)
        .from(t)
        .where(and(where, o.filter, k.after))
        .orderBy(...k.order)
        .limit(n)
    }
    const branches = listScopes(uid, o.owners, Boolean(this.publicRead)).map((scope) => {
      if (scope.kind === 'mine') return branch(eq(t.ownerUid, uid))
      if (scope.kind === 'public') return branch(this.publicRead)
      const items = branch(sql`${t.ownerTeam} = ${teamMembers.teamId}`).as('team_items')
      const fields = items as unknown as Record<string, PgColumn>
      const memberships = and(
        eq(teamMembers.uid, uid),
        scope.only ? inArray(teamMembers.teamId, scope.only) : undefined,
      )
      return db
        .select(
          Object.fromEntries(
            [...Object.keys(this.listColumns), 'ts'].map((key) => [key, fields[key]]),
          ) as never,
        )
        .from(teamMembers)
        .crossJoinLateral(items)
        .where(memberships)
        .orderBy(desc(fields.createdAt!), desc(fields.id!))
        .limit(n) as unknown as ReturnType<typeof branch>
    })
    const [first, ...rest] = branches
    if (!first) return branch(sql`false`)
    if (!rest.length) return first
    // drizzle renders `(first) union all (next) … order by "created_at" desc, "id" desc limit n`
    // and maps the rows by the first branch's fields (the same for every branch).
    let union = first as unknown as Unionable
    for (const next of rest) union = union.unionAll(next)
    return union.orderBy(desc(t.createdAt), desc(t.id)).limit(n) as typeof first
  }

  /**
   * The list query of a page without `owner=` or other filters, prepared under `name`: the
   * caller and the cursor are placeholders (`uid`, and `ts` and `id` with a cursor).
   */
  prepareList(db: Db, name: string, limit: number, withCursor: boolean) {
    const uid = sql.placeholder('uid') as unknown as string
    const cursor = withCursor
      ? {
          ts: sql.placeholder('ts') as unknown as string,
          id: sql.placeholder('id') as unknown as string,
        }
      : undefined
    return this.listQuery(db, uid, { limit, cursor }).prepare(name)
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

  /** Who owns an item, whoever asks (undefined for no such item). */
  async owner(db: Db, id: string): Promise<OwnerColumns | undefined> {
    const t = this.table
    const [row] = await db
      .select({ ownerUid: t.ownerUid, ownerTeam: t.ownerTeam })
      .from(t)
      .where(eq(t.id, id))
    return row as OwnerColumns | undefined
  }

  async find(db: Db, uid: string, id: string): Promise<Row | undefined> {
    return (await findVisible(db, this.table, uid, id, this.publicRead)) as Row | undefined
  }

  /** The item if the caller may change it. */
  async findWritable(db: Db, uid: string, id: string): Promise<Row | undefined> {
    return (await findVisible(db, this.table, uid, id)) as Row | undefined
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

export const riderSetupRepo = new OwnedCollection<typeof riderSetups.$inferSelect>(riderSetups)
export const courseRepo = new OwnedCollection<typeof courses.$inferSelect>(courses, {
  publicRead: sql`${courses.sample}`,
  listOmit: ['track', 'segments'],
})
export const optimizationRepo = new OwnedCollection<typeof optimizations.$inferSelect>(
  optimizations,
)
export const deviceRepo = new OwnedCollection<typeof devices.$inferSelect>(devices)
export const aeroSessionRepo = new OwnedCollection<typeof aeroSessions.$inferSelect>(aeroSessions)
export const fileRepo = new OwnedCollection<typeof files.$inferSelect>(files, {
  listOmit: ['storageKey'],
})

/** How many items a team owns in each owned collection, by the collections' names in the API. */
export async function teamItemCounts(db: Db, teamId: string) {
  const owned = async (t: OwnedTable) => {
    const [row] = await db.select({ n: count() }).from(t).where(eq(t.ownerTeam, teamId))
    return Number(row?.n ?? 0)
  }
  return {
    courses: await owned(courses),
    rider_setups: await owned(riderSetups),
    optimizations: await owned(optimizations),
    devices: await owned(devices),
    aero_sessions: await owned(aeroSessions),
    files: await owned(files),
  }
}

/** The list filter `type=…` of optimizations. */
export const optimizationsOfType = (type: (typeof optimizations.$inferSelect)['type']): SQL =>
  eq(optimizations.type, type)

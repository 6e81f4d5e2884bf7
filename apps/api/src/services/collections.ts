import { z } from 'zod'
import type { Db } from '@veloptima/db'
import { AppError, notFound } from '../errors.ts'
import type { OwnedCollection } from '../repositories/collection.ts'
import type { SQL } from 'drizzle-orm'
import {
  isMember,
  isUuid,
  ownerOf,
  ownerToColumns,
  roleIn,
  type Owner,
} from '../repositories/ownership.ts'
import { decodeCursor, pageFrom } from '../repositories/pagination.ts'
import { notifyTeamItems } from '../live/repository.ts'
import { parse } from './validation.ts'

/** How one owned collection maps between API JSON and rows, and what it checks. */
export type CollectionSpec<Row extends { id: string }> = {
  /** "Rider setup": used in messages. */
  noun: string
  repo: OwnedCollection<Row>
  createSchema: z.ZodType<{ owner?: string | undefined } & Record<string, unknown>>
  patchSchema: z.ZodType<Record<string, unknown>>
  /** Full JSON of one item. */
  json(row: Row): unknown
  /** JSON in lists (defaults to `json`): leaves out bulky fields. */
  listJson?(row: Row): unknown
  /** API body fields → column values. */
  columns(body: Record<string, unknown>): Record<string, unknown>
  /**
   * Checks that referenced items (course, setup, file, devices) are visible to the caller and,
   * for a team's item, belong to that team (or are samples): whatever a team item uses, every
   * member of the team may see.
   */
  checkRefs?(db: Db, uid: string, body: Record<string, unknown>, owner: Owner): Promise<void>
  /**
   * A patch checked against the stored item's other fields (a course's new segments against its
   * kept statistics); throws 400 naming the field. The body's own fields are the schema's.
   */
  checkPatch?(body: Record<string, unknown>, current: Row): void
  /**
   * Before a move: that no team item refers to this one from a team other than the new owner
   * (a team's optimization keeps seeing its course). Throws 409 `reference-in-use`.
   */
  checkReferrers?(db: Db, id: string, owner: Owner): Promise<void>
  /**
   * Referenced items that belong to this item alone (the same owner's, used by no other item:
   * a course's own uploaded source file) and so move with it: the references rule does not
   * apply to them, every other reference keeps it.
   */
  carried?(db: Db, row: Row): Promise<Carried[]>
}

/** An item that moves with the one that owns it: its field there, its collection and id. */
export type Carried = { field: string; repo: OwnedCollection<{ id: string }>; id: string }

/**
 * Resolves the `owner` of a new item: the caller by default, or a team the caller belongs to.
 * Anything else is "not found", never a hint that the team exists.
 */
export async function resolveOwner(db: Db, uid: string, owner: string | undefined): Promise<Owner> {
  if (owner === undefined || owner === uid) return { kind: 'user', uid }
  if (isUuid(owner) && (await isMember(db, uid, owner))) return { kind: 'team', teamId: owner }
  throw new AppError('owner-not-found', `owner: "${owner}" is neither you nor one of your teams.`)
}

/** Generic list/get/create/update/delete of an owned collection, scoped to the caller. */
export class CollectionService<Row extends { id: string }> {
  constructor(
    private readonly db: Db,
    readonly spec: CollectionSpec<Row>,
  ) {}

  async list(
    uid: string,
    q: { limit: number; cursor?: string | undefined; owner?: string[] | undefined },
    filter?: SQL,
  ) {
    const cursor = decodeCursor(q.cursor)
    const rows =
      q.owner || filter
        ? await this.spec.repo.list(this.db, uid, {
            limit: q.limit,
            cursor,
            owners: q.owner,
            filter,
          })
        : ((await this.prepared(q.limit, Boolean(cursor)).execute({
            uid,
            ts: cursor?.ts,
            id: cursor?.id,
          })) as (Row & { ts: string })[])
    const map = this.spec.listJson ?? this.spec.json
    return pageFrom(rows, q.limit, (r) => r.id, map)
  }

  /** The plain list's statement per page size and cursor presence, built once (see `prepared`). */
  private readonly statements = new Map<
    string,
    { execute(p: Record<string, unknown>): Promise<unknown> }
  >()

  /**
   * The list query of a page without `owner=` or other filters (what the app's pages and the list
   * benchmark ask), built by drizzle once and kept as a prepared statement: the caller and the
   * cursor are placeholders, so each request skips building the SQL and PostgreSQL re-uses the
   * parsed statement on each pooled connection.
   */
  private prepared(limit: number, withCursor: boolean) {
    const key = `${limit}:${withCursor ? 'c' : ''}`
    let statement = this.statements.get(key)
    if (!statement) {
      statement = this.spec.repo.prepareList(
        this.db,
        `list_${this.spec.noun.replace(/\W/g, '_')}_${limit}${withCursor ? '_c' : ''}`,
        limit,
        withCursor,
      )
      this.statements.set(key, statement)
    }
    return statement
  }

  async get(uid: string, id: string): Promise<unknown> {
    const row = isUuid(id) ? await this.spec.repo.find(this.db, uid, id) : undefined
    if (!row) throw notFound(`The ${this.spec.noun}`)
    return this.spec.json(row)
  }

  async create(uid: string, input: unknown): Promise<unknown> {
    const body = parse(this.spec.createSchema, input)
    const { owner: ownerInput, ...rest } = body
    const owner = await resolveOwner(this.db, uid, ownerInput)
    await this.spec.checkRefs?.(this.db, uid, rest, owner)
    const row = await this.spec.repo.insert(this.db, {
      ...this.spec.columns(rest),
      ...ownerToColumns(owner),
    })
    if (owner.kind === 'team') await notifyTeamItems(this.db, [owner.teamId])
    return this.spec.json(row)
  }

  async update(uid: string, id: string, input: unknown): Promise<unknown> {
    const body = parse(this.spec.patchSchema, input)
    const current = isUuid(id) ? await this.spec.repo.findWritable(this.db, uid, id) : undefined
    if (!current) throw notFound(`The ${this.spec.noun}`)
    const { ownerTeam } = current as unknown as { ownerTeam: string | null }
    const owner = ownerOf(ownerTeam, uid)
    this.spec.checkPatch?.(body, current)
    await this.spec.checkRefs?.(this.db, uid, body, owner)
    const row = await this.spec.repo.update(this.db, uid, id, this.spec.columns(body))
    if (!row) throw notFound(`The ${this.spec.noun}`)
    await notifyTeamItems(this.db, [ownerTeam])
    return this.spec.json(row)
  }

  async remove(uid: string, id: string): Promise<void> {
    const current = isUuid(id) ? await this.spec.repo.find(this.db, uid, id) : undefined
    if (!current || !(await this.spec.repo.remove(this.db, uid, id))) {
      throw notFound(`The ${this.spec.noun}`)
    }
    await notifyTeamItems(this.db, [(current as unknown as { ownerTeam: string | null }).ownerTeam])
  }

  /**
   * Moves an item between its owners: to one of the caller's teams, or back to the caller.
   * A personal item is moved by its owner; a team's item by the team's owners and admins
   * (403 `move-forbidden` for a member); someone else's item is 404. The item's references
   * (course, setup, file, devices) must be visible and, when moving to a team, the team's or
   * samples (400 `reference-not-shared` naming the field that blocks it), except the items that
   * belong to it alone (`carried`: a course's own source file, the files read into an aero
   * session), which move with it in one transaction.
   */
  async move(uid: string, id: string, input: unknown): Promise<unknown> {
    const { owner: target } = parse(moveSchema, input)
    const current = isUuid(id) ? await this.spec.repo.findWritable(this.db, uid, id) : undefined
    if (!current) throw notFound(`The ${this.spec.noun}`)
    const { ownerTeam } = current as unknown as { ownerTeam: string | null }
    if (ownerTeam && !(await this.managesTeam(uid, ownerTeam))) {
      throw new AppError(
        'move-forbidden',
        `Only the team’s owners and admins move its ${this.spec.noun}s.`,
      )
    }
    const owner = await resolveOwner(this.db, uid, target)
    const carried = (await this.spec.carried?.(this.db, current)) ?? []
    const refs = this.spec.json(current) as Record<string, unknown>
    for (const c of carried) delete refs[c.field]
    await this.spec.checkRefs?.(this.db, uid, refs, owner)
    await this.spec.checkReferrers?.(this.db, id, owner)
    const row = await this.db.transaction(async (tx) => {
      const db = tx as unknown as Db
      const moved = await this.spec.repo.update(db, uid, id, ownerToColumns(owner))
      if (!moved) return undefined
      for (const c of carried) {
        if (!(await c.repo.update(db, uid, c.id, ownerToColumns(owner)))) {
          throw new AppError(
            'move-conflict',
            `${c.field}: ${c.id} changed while the ${this.spec.noun} moved; try again.`,
            { field: c.field },
          )
        }
      }
      return moved
    })
    if (!row) throw notFound(`The ${this.spec.noun}`)
    await notifyTeamItems(this.db, [ownerTeam, owner.kind === 'team' ? owner.teamId : null])
    return this.spec.json(row)
  }

  private async managesTeam(uid: string, teamId: string): Promise<boolean> {
    const role = await roleIn(this.db, uid, teamId)
    return role === 'owner' || role === 'admin'
  }
}

const moveSchema = z.object({
  owner: z.string().min(1, 'expected your user id or one of your teams’ ids'),
})

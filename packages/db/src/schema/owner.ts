import { sql } from 'drizzle-orm'
import { check, index, text, timestamp, uuid, type PgColumn } from 'drizzle-orm/pg-core'
import { createdAt } from './columns.ts'
import { teams, users } from './identity.ts'

/**
 * The owner of a collection item: a user (`owner_uid`) or a team (`owner_team`), exactly one.
 * Two columns rather than one text column so that foreign keys cascade when a user or team goes.
 * The API shows them as one `owner` field (the uid or the team id), as the specification's
 * "owner in [uid, teamId]" query does.
 */
export const ownerColumns = () => ({
  ownerUid: text('owner_uid').references(() => users.uid, { onDelete: 'cascade' }),
  ownerTeam: uuid('owner_team').references(() => teams.id, { onDelete: 'cascade' }),
})

export const timestamps = () => ({
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})

type OwnedCols = { ownerUid: PgColumn; ownerTeam: PgColumn; createdAt: PgColumn; id: PgColumn }

/**
 * One index per owner column, followed by the lists' keyset order (created_at, id): every list
 * query filters on an owner and reads newest first, so a page is a bitmap or backward index
 * scan, never a scan of the table. They also serve the owners' cascading deletes.
 */
export const ownerListIndexes = (name: string, t: OwnedCols) => [
  index(`${name}_owner_uid_keyset_idx`).on(t.ownerUid, t.createdAt, t.id),
  index(`${name}_owner_team_keyset_idx`).on(t.ownerTeam, t.createdAt, t.id),
]

/** Exactly one owner, and the owner list indexes. */
export const ownerConstraints = (name: string, t: OwnedCols) => [
  check(`${name}_one_owner`, sql`num_nonnulls(${t.ownerUid}, ${t.ownerTeam}) = 1`),
  ...ownerListIndexes(name, t),
]

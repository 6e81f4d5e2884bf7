import { sql } from 'drizzle-orm'
import { check, index, text, timestamp, uuid, type PgColumn } from 'drizzle-orm/pg-core'
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
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})

/** Exactly one owner, and an index per owner column (every list query filters on them). */
export const ownerConstraints = (name: string, t: { ownerUid: PgColumn; ownerTeam: PgColumn }) => [
  check(`${name}_one_owner`, sql`num_nonnulls(${t.ownerUid}, ${t.ownerTeam}) = 1`),
  index(`${name}_owner_uid_idx`).on(t.ownerUid),
  index(`${name}_owner_team_idx`).on(t.ownerTeam),
]

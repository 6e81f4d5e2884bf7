import { timestamp, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core'

/** The primary key of a table whose rows the database numbers: a random uuid. */
export const generatedId = () => uuid('id').primaryKey().defaultRandom()

/** When the row was made. */
export const createdAt = () =>
  timestamp('created_at', { withTimezone: true }).notNull().defaultNow()

/** The id of the row this one belongs to: required, and deleted with it. */
export const parentId = <N extends string>(name: N, parent: () => AnyPgColumn) =>
  uuid(name).notNull().references(parent, { onDelete: 'cascade' })

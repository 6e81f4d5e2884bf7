import { bigint, boolean, index, jsonb, pgTable, text } from 'drizzle-orm/pg-core'
import { createdAt, generatedId } from './columns.ts'
import { users } from './identity.ts'
import type { JsonObject } from './json-types.ts'

/**
 * The specification's notifications: shown once as a popup, then marked `showed`.
 * `seq` is a monotonic number used as the live stream's event id, so that a client
 * reconnecting with Last-Event-ID gets every notification created after the last one it saw.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: generatedId(),
    seq: bigint('seq', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
    uid: text('uid')
      .notNull()
      .references(() => users.uid, { onDelete: 'cascade' }),
    /** info | success | warning | error */
    type: text('type').notNull().default('info'),
    title: text('title').notNull(),
    text: text('text').notNull().default(''),
    /** Id of a stored file (files.id) the popup links to for download. */
    downloadBlob: text('download_blob'),
    /** Where the notification leads, e.g. an optimization result. */
    data: jsonb('data').$type<JsonObject>(),
    showed: boolean('showed').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index('notifications_uid_showed_idx').on(t.uid, t.showed, t.seq),
    /** The list without a `showed` filter: the caller's, newest seq first. */
    index('notifications_uid_seq_idx').on(t.uid, t.seq),
    index('notifications_seq_idx').on(t.seq),
  ],
)

import type { Db } from '@veloptima/db'
import {
  notificationListQuerySchema,
  notificationPatchSchema,
  type Notification,
} from '@veloptima/contracts'
import { notFound } from '../errors.ts'
import { isUuid } from '../repositories/ownership.ts'
import * as repo from '../repositories/notifications.ts'
import { decodeKey, isNumKey, page } from './small-cursor.ts'
import { parse } from './validation.ts'

export const notificationJson = (n: repo.NotificationRow): Notification => ({
  id: n.id,
  seq: n.seq,
  user: n.uid,
  type: n.type,
  title: n.title,
  text: n.text,
  download_blob: n.downloadBlob,
  data: n.data,
  showed: n.showed,
  created_at: n.createdAt.toISOString(),
})

/** The caller's notifications: list, mark showed (merge), delete. */
export class NotificationService {
  constructor(private readonly db: Db) {}

  async list(uid: string, query: unknown) {
    const q = parse(notificationListQuerySchema, query, 'query')
    const before = decodeKey(q.cursor, isNumKey)?.[0]
    const rows = await repo.listNotifications(this.db, uid, {
      limit: q.limit,
      beforeSeq: before,
      showed: q.showed,
    })
    return page(rows, q.limit, (r) => [r.seq], notificationJson)
  }

  async get(uid: string, id: string) {
    const row = isUuid(id) ? await repo.findNotification(this.db, uid, id) : undefined
    if (!row) throw notFound('The notification')
    return notificationJson(row)
  }

  async patch(uid: string, id: string, input: unknown) {
    const body = parse(notificationPatchSchema, input)
    if (!isUuid(id)) throw notFound('The notification')
    const row =
      body.showed === undefined
        ? await repo.findNotification(this.db, uid, id)
        : await repo.updateNotification(this.db, uid, id, { showed: body.showed })
    if (!row) throw notFound('The notification')
    return notificationJson(row)
  }

  async remove(uid: string, id: string) {
    if (!isUuid(id) || !(await repo.deleteNotification(this.db, uid, id))) {
      throw notFound('The notification')
    }
  }
}

// The live stream and commits out of seq order: two writers (two worker processes)
// insert notifications; the one that took seq N commits after the one that took N + 1. The
// stream must still deliver N (the multi-process test lost one this way before the fix).
// PostgreSQL only: PGlite has one connection, its commits cannot interleave.
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import pg from 'pg'
import { testDriver } from '@veloptima/db/testing'
import { startTestApp, type TestApp } from './helpers.ts'
import { caller } from './platform-fixtures.ts'
import { SseClient } from './sse-client.ts'

const enabled = testDriver() === 'pg'

describe.skipIf(!enabled)('live stream: notifications committed out of seq order', () => {
  let t: TestApp
  let base: string
  let token: string
  const clients: pg.Client[] = []

  beforeAll(async () => {
    t = await startTestApp({ LIVE_HEARTBEAT_MS: '1000', LIVE_POLL_MS: '500' })
    await t.app.listen({ port: 0, host: '127.0.0.1' })
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`
    const auth = await t.bearer({ uid: 'ord', displayName: 'Ord' })
    token = auth.authorization.slice(7)
    await caller(t, auth).get('/api/users/ord')
  })
  afterAll(async () => {
    for (const c of clients) await c.end().catch(() => undefined)
    await t.close()
  })

  it('delivers the earlier seq that commits later, once, and every later one once', async () => {
    const url = t.database.pool!.options.connectionString!
    const connect = async () => {
      const c = new pg.Client({ connectionString: url })
      await c.connect()
      clients.push(c)
      return c
    }
    const [slow, fast] = [await connect(), await connect()]
    const live = await SseClient.open(`${base}/api/live?access_token=${token}`)
    await live.until((e) => e.some((x) => x.event === 'rider-profile'))
    const insert = (c: pg.Client, title: string) =>
      c.query<{ seq: string }>(
        `insert into notifications (uid, title, type) values ('ord', $1, 'info') returning seq`,
        [title],
      )
    await slow.query('begin')
    const early = Number((await insert(slow, 'early')).rows[0]!.seq)
    const late = Number((await insert(fast, 'late')).rows[0]!.seq) // autocommit
    expect(late).toBeGreaterThan(early)
    await live.until((e) => e.some((x) => x.event === 'notification' && x.data.includes('late')))
    // The stream has sent seq `late` while `early` is still uncommitted.
    await slow.query('commit')
    await live.until(
      (e) => e.some((x) => x.event === 'notification' && x.data.includes('early')),
      10_000,
      'the notification committed after a later seq',
    )
    await new Promise((r) => setTimeout(r, 1500)) // a few more pumps: nothing sent twice
    const sent = live.events.filter((x) => x.event === 'notification').map((x) => Number(x.id))
    expect(sent.sort((a, b) => a - b)).toEqual([early, late])
    live.close()
  })
})

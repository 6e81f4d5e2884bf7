import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { jobs, notifications } from '@veloptima/db'
import { openTestDatabase, testDriver } from '@veloptima/db/testing'
import { buildApp } from '../src/app.ts'
import { loadConfig } from '../src/config.ts'
import { loadSessionTokens } from '../src/services/session-token.ts'
import { startTestApp, type TestApp } from './helpers.ts'
import { caller } from './platform-fixtures.ts'
import { SseClient } from './sse-client.ts'

type N = { id: string; seq: number; title: string; user: string; showed: boolean }

describe(`live updates (SSE) on ${testDriver()}`, () => {
  let t: TestApp
  let base: string
  let token: string
  const clients: SseClient[] = []
  const open = async (query = '', headers: Record<string, string> = {}) => {
    const c = await SseClient.open(`${base}/api/live?access_token=${token}${query}`, headers)
    clients.push(c)
    return c
  }
  const notify = (uid: string, title: string) =>
    t.database.db.insert(notifications).values({ uid, title, type: 'info' })

  beforeAll(async () => {
    t = await startTestApp({ LIVE_HEARTBEAT_MS: '1000', LIVE_POLL_MS: '0' })
    await t.app.listen({ port: 0, host: '127.0.0.1' })
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`
    token = (await t.bearer({ uid: 'liv', displayName: 'Liv' })).authorization.slice(7)
    await caller(t, await t.bearer({ uid: 'other' })).get('/api/users/other')
  })
  afterAll(async () => {
    for (const c of clients) c.close()
    await t.close()
  })

  it('refuses a stream without a valid session', async () => {
    const res = await fetch(`${base}/api/live`)
    expect(res.status).toBe(401)
    expect(((await res.json()) as { code: string }).code).toBe('unauthenticated')
    const bad = await fetch(`${base}/api/live?access_token=nonsense`)
    expect(bad.status).toBe(401)
  })

  it('sends the rider profile on connect and on every change, as text/event-stream', async () => {
    const res = await fetch(`${base}/api/live`, {
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(3000),
    })
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/)
    await res.body?.cancel()

    const c = await open()
    await c.until((e) => e.some((x) => x.event === 'rider-profile'), 10_000, 'first profile')
    expect(c.of('rider-profile')).toEqual([null])
    const me = caller(t, await t.bearer({ uid: 'liv', displayName: 'Liv' }))
    await me.put('/api/rider-profiles/liv', { rider_weight: 58, rider_height: 1.66 })
    await c.until((e) => e.filter((x) => x.event === 'rider-profile').length >= 2)
    expect(c.of('rider-profile')[1]).toMatchObject({
      uid: 'liv',
      rider_name: 'Liv',
      rider_weight: 58,
      rider_height: 1.66,
    })
    // Another user's profile change is not sent.
    await caller(t, await t.bearer({ uid: 'other' })).put('/api/rider-profiles/other', {
      rider_weight: 90,
    })
    await me.put('/api/rider-profiles/liv', { cp: 240 })
    await c.until((e) => e.filter((x) => x.event === 'rider-profile').length >= 3)
    expect(c.of<{ uid: string } | null>('rider-profile').map((p) => p?.uid)).toEqual([
      undefined,
      'liv',
      'liv',
    ])
    c.close()
  })

  it('delivers new unshown notifications with id = seq, only the caller’s, and heartbeats', async () => {
    const c = await open()
    await c.until((e) => e.some((x) => x.event === 'rider-profile'))
    await notify('other', 'Not for Liv')
    await notify('liv', 'Optimization finished')
    await c.until((e) => e.some((x) => x.event === 'notification'), 10_000, 'a notification')
    const [n] = c.of<N>('notification')
    expect(n).toMatchObject({ title: 'Optimization finished', user: 'liv', showed: false })
    const ev = c.events.find((e) => e.event === 'notification')!
    expect(ev.id).toBe(String(n!.seq))
    await c.until(() => c.comments.includes('ping'), 5000, 'a heartbeat')
    expect(c.of<N>('notification').map((x) => x.title)).toEqual(['Optimization finished'])
    c.close()
  })

  it('resumes after a reconnect with Last-Event-ID: nothing lost, nothing repeated', async () => {
    const first = await open()
    await first.until((e) => e.some((x) => x.event === 'rider-profile'))
    await notify('liv', 'Before the drop')
    await first.until((e) => e.some((x) => x.event === 'notification' && x.data.includes('drop')))
    const lastId = first.events.filter((e) => e.event === 'notification').at(-1)!.id!
    first.close()

    // While disconnected, two more notifications arrive.
    await notify('liv', 'During the drop 1')
    await notify('liv', 'During the drop 2')

    const again = await open('', { 'last-event-id': lastId })
    await again.until(
      (e) => e.filter((x) => x.event === 'notification').length >= 2,
      10_000,
      'the missed notifications',
    )
    await new Promise((r) => setTimeout(r, 300))
    expect(again.of<N>('notification').map((x) => x.title)).toEqual([
      'During the drop 1',
      'During the drop 2',
    ])
    again.close()
  })

  it('without Last-Event-ID a new stream gets every notification still unshown', async () => {
    const me = caller(t, await t.bearer({ uid: 'liv' }))
    const unshown = (await me.get('/api/notifications?showed=false&limit=200')).body.items as N[]
    await me.patch(`/api/notifications/${unshown[0]!.id}`, { showed: true })
    const c = await open()
    await c.until(
      (e) => e.filter((x) => x.event === 'notification').length >= unshown.length - 1,
      10_000,
      'unshown notifications',
    )
    await new Promise((r) => setTimeout(r, 300))
    const titles = c.of<N>('notification').map((x) => x.title)
    expect(titles).toEqual(
      unshown
        .slice(1)
        .map((x) => x.title)
        .reverse(),
    )
    c.close()
  })

  it('ends the stream when its session token expires; ?last_event_id= resumes a new one', async () => {
    const tokens = await loadSessionTokens(t.database, t.app.deps.config.publicUrl)
    const { token: short } = await tokens.sign(
      { uid: 'liv', email: 'liv@example.com', displayName: 'Liv', claims: {} },
      2,
    )
    const c = await SseClient.open(`${base}/api/live?access_token=${short}`)
    clients.push(c)
    await c.until((e) => e.some((x) => x.event === 'notification'))
    const last = c.events.filter((e) => e.event === 'notification').at(-1)!.id!
    await c.until(() => c.ended, 10_000, 'the end of the stream')
    await notify('liv', 'After expiry')
    const fresh = await open(`&last_event_id=${last}`)
    await fresh.until((e) => e.some((x) => x.event === 'notification'))
    await new Promise((r) => setTimeout(r, 300))
    expect(fresh.of<N>('notification').map((x) => x.title)).toEqual(['After expiry'])
  })

  it('pushes job progress of the caller’s jobs', async () => {
    const c = await open()
    await c.until((e) => e.some((x) => x.event === 'rider-profile'))
    const [job] = await t.database.db
      .insert(jobs)
      .values({ ownerUid: 'liv', kind: 'optimization', status: 'running', progress: 40 })
      .returning()
    await c.until((e) => e.some((x) => x.event === 'job'), 10_000, 'a job event')
    expect(c.of('job')[0]).toMatchObject({ id: job!.id, status: 'running', progress: 40 })
    // A team's job reaches its members, with each progress update.
    const me = caller(t, await t.bearer({ uid: 'liv' }))
    const team = (await me.post('/api/teams', { name: 'Liv Team' })).body
    const [teamJob] = await t.database.db
      .insert(jobs)
      .values({ ownerTeam: team.id, kind: 'import', status: 'running', progress: 10 })
      .returning()
    await t.database.db
      .update(jobs)
      .set({ progress: 90, updatedAt: new Date(Date.now() + 1000) })
      .where(eq(jobs.id, teamJob!.id))
    await c.until(
      (e) => e.some((x) => x.event === 'job' && x.data.includes('"progress":90')),
      10_000,
      'team job progress',
    )
    // Another user's job is not sent.
    await t.database.db.insert(jobs).values({ ownerUid: 'other', kind: 'import', progress: 5 })
    await new Promise((r) => setTimeout(r, 500))
    expect(c.of<{ progress: number }>('job').some((j) => j.progress === 5)).toBe(false)
    c.close()
  })
})

describe(`live updates without NOTIFY (the poll fallback) on ${testDriver()}`, () => {
  it('still delivers a notification written where this process cannot hear NOTIFY', async () => {
    const database = await openTestDatabase()
    // As if the writer were another connection whose NOTIFY never reaches this process.
    database.listen = async () => async () => undefined
    const config = loadConfig({
      LOG_LEVEL: 'silent',
      DATA_DIR: '/tmp/veloptima-test',
      LIVE_POLL_MS: '200',
    })
    const sessionTokens = await loadSessionTokens(database, config.publicUrl)
    const app = await buildApp({ config, database, sessionTokens })
    await app.listen({ port: 0, host: '127.0.0.1' })
    const port = (app.server.address() as AddressInfo).port
    const { token } = await sessionTokens.sign({
      uid: 'polly',
      email: 'p@example.com',
      displayName: 'P',
      claims: {},
    })
    const c = await SseClient.open(`http://127.0.0.1:${port}/api/live?access_token=${token}`)
    try {
      await c.until((e) => e.some((x) => x.event === 'rider-profile'))
      await database.db.insert(notifications).values({ uid: 'polly', title: 'Heard by polling' })
      await c.until((e) => e.some((x) => x.event === 'notification'), 10_000, 'polled')
      expect(c.of<N>('notification')[0]!.title).toBe('Heard by polling')
    } finally {
      c.close()
      await app.close()
      await database.close()
    }
  })
})

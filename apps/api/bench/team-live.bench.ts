// Team items live: `npm run bench -- team-live`. On the database DB_DRIVER names
// (PGlite by default; `DB_DRIVER=pg` uses TEST_DATABASE_URL), a team of BENCH_MEMBERS members
// (default 10), each with an open live stream, holding BENCH_TEAM_ITEMS courses (default 2000,
// the same small course each). Prints, asserts nothing:
//   delivery  a member creates a team course (POST /api/courses): ms until every other member's
//             stream has its `team-item` event, p50 and max over BENCH_ROUNDS (default 20)
//   reading   one stream's reading of its teams' lists (teamItemSignature), mean ms
//   poll      the hub's fallback query for team items changed in the last seconds, mean ms
import type { AddressInfo } from 'node:net'
import { sql } from 'drizzle-orm'
import { courses, teamMembers, teams, users } from '@veloptima/db'
import { teamItemSignature, teamsChangedSince } from '../src/live/repository.ts'
import { startTestApp } from '../test/helpers.ts'
import { caller, courseBody } from '../test/platform-fixtures.ts'
import { SseClient } from '../test/sse-client.ts'

const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 10)
const ITEMS = Number(process.env.BENCH_TEAM_ITEMS ?? 2000)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20)

const t = await startTestApp({ LIVE_POLL_MS: '2000' })
await t.app.listen({ port: 0, host: '127.0.0.1' })
const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`
const db = t.database.db
const uids = Array.from({ length: MEMBERS }, (_, i) => `member${i}`)
await db
  .insert(users)
  .values(uids.map((uid) => ({ uid, email: `${uid}@example.com`, displayName: uid })))
const [team] = await db.insert(teams).values({ name: 'Bench team' }).returning()
await db.insert(teamMembers).values(
  uids.map((uid, i) => ({
    teamId: team!.id,
    uid,
    role: i === 0 ? ('owner' as const) : ('member' as const),
  })),
)
const body = courseBody('Stored')
for (let i = 0; i < ITEMS; i += 500) {
  const n = Math.min(500, ITEMS - i)
  await db.insert(courses).values(
    Array.from({ length: n }, (_, k) => ({
      ownerTeam: team!.id,
      name: `Course ${i + k}`,
      sourceFormat: 'gpx',
      track: body.track,
      segments: body.segments,
      stats: body.stats,
    })),
  )
}
await db.execute(sql`analyze`)

const streams: SseClient[] = []
for (const uid of uids) {
  const token = (await t.bearer({ uid })).authorization.slice(7)
  const s = await SseClient.open(`${base}/api/live?access_token=${token}`)
  await s.until((e) => e.some((x) => x.event === 'rider-profile'), 20_000, `${uid}'s stream`)
  streams.push(s)
}
const writer = caller(t, await t.bearer({ uid: uids[0]! }))
const count = (s: SseClient) => s.events.filter((e) => e.event === 'team-item').length

const delivery: number[] = []
for (let round = 0; round < ROUNDS; round++) {
  const before = streams.map(count)
  const started = performance.now()
  const res = await writer.post('/api/courses', { ...courseBody(`New ${round}`), owner: team!.id })
  if (res.status !== 201) throw new Error(`create: ${res.status} ${JSON.stringify(res.body)}`)
  await Promise.all(
    streams.slice(1).map((s, i) => s.until(() => count(s) > before[i + 1]!, 20_000, 'team-item')),
  )
  delivery.push(performance.now() - started)
}
delivery.sort((a, b) => a - b)

async function mean(label: string, times: number, f: () => Promise<unknown>) {
  await f()
  const started = performance.now()
  for (let i = 0; i < times; i++) await f()
  return `${label} ${((performance.now() - started) / times).toFixed(2)} ms`
}
const reading = await mean('reading', 50, () => teamItemSignature(db, uids[1]!))
const poll = await mean('poll', 50, () => teamsChangedSince(db, sql`now() - interval '5 seconds'`))

console.log(
  `team-live on ${t.database.driver}: ${MEMBERS} members, ${ITEMS + ROUNDS} team courses\n` +
    `  delivery  p50 ${delivery[Math.floor(ROUNDS / 2)]!.toFixed(1)} ms, max ${delivery.at(-1)!.toFixed(1)} ms (create → all ${MEMBERS - 1} other streams, ${ROUNDS} rounds)\n` +
    `  ${reading} (one stream's teams' lists)\n` +
    `  ${poll} (hub fallback, 5 collections)`,
)
for (const s of streams) s.close()
await t.close()

// The authorization matrix, generated from the route table: every registered route × every kind
// of caller answers what docs/security.md ("Who may call what") says. A route missing from the
// page, or declared otherwise than its row, fails the first test; a caller answered otherwise than
// the row implies fails the second.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { jobs, notifications, optimizationResults, users } from '@veloptima/db'
import { testDriver } from '@veloptima/db/testing'
import type { Policy, TeamRole } from '../src/plugins/policy.ts'
import { TEAM_RANK } from '../src/plugins/policy.ts'
import { multipart, postFile } from './files-helpers.ts'
import { startTestApp, type TestApp } from './helpers.ts'
import { courseBody, deviceBody, sessionBody, setupBody } from './platform-fixtures.ts'

type Rule = {
  access: 'public' | 'operator' | 'user'
  claims: string[]
  anyClaim: string[]
  team?: TeamRole
}
type Row = { method: string; url: string; rule: Rule }

const SIM = 'create:simulations'
const AERO = 'access:aerooptimization'
const FEEDBACK = 'access:betaFeedback'
const ALL = { [SIM]: true, [AERO]: true, [FEEDBACK]: true }

/** The rows of docs/security.md's route table. */
function documentedRoutes(): Row[] {
  const text = readFileSync(join(import.meta.dirname, '../../../docs/security.md'), 'utf8')
  const rows: Row[] = []
  for (const line of text.split('\n')) {
    const m = /^\| (GET|POST|PUT|PATCH|DELETE) \| `([^`]+)` \| (.+) \|$/.exec(line)
    if (!m) continue
    const who = m[3]!
    const rule: Rule = { access: 'user', claims: [], anyClaim: [] }
    if (who.startsWith('anyone')) rule.access = 'public'
    else if (who.startsWith('operator')) rule.access = 'operator'
    else {
      expect(who, line).toMatch(/^signed in/)
      for (const part of who.split(' + ').slice(1)) {
        const claims = [...part.matchAll(/`([^`]+)`/g)].map((c) => c[1]!)
        if (claims.length) {
          if (part.includes(' or ')) rule.anyClaim = claims
          else rule.claims = claims
        } else {
          const team = /^team (member|admin|owner)$/.exec(part)
          expect(team, `${line}: "${part}"`).not.toBeNull()
          rule.team = team![1] as TeamRole
        }
      }
    }
    rows.push({ method: m[1]!, url: m[2]!, rule })
  }
  return rows
}

function declared(policy: Policy): Rule {
  if (policy.access !== 'user') return { access: policy.access, claims: [], anyClaim: [] }
  return {
    access: 'user',
    claims: [...(policy.claims ?? [])],
    anyClaim: [...(policy.anyClaim ?? [])],
    ...(policy.team ? { team: policy.team.role } : {}),
  }
}

/** The kinds of caller of the matrix. Members are members of the owner's team. */
type Kind =
  | 'anonymous'
  | 'garbage token'
  | 'disabled user'
  | 'no claims'
  | 'simulations only'
  | 'aero only'
  | 'team member'
  | 'removed member'
  | "another user's item"
const KINDS: Kind[] = [
  'anonymous',
  'garbage token',
  'disabled user',
  'no claims',
  'simulations only',
  'aero only',
  'team member',
  'removed member',
  "another user's item",
]
const UID: Record<Kind, string> = {
  anonymous: '',
  'garbage token': '',
  'disabled user': 'dora',
  'no claims': 'nora',
  'simulations only': 'sam',
  'aero only': 'ada',
  'team member': 'carol',
  'removed member': 'rex',
  "another user's item": 'bob',
}
const CLAIMS: Record<Kind, Record<string, boolean>> = {
  anonymous: {},
  'garbage token': {},
  'disabled user': ALL,
  'no claims': {},
  'simulations only': { [SIM]: true },
  'aero only': { [AERO]: true },
  'team member': ALL,
  'removed member': ALL,
  "another user's item": ALL,
}
/** Members of the owner's team (as 'member'); rex was one and is removed before the matrix. */
const MEMBERS = ['dora', 'nora', 'sam', 'ada', 'carol', 'rex']

type Outcome = 'through' | 'unauthenticated' | 'disabled' | 'claim' | 'role' | 'hidden' | 'refused'

/** What the table says a caller of this kind gets. */
function expected(row: Row, kind: Kind, itemParam: boolean): Outcome {
  const { rule } = row
  if (rule.access === 'public') return 'through'
  if (rule.access === 'operator') return 'refused'
  if (kind === 'anonymous' || kind === 'garbage token') return 'unauthenticated'
  if (kind === 'disabled user') return 'disabled'
  const claims = CLAIMS[kind]
  if (rule.claims.some((c) => !claims[c])) return 'claim'
  if (rule.anyClaim.length && !rule.anyClaim.some((c) => claims[c])) return 'claim'
  const outsider = kind === 'removed member' || kind === "another user's item"
  if (rule.team) {
    if (outsider) return 'hidden'
    if (TEAM_RANK.member < TEAM_RANK[rule.team]) return 'role'
  }
  if (itemParam && outsider) return 'hidden'
  return 'through'
}

/**
 * Routes whose handler answers 404 for a reason of its own even to a caller who may see the
 * item: the analysis version 1 of a session that was never analysed.
 */
const NOT_FOUND_IS_THROUGH = new Set(['GET /api/aero-sessions/:id/analyses/:version'])
/** 404 codes a handler gives a caller it let through: payment is not configured in tests. */
const THROUGH_CODES = new Set(['billing-disabled'])
/**
 * The readiness check answers 503 "not-ready" to anyone it lets through when a dependency is
 * missing (here the identity provider's key set: this app starts none; health.int.test.ts checks
 * readiness itself).
 */
const NOT_READY_IS_THROUGH = new Set(['GET /api/ready'])

/**
 * A valid body for the routes that read one before they look the item up (an invalid body is
 * 400 for anyone, which says nothing about the item); `{}` elsewhere.
 */
const BODIES: Record<string, (uid: string) => unknown> = {
  'PATCH /api/files/:id': () => ({ name: 'renamed.gpx' }),
  'PATCH /api/optimization-results/:id': () => ({ label: 'relabelled' }),
  'POST /api/aero-sessions/:id/runs': () => ({ name: 'R2' }),
  'POST /api/aero-sessions/:id/data-blocks': () => ({ kind: 'cdam', data: {} }),
}
for (const path of ['rider-setups', 'courses', 'optimizations', 'devices', 'aero-sessions']) {
  BODIES[`POST /api/${path}/:id/move`] = (uid) => ({ owner: uid })
}
/** Routes that read a multipart upload before the item. */
const UPLOADS = new Set(['POST /api/aero-sessions/:id/files'])

/** A stream that stays open: the policy's refusals are checked, the stream by platform-live. */
const STREAMS = new Set(['GET /api/live'])

describe(`authorization matrix from docs/security.md on ${testDriver()}`, () => {
  let t: TestApp
  const headers: Partial<Record<Kind, Record<string, string>>> = {}
  let aliceHeaders: Record<string, string>

  /** The owner's items: alice's team's, plus per-caller ones (notifications) and alice's own. */
  type World = Record<string, string>

  async function call(
    method: string,
    url: string,
    h: Record<string, string> = aliceHeaders,
    payload?: unknown,
  ) {
    const res = await t.app.inject({
      method: method as 'GET',
      url,
      headers: h,
      payload: payload as never,
      remoteAddress: '203.0.113.7',
    })
    return res
  }
  async function made(method: string, url: string, payload: unknown): Promise<string> {
    const res = await call(method, url, aliceHeaders, payload)
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300)
    return (res.json() as { id: string }).id
  }

  /** A team owned by alice with every member, and one item of each kind in it. */
  async function newWorld(): Promise<World> {
    const w: World = {}
    w.team = await made('POST', '/api/teams', { name: 'Team A' })
    for (const uid of MEMBERS) {
      await made('POST', `/api/teams/${w.team}/members`, { uid, role: 'member' })
    }
    const owner = { owner: w.team }
    w.setup = await made('POST', '/api/rider-setups', { ...setupBody(), ...owner })
    w.course = await made('POST', '/api/courses', { ...courseBody(), ...owner })
    w.optimization = await made('POST', '/api/optimizations', {
      type: 'pacing',
      name: 'Plan',
      ...owner,
    })
    w.device = await made('POST', '/api/devices', { ...deviceBody(), ...owner })
    w.session = await made('POST', '/api/aero-sessions', { ...sessionBody(), ...owner })
    w.run = await made('POST', `/api/aero-sessions/${w.session}/runs`, { name: 'R1' })
    w.block = await made('POST', `/api/aero-sessions/${w.session}/data-blocks`, {
      kind: 'run',
      run_id: w.run,
      data: { cda: 0.25 },
    })
    const file = await postFile(t.app, '/api/files', aliceHeaders, 'a.gpx', '<gpx></gpx>', {
      owner: w.team,
    })
    expect(file.statusCode, file.body).toBe(201)
    w.file = (file.json() as { id: string }).id
    w.invitation = (
      (
        await call('POST', `/api/teams/${w.team}/invitations`, aliceHeaders, {
          email: 'invitee@example.com',
          role: 'member',
        })
      ).json() as { invitation: { id: string } }
    ).invitation.id
    const db = t.database.db
    const [result] = await db
      .insert(optimizationResults)
      .values({ optimizationId: w.optimization, version: 1, inputs: { x: 1 } })
      .returning()
    w.result = result!.id
    const [job] = await db
      .insert(jobs)
      .values({ ownerTeam: w.team, kind: 'optimization', status: 'succeeded', progress: 100 })
      .returning()
    w.job = job!.id
    for (const uid of ['alice', ...MEMBERS, 'bob']) {
      const [n] = await db
        .insert(notifications)
        .values({ uid, title: `For ${uid}` })
        .returning()
      w[`notification:${uid}`] = n!.id
    }
    // rex leaves the team: from now on he is an outsider with every claim.
    const removed = await call('DELETE', `/api/teams/${w.team}/members/rex`)
    expect(removed.statusCode).toBe(204)
    return w
  }

  /** The concrete URL of a route for a caller, and whether it names an item of the owner's. */
  function concrete(url: string, kind: Kind, w: World): { path: string; itemParam: boolean } {
    const self = UID[kind]
    const another = kind === "another user's item"
    let itemParam = false
    const path = url.replace(/:([A-Za-z]+)/g, (_, name: string) => {
      if (name === 'uid' && /^\/api\/(users|rider-profiles)\//.test(url)) {
        if (another) itemParam = true
        return another ? 'alice' : self || 'alice'
      }
      if (name === 'uid') {
        itemParam = true // a member of the team: the caller leaving, or changed by an admin
        return self || 'carol'
      }
      if (name === 'version') return '1'
      if (name === 'invitationId') return w.invitation!
      itemParam = true
      const kindOf: [RegExp, string][] = [
        [/^\/api\/teams\//, 'team'],
        [/^\/api\/rider-setups\//, 'setup'],
        [/^\/api\/courses\//, 'course'],
        [/^\/api\/optimizations\//, 'optimization'],
        [/^\/api\/optimization-results\//, 'result'],
        [/^\/api\/devices\//, 'device'],
        [/^\/api\/aero-sessions\//, 'session'],
        [/^\/api\/aero-runs\//, 'run'],
        [/^\/api\/aero-data-blocks\//, 'block'],
        [/^\/api\/files\//, 'file'],
        [/^\/api\/jobs\//, 'job'],
        [/^\/api\/weather\/course\//, 'course'],
      ]
      if (url.startsWith('/api/notifications/')) {
        itemParam = another // everyone else reads their own
        return w[`notification:${another ? 'alice' : self || 'alice'}`]!
      }
      const found = kindOf.find(([re]) => re.test(url))
      expect(found, `no item for ${url}`).toBeDefined()
      return w[found![1]]!
    })
    return { path, itemParam }
  }

  let routes: Row[]
  let shared: World

  beforeAll(async () => {
    t = await startTestApp()
    aliceHeaders = await t.bearer({ uid: 'alice', claims: ALL })
    for (const kind of KINDS) {
      if (kind === 'anonymous') headers[kind] = {}
      else if (kind === 'garbage token') headers[kind] = { authorization: 'Bearer e30.e30.garbage' }
      else headers[kind] = await t.bearer({ uid: UID[kind], claims: CLAIMS[kind] })
    }
    // Every caller has a users row (as after their first sign-in); dora's is then disabled.
    for (const kind of KINDS) {
      if (UID[kind]) expect((await call('GET', '/api/teams', headers[kind])).statusCode).toBe(200)
    }
    expect((await call('GET', '/api/teams')).statusCode).toBe(200)
    for (const uid of ['alice', ...MEMBERS, 'bob']) {
      const h = uid === 'alice' ? aliceHeaders : await t.bearer({ uid })
      const profile = { rider_height: 1.75, rider_weight: 70 }
      expect((await call('PUT', `/api/rider-profiles/${uid}`, h, profile)).statusCode).toBe(200)
    }
    routes = documentedRoutes()
    shared = await newWorld()
    await t.database.db.update(users).set({ disabled: true }).where(eq(users.uid, 'dora'))
    t.app.platform.users.forget('dora')
  })
  afterAll(() => t.close())

  it('the page lists every registered route once, with the declared policy', () => {
    const table = new Map(routes.map((r) => [`${r.method} ${r.url}`, r.rule]))
    expect(table.size, 'a route is listed twice').toBe(routes.length)
    const registered = t.app.policies.map((p) => `${p.method} ${p.url}`)
    expect([...table.keys()].sort()).toEqual([...registered].sort())
    for (const p of t.app.policies) {
      expect(table.get(`${p.method} ${p.url}`), `${p.method} ${p.url}`).toEqual(declared(p.policy))
    }
  })

  it('a route registered without a policy stops the app at startup', async () => {
    const { default: Fastify } = await import('fastify')
    const { registerPolicy } = await import('../src/plugins/policy.ts')
    const app = Fastify()
    registerPolicy(app)
    expect(() => app.get('/api/forgotten', async () => ({ secret: true }))).toThrow(
      /GET \/api\/forgotten has no access policy/,
    )
    await app.close()
  })

  it('every route × every kind of caller answers what the page says', async () => {
    const failures: string[] = []
    let checked = 0
    for (const row of routes) {
      for (const kind of KINDS) {
        const first = concrete(row.url, kind, shared)
        const outcome = expected(row, kind, first.itemParam)
        const key = `${row.method} ${row.url}`
        if (outcome === 'through' && STREAMS.has(key)) continue
        // A caller let through a changing request gets a world of its own to change.
        const world = outcome === 'through' && row.method !== 'GET' ? await newWorld() : shared
        const { path } = world === shared ? first : concrete(row.url, kind, world)
        const body = row.method === 'GET' ? undefined : (BODIES[key]?.(UID[kind]) ?? {})
        const upload = UPLOADS.has(key)
          ? await multipart('run.csv', 'time,power\n0,200\n')
          : undefined
        const res = upload
          ? await call(row.method, path, { ...headers[kind], ...upload.headers }, upload.payload)
          : await call(row.method, path, headers[kind], body)
        const code = res.headers['content-type']?.includes('json')
          ? (res.json() as { code?: string }).code
          : undefined
        const s = res.statusCode
        const ok = {
          unauthenticated: s === 401,
          disabled: s === 403 && code === 'user-disabled',
          claim: s === 403 && code === 'missing-claim',
          role: s === 403 && code === 'forbidden',
          hidden: s === 404,
          refused: s === 403,
          through:
            (s < 500 ||
              (s === 503 && NOT_READY_IS_THROUGH.has(key) && res.json().status === 'not-ready')) &&
            s !== 401 &&
            !(s === 403 && ['user-disabled', 'missing-claim'].includes(code ?? '')) &&
            (s !== 404 || NOT_FOUND_IS_THROUGH.has(key) || THROUGH_CODES.has(code ?? '')),
        }[outcome]
        checked++
        if (!ok)
          failures.push(
            `${key} as ${kind}: expected ${outcome}, got ${s} ${res.body.slice(0, 160)}`,
          )
        if (row.rule.access === 'user' && s !== 401) {
          const cache = res.headers['cache-control']
          if (cache !== 'no-store') failures.push(`${key} as ${kind}: cache-control ${cache}`)
        }
      }
    }
    expect(failures).toEqual([])
    expect(checked).toBeGreaterThan(routes.length * 8)
  })
})

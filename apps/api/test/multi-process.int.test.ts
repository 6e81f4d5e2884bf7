// Scale-out, assembled from deploy/ as shipped (cluster.ts lists the only substitutions:
// addresses, ports, paths): nginx (deploy/nginx.conf) in front of two API processes
// (deploy/systemd/veloptima-api@.service, instances 00 and 10, JOB_WORKERS=0), two worker
// processes (veloptima-worker.service), the environment of deploy/env/*.env, one PostgreSQL
// database and one bucket of an S3-protocol server (s3rver, STORAGE_DRIVER=s3) — every process a
// real child process started as its unit's ExecStart — and Debian's Chromium using the app
// through the balancer.
// Runs with DB_DRIVER=pg only (PGlite is one process by design); nginx is installed by
// `npm test` (scripts/services.mjs) or taken from NGINX_PATH / /usr/sbin/nginx.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  CreateBucketCommand,
  DeleteBucketCommand,
  GetObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq, sql } from 'drizzle-orm'
import {
  files,
  jobs,
  notifications,
  optimizationResults,
  users,
  type Database,
} from '@veloptima/db'
import { testDriver } from '@veloptima/db/testing'
import { DEMO_PASSWORD } from '../src/idp/index.ts'
import {
  logRecords,
  S3_BUCKET,
  startCluster,
  startedJobs,
  stopProcess,
  type Cluster,
} from './cluster.ts'
import { readEnvFile, readUnit } from './cluster-deploy.ts'
import { multipart, syntheticGpx } from './files-helpers.ts'
import { signInWithPassword, type FlowSettings } from './idp-flow.ts'
import {
  authState,
  captureToken,
  openBrowser,
  openProbe,
  probeUntil,
  signIn,
  type BrowserSession,
} from './multi-process-browser.ts'
import { queueLong, queueShort, succeeded, type Queued } from './multi-process-helpers.ts'
import { eventually, writtenBy } from './runs-helpers.ts'
import { SseClient } from './sse-client.ts'
import { syntheticClimb } from '../../../packages/formats/test/fixtures/synthetic-climb.ts'

const HEARTBEAT_S = 10 // JOB_HEARTBEAT_SECONDS's minimum
// 40 here (about 35 s); 200 run in `npm run bench -- scale` (169 s on 2 workers,
// docs/benchmarks.md "Deployment"), or here with MULTI_PROCESS_JOBS=200.
const JOBS = Number(process.env.MULTI_PROCESS_JOBS ?? 40)

/** The self-made 9 km climb as a GPX file the browser uploads. */
const climbFile = join(mkdtempSync(join(tmpdir(), 'veloptima-mp-')), 'climb.gpx')
writeFileSync(climbFile, syntheticClimb().gpx)
const enabled = testDriver() === 'pg'
if (!enabled) {
  console.log(
    'multi-process.int.test.ts skipped: it needs PostgreSQL (DB_DRIVER=pg, TEST_DATABASE_URL); ' +
      'PGlite runs in one process.',
  )
}

describe.skipIf(!enabled)(
  'several processes behind nginx on one PostgreSQL and one S3 bucket',
  () => {
    let cluster: Cluster
    let database: Database
    let publicUrl = ''
    let token = ''
    let uid = ''
    let browser: BrowserSession | undefined
    const api = (i: number) => `http://127.0.0.1:${cluster.apiPorts[i]}`
    const auth = () => ({ authorization: `Bearer ${token}` })

    beforeAll(async () => {
      cluster = await startCluster({
        apis: 2,
        workers: 2,
        threads: 1,
        s3: true,
        web: true,
        logRequests: true,
        env: {
          JOB_HEARTBEAT_SECONDS: String(HEARTBEAT_S),
          LIVE_RETRY_MS: '1000',
          // One account queues all of them at once: above the default cap of unfinished jobs.
          JOB_MAX_ACTIVE_PER_USER: String(JOBS + 10),
        },
      })
      ;({ database, publicUrl } = cluster)
    }, 240_000)

    afterAll(async () => {
      await browser?.close()
      await cluster?.close()
    }, 60_000)

    /** GET a readiness endpoint: its status and body. */
    const ready = async (url: string) => {
      const res = await fetch(url)
      return {
        status: res.status,
        body: (await res.json()) as { status: string; missing: string[]; problems: string[] },
      }
    }
    const readyUrls = () => [
      ...cluster.apiPorts.map((port) => `http://127.0.0.1:${port}/api/ready`),
      ...cluster.workerPorts.map((port) => `http://127.0.0.1:${port}/ready`),
    ]

    it('runs deploy/ as shipped: the units start node on the built file, the env files agree with nginx.conf, nginx keeps its files in its prefix', () => {
      const api = readUnit('veloptima-api@.service', '10')
      const worker = readUnit('veloptima-worker.service')
      // The supervised PID is the server itself: node on the built file, nothing between.
      expect(api.execStart).toEqual([
        `${api.workingDirectory}/node_modules/.bin/node`,
        'apps/api/dist/server/server.mjs',
      ])
      expect(worker.execStart).toEqual([
        `${worker.workingDirectory}/node_modules/.bin/node`,
        'apps/api/dist/server/worker.mjs',
      ])
      // Instances 00 and 10 are nginx's upstreams; api.env does not override their ports.
      const nginx = readFileSync(new URL('../../../deploy/nginx.conf', import.meta.url), 'utf8')
      const apiEnv = readEnvFile('api.env')
      expect(apiEnv.PORT).toBeUndefined()
      expect(apiEnv.IDP_PORT).toBeUndefined()
      for (const instance of ['00', '10']) {
        const { PORT, IDP_PORT } = readUnit('veloptima-api@.service', instance).environment
        expect(nginx).toContain(`server ${apiEnv.BIND_ADDRESS}:${PORT} `)
        expect(nginx).toContain(`server ${apiEnv.BIND_ADDRESS}:${IDP_PORT} `)
      }
      // nginx on the same host: the processes trust loopback, and listen there only.
      expect(apiEnv.TRUST_PROXY).toBe('127.0.0.1')
      expect(apiEnv.BIND_ADDRESS).toBe('127.0.0.1')
      expect(readEnvFile('worker.env').BIND_ADDRESS).toBe('127.0.0.1')
      // PUBLIC_URL and AUTH_ISSUER are nginx's two listen addresses.
      const common = readEnvFile('common.env')
      expect(nginx).toContain(`listen ${new URL(common.PUBLIC_URL!).host};`)
      expect(nginx).toContain(`listen ${new URL(common.AUTH_ISSUER!).host};`)
      // Self-contained: pid, logs and temporary files in the prefix directory, none elsewhere.
      for (const file of [
        'nginx.pid',
        'error.log',
        'access.log',
        'client_body_temp',
        'proxy_temp',
      ]) {
        expect(existsSync(join(cluster.dir, file)), file).toBe(true)
      }
      expect(readFileSync(join(cluster.dir, 'nginx.pid'), 'utf8').trim()).toMatch(/^\d+$/)
    })

    it('creates the missing bucket at start (the log says so); every process is ready', async () => {
      const created = cluster.apis
        .concat(cluster.workers)
        .flatMap(logRecords)
        .filter((r) => /^S3 bucket .* was missing: created it$/.test(r.msg ?? ''))
      expect(created.length).toBeGreaterThanOrEqual(1)
      expect(created[0]!.msg).toContain(S3_BUCKET)
      for (const url of [...readyUrls(), `${publicUrl}/api/ready`]) {
        expect((await ready(url)).status, url).toBe(200)
      }
    })

    it('answers 503 naming the bucket on every process while it is missing, 200 once it exists again', async () => {
      const s3 = new S3Client({
        endpoint: cluster.s3Endpoint,
        region: 'us-east-1',
        forcePathStyle: true,
        credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      })
      try {
        await s3.send(new DeleteBucketCommand({ Bucket: S3_BUCKET }))
        for (const url of readyUrls()) {
          const { status, body } = await ready(url)
          expect(status, url).toBe(503)
          expect(body.status).toBe('not-ready')
          expect(body.missing).toEqual(['bucket'])
          expect(body.problems.join(' ')).toContain(`the S3 bucket ${S3_BUCKET}`)
        }
        await s3.send(new CreateBucketCommand({ Bucket: S3_BUCKET }))
        for (const url of readyUrls()) {
          const { status, body } = await ready(url)
          expect(status, url).toBe(200)
          expect(body).toMatchObject({ status: 'ready', missing: [] })
        }
      } finally {
        s3.destroy()
      }
    })

    it('signs in through the balancer (identity provider and token exchange on either process)', async () => {
      const settings: FlowSettings = {
        issuer: cluster.issuer,
        clientId: 'veloptima-web',
        audience: `${publicUrl}/api`,
        redirectUri: `${publicUrl}/`,
      }
      const { tokens } = await signInWithPassword(settings, 'rider@example.com', DEMO_PASSWORD)
      if (!tokens?.access_token) throw new Error('no access token from the identity provider')
      const exchange = await fetch(`${publicUrl}/api/auth/custom-token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ accessToken: tokens.access_token }),
      })
      expect(exchange.status).toBe(200)
      const body = (await exchange.json()) as { firebaseToken: string; user: { uid: string } }
      token = body.firebaseToken
      uid = body.user.uid
      // The session token opens the API on both processes (its keys are in the database).
      for (const i of [0, 1]) {
        expect((await fetch(`${api(i)}/api/users/${uid}`, { headers: auth() })).status).toBe(200)
      }
      const [row] = await database.db.select().from(users).where(eq(users.uid, uid))
      expect(row?.email).toBe('rider@example.com')
    }, 60_000)

    it(`runs ${JOBS} optimizations queued through both API processes exactly once, on both workers; the live stream through nginx hears each`, async () => {
      expect(token).toBeTruthy()
      const live = await SseClient.open(`${publicUrl}/api/live?access_token=${token}`)
      expect(live.status).toBe(200)
      const queued: Queued[] = []
      // Alternately straight to each API process: both queue into the one database.
      for (let i = 0; i < JOBS; i++)
        queued.push(await queueShort(database.db, uid, api(i % 2), token))
      const ids = new Set(queued.map((q) => q.jobId))
      expect(ids.size).toBe(JOBS)
      // Done, read through the balancer.
      for (const q of queued) {
        const job = await eventually(
          async () => {
            const r = await fetch(`${publicUrl}/api/jobs/${q.jobId}`, { headers: auth() })
            const j = (await r.json()) as { state: string; attempts: number }
            if (j.state === 'failed') throw new Error(`job ${q.jobId} failed: ${JSON.stringify(j)}`)
            return j.state === 'succeeded' && j
          },
          240_000,
          `job ${q.jobId}`,
        )
        expect(job.attempts).toBe(1)
        const written = await writtenBy(database.db, q.jobId, uid)
        expect(written.results).toHaveLength(1)
        expect(written.results[0]!.id).toBe(q.resultId)
        expect(written.notifications).toHaveLength(1)
      }
      // nginx spread the job polls over both API processes (each process's own request counter,
      // read straight from it: GET /api/metrics answers loopback callers).
      for (const i of [0, 1]) {
        const text = await (await fetch(`${api(i)}/api/metrics`)).text()
        const polls = text
          .split('\n')
          .filter(
            (l) => l.startsWith('http_requests_total{') && l.includes('route="/api/jobs/:id"'),
          )
          .reduce((sum, l) => sum + Number(l.split(' ').at(-1)), 0)
        expect(polls).toBeGreaterThan(JOBS / 8)
      }
      // Each attempt ran exactly once, somewhere; both workers took a fair share.
      const runs = cluster.workers.map((w) => startedJobs(w).filter((r) => ids.has(r.jobId!)))
      const all = runs.flat().map((r) => r.jobId!)
      expect(all.length).toBe(JOBS)
      expect(new Set(all).size).toBe(JOBS)
      for (const r of runs) expect(r.length).toBeGreaterThanOrEqual(JOBS / 8)
      // Each attempt's end is logged by the worker that started it: id, kind, outcome, duration.
      cluster.workers.forEach((w, i) => {
        const ended = logRecords(w).filter((r) => r.msg === 'job attempt ended')
        for (const start of runs[i]!) {
          const end = ended.find((r) => r.jobId === start.jobId && r.attempt === start.attempt)
          expect(end, `end of ${start.jobId}`).toMatchObject({
            kind: 'optimization-run',
            outcome: 'done',
            pid: w.child.pid,
          })
          expect(end!.durationMs).toBeGreaterThanOrEqual(0)
          expect(end!.time).toBeGreaterThanOrEqual(start.time!)
        }
      })
      // The stream on one API process heard the notification each job wrote on a worker process.
      await live.until(
        (events) =>
          queued.every((q) =>
            events.some((e) => e.event === 'notification' && e.data.includes(q.resultId)),
          ),
        30_000,
        'a notification per job on the live stream',
      )
      live.close()
    }, 400_000)

    it(`retries the job of a SIGKILLed worker on the other one within JOB_HEARTBEAT_SECONDS (${HEARTBEAT_S} s)`, async () => {
      const { jobId } = await queueLong(database.db, uid, publicUrl, token)
      const workers = [...cluster.workers]
      const victim = await eventually(
        async () => workers.find((w) => startedJobs(w).some((r) => r.jobId === jobId)),
        60_000,
        'a worker to take the job',
      )
      const survivor = workers.find((w) => w !== victim)!
      victim.child.kill('SIGKILL')
      const killedAt = Date.now()
      const [atKill] = await database.db.select().from(jobs).where(eq(jobs.id, jobId))
      expect(atKill?.status).toBe('running')
      const retried = await eventually(
        async () => startedJobs(survivor).find((r) => r.jobId === jobId),
        60_000,
        'the retry on the other worker',
      )
      const retryAfterS = (Date.now() - killedAt) / 1000
      console.log(
        `multi-process: job retried on the other worker ${retryAfterS.toFixed(1)} s after SIGKILL`,
      )
      expect(retried.attempt).toBe(2)
      // Stale JOB_HEARTBEAT_SECONDS after the last heartbeat, failed by the monitor pass that runs
      // every JOB_HEARTBEAT_SECONDS, retried after the queue's backoff (2–4 s), taken at the next
      // poll or NOTIFY (≤ 2 s): at most 2 × JOB_HEARTBEAT_SECONDS + 6 s, plus slack for this
      // loaded 2-core machine. (Before the monitor interval was set, it took over 60 s.)
      expect(retryAfterS).toBeLessThan(2 * HEARTBEAT_S + 10)
      const done = await succeeded(database.db, jobId, 300_000) // minutes on a loaded machine
      expect(done.attempts).toBe(2)
      // The PID a supervisor watches is the worker itself (its unit's ExecStart): killed, nothing
      // answers on its health port any more.
      const victimPort = cluster.workerPorts[workers.indexOf(victim)]
      await expect(fetch(`http://127.0.0.1:${victimPort}/health`)).rejects.toThrow()
      // The survivor logged the retry's end: done, with its duration.
      const end = await eventually(
        async () =>
          logRecords(survivor).find((r) => r.msg === 'job attempt ended' && r.jobId === jobId),
        30_000,
        'the log line of the retry ending',
      )
      expect(end).toMatchObject({ kind: 'optimization-run', attempt: 2, outcome: 'done' })
      expect(end.durationMs).toBeGreaterThan(0)
      const written = await writtenBy(database.db, jobId, uid)
      expect(written.results).toHaveLength(1)
      expect(written.notifications).toHaveLength(1)
    }, 480_000)

    it('limits token exchanges per address across both API processes (counted in PostgreSQL)', async () => {
      const exchange = async (i: number, address: string) => {
        const r = await fetch(`${api(i)}/api/auth/custom-token`, {
          method: 'POST',
          // The processes trust 127.0.0.1 (TRUST_PROXY) to name the client's address.
          headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
          body: JSON.stringify({ accessToken: 'x.y.z' }),
        })
        return ((await r.json()) as { code: string }).code
      }
      const codes: string[] = []
      for (let i = 0; i < 61; i++) codes.push(await exchange(i % 2, '198.51.100.7'))
      // 60 a minute per address (routes/auth/routes.ts): 30 on each process would pass a
      // per-process count; the shared one refuses the 61st.
      expect(codes.slice(0, 60).every((c) => c === 'invalid-credential')).toBe(true)
      expect(codes[60]).toBe('too-many-requests')
      expect(await exchange(1, '198.51.100.7')).toBe('too-many-requests')
      expect(await exchange(1, '198.51.100.8')).toBe('invalid-credential') // another address
    })

    let fileId = ''
    const gpx = syntheticGpx(3000, 'Bucket loop')
    it('stores an upload through one API process in the S3 bucket; the other serves it', async () => {
      const { payload, headers } = await multipart('bucket-loop.gpx', gpx)
      const up = await fetch(`${api(0)}/api/files`, {
        method: 'POST',
        headers: { ...auth(), ...headers },
        body: new Uint8Array(payload),
      })
      expect(up.status).toBe(201)
      fileId = ((await up.json()) as { id: string }).id
      // A download link signed by one process (secret in PostgreSQL), fetched from the other.
      const link = await fetch(`${api(0)}/api/files/${fileId}/download-url`, { headers: auth() })
      const { url } = (await link.json()) as { url: string }
      const path = new URL(url).pathname + new URL(url).search
      const down = await fetch(`${api(1)}${path}`)
      expect(down.status).toBe(200)
      expect(await down.text()).toBe(gpx)
      // The bytes are in the bucket (read back with the SDK), under the row's key.
      const [row] = await database.db.select().from(files).where(eq(files.id, fileId))
      const s3 = new S3Client({
        endpoint: cluster.s3Endpoint,
        region: 'us-east-1',
        forcePathStyle: true,
        credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      })
      const object = await s3.send(
        new GetObjectCommand({ Bucket: S3_BUCKET, Key: row!.storageKey }),
      )
      expect(await object.Body!.transformToString()).toBe(gpx)
      s3.destroy()
    })

    let coachToken: () => string | undefined = () => undefined
    let courseUrl = ''
    let browserSince = 0
    it('signs in through the balancer in Chromium and uses the app (a course upload and its page)', async () => {
      browser = await openBrowser()
      const { page } = browser
      coachToken = captureToken(page)
      const since = Date.now()
      browserSince = since
      await signIn(page, publicUrl, 'coach@example.com', DEMO_PASSWORD)
      await page.goto(`${publicUrl}/simulation/courses`)
      await page.getByRole('heading', { name: 'Courses', level: 1 }).waitFor()
      await page.getByLabel('Course file').setInputFiles(climbFile)
      await page.waitForURL(/\/simulation\/courses\/[0-9a-f-]{36}$/, { timeout: 60_000 })
      // The self-made climb: 9.00 km by construction.
      await page.getByText(/^9\.\d\d km$/).waitFor()
      courseUrl = page.url()
      // The browser's API calls reached both processes through nginx.
      for (const p of cluster.apis) {
        const served = logRecords(p).filter(
          (r) => (r.time ?? 0) >= since && r.req?.url?.startsWith('/api/'),
        )
        expect(served.length, p.name).toBeGreaterThan(0)
      }
    }, 120_000)

    it("SIGKILLs the API process under the browser's live streams: they reconnect through nginx with Last-Event-ID and miss nothing", async () => {
      const { page } = browser!
      const session = coachToken()!
      expect(session).toBeTruthy()
      expect(await authState(page)).toBe('signed-in') // the app, on the course's page
      const [coach] = await database.db
        .select()
        .from(users)
        .where(eq(users.email, 'coach@example.com'))
      // Two streams in the browser, on the same API process: the app's own (coach, signed in on
      // the page; it shows each notification and marks it showed) and a probe, a plain
      // EventSource in a page of its own (rider: notifications nobody marks, as a stream replays
      // only unshown ones), whose every event the test reads.
      const appStreams = () =>
        cluster.apis.flatMap((p) =>
          logRecords(p)
            .filter((r) => (r.time ?? 0) >= browserSince && r.req?.url?.startsWith('/api/live?'))
            .filter((r) => !/[?&](probe|control)=/.test(r.req!.url!))
            .map((r) => ({ p, time: r.time ?? 0, url: r.req!.url! })),
        )
      const appServing = (
        await eventually(
          async () => appStreams().sort((a, b) => b.time - a.time)[0],
          20_000,
          "the app's live stream",
        )
      ).p
      let release = () => {}
      const held = new Promise<void>((resolve) => (release = resolve))
      let probe: Awaited<ReturnType<typeof openProbe>> | undefined
      for (let attempt = 0; attempt < 8 && !probe; attempt++) {
        // nginx takes turns: reopen until the probe lands on the app stream's process.
        const probePage = await browser!.newPage(`${publicUrl}/api/health`)
        const tag = `try${attempt}`
        const opened = await openProbe(probePage, token, () => held, tag)
        const on = await eventually(
          async () =>
            cluster.apis.find((p) => logRecords(p).some((r) => r.req?.url?.includes(tag))),
          20_000,
          'the API process serving the probe',
        )
        if (on === appServing) probe = opened
        else {
          await probePage.context().close()
          // One more request through nginx, so that the next attempt's turn differs (each
          // attempt makes a fixed number of requests; nginx's worker processes share the turns).
          await fetch(`${publicUrl}/api/health`)
        }
      }
      if (!probe) throw new Error('the probe never reached the process of the app stream')
      const serving = appServing
      const survivor = cluster.apis.find((p) => p !== serving)!
      // One notification each before the kill: the streams then have an event id to resume after.
      const first = await queueShort(database.db, uid, publicUrl, token)
      const coachFirst = await queueShort(database.db, coach!.uid, publicUrl, session)
      const before = await probeUntil(
        probe,
        (s) => s.events.some((e) => e.data.includes(first.resultId)),
        60_000,
        'the first notification',
      )
      const lastId = before.events.at(-1)!.id
      expect(lastId).toMatch(/^\d+$/)
      const shown = (resultId: string) =>
        eventually(
          async () => {
            const rows = await database.db
              .select({ seq: notifications.seq, showed: notifications.showed })
              .from(notifications)
              .where(sql`${notifications.data} ->> 'result_id' = ${resultId}`)
            return rows[0]?.showed === true && rows[0]
          },
          60_000,
          `the app to show the notification of ${resultId}`,
        )
      const coachSeq = (await shown(coachFirst.resultId)).seq

      // Killed, and gone (a POST sent in the instant it dies answers 502: nginx does not resend a
      // request that may have been processed).
      const killedAt = Date.now()
      await stopProcess(serving.child, 'SIGKILL')
      // While the probe's reconnection waits, four more jobs (queued through nginx, which now
      // reaches the survivor only) finish and notify: the stream must replay them.
      const later: Queued[] = []
      for (let i = 0; i < 4; i++) later.push(await queueShort(database.db, uid, publicUrl, token))
      const coachLater = await queueShort(database.db, coach!.uid, publicUrl, session)
      for (const q of [...later, coachLater]) await succeeded(database.db, q.jobId)
      await eventually(
        async () => probe.connections.length >= 2,
        30_000,
        'the browser to reconnect',
      )
      release()
      const after = await probeUntil(
        probe,
        (s) => later.every((q) => s.events.some((e) => e.data.includes(q.resultId))),
        30_000,
        'the notifications written while the stream was down',
      )
      // The reconnection resumed after the last event id: the first notification, still unshown
      // (which a stream opened without Last-Event-ID sends again, as the control shows), came
      // once only.
      const [firstRow] = await database.db
        .select({ showed: notifications.showed })
        .from(notifications)
        .where(eq(notifications.seq, Number(lastId)))
      expect(firstRow?.showed).toBe(false)
      const control = await SseClient.open(`${publicUrl}/api/live?access_token=${token}&control=1`)
      await control.until(
        (events) =>
          events.some((e) => e.event === 'notification' && e.data.includes(first.resultId)),
        20_000,
        'the first notification on a stream without Last-Event-ID',
      )
      control.close()
      expect(after.opens).toBeGreaterThanOrEqual(2)
      expect(logRecords(survivor).some((r) => r.req?.url?.includes('probe='))).toBe(true)
      // Each notification once: no gap, no repeat.
      for (const q of [first, ...later]) {
        expect(after.events.filter((e) => e.data.includes(q.resultId))).toHaveLength(1)
      }
      const ids = after.events.map((e) => e.id)
      expect(new Set(ids).size).toBe(ids.length)
      await probe.close()
      // The app reopened its stream through nginx on the survivor, resuming after the last
      // notification it had (?last_event_id=, as it renews the token in the address), and
      // showed the notification written meanwhile.
      await shown(coachLater.resultId)
      const reopened = appStreams().filter((s) => s.p === survivor && s.time >= killedAt)
      expect(reopened.length).toBeGreaterThan(0)
      expect(reopened[0]!.url).toContain(`last_event_id=${coachSeq}`)
    }, 240_000)

    it('restarts everything (nginx, every API and worker process, the S3 server): nothing is lost', async () => {
      const { page } = browser!
      // A job in the middle of its run when the workers stop.
      const inFlight = await queueLong(database.db, uid, publicUrl, token)
      await eventually(
        async () =>
          cluster.workers.some((w) => startedJobs(w).some((r) => r.jobId === inFlight.jobId)),
        60_000,
        'a worker to take the long job',
      )
      const jobsBefore = await database.db.select({ id: jobs.id, status: jobs.status }).from(jobs)
      const resultsBefore = await database.db
        .select({ id: optimizationResults.id })
        .from(optimizationResults)
      const t0 = Date.now()
      await cluster.restart()
      console.log(
        `multi-process: everything restarted in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
      )

      // Sessions: the session token still opens the API (its keys are in PostgreSQL) …
      const me = await fetch(`${publicUrl}/api/users/${uid}`, { headers: auth() })
      expect(me.status).toBe(200)
      // … and the browser, reloaded, is still signed in (the provider's session and grant are in
      // PostgreSQL) and shows the course it uploaded.
      await page.goto(courseUrl)
      await page.waitForSelector('html[data-auth="signed-in"]')
      await page.getByText(/^9\.\d\d km$/).waitFor()
      // Files: the uploaded bytes, from the restarted S3 server, through the balancer.
      const link = await fetch(`${publicUrl}/api/files/${fileId}/download-url`, { headers: auth() })
      const { url } = (await link.json()) as { url: string }
      expect(await (await fetch(url)).text()).toBe(gpx)
      // Jobs: every job that had finished still has; the one cut off finishes after the restart,
      // with one result and one notification.
      const done = await succeeded(database.db, inFlight.jobId, 300_000)
      expect(done.attempts).toBeGreaterThanOrEqual(2)
      const written = await writtenBy(database.db, inFlight.jobId, uid)
      expect(written.results).toHaveLength(1)
      expect(written.notifications).toHaveLength(1)
      const jobsAfter = new Map(
        (await database.db.select({ id: jobs.id, status: jobs.status }).from(jobs)).map((j) => [
          j.id,
          j.status,
        ]),
      )
      for (const j of jobsBefore) {
        if (j.status === 'succeeded') expect(jobsAfter.get(j.id)).toBe('succeeded')
      }
      const resultsAfter = new Set(
        (await database.db.select({ id: optimizationResults.id }).from(optimizationResults)).map(
          (r) => r.id,
        ),
      )
      for (const r of resultsBefore) expect(resultsAfter.has(r.id)).toBe(true)
    }, 480_000)
  },
)

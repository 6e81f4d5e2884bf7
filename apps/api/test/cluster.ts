// Several Veloptima processes behind nginx, assembled from deploy/ as an operator installs it
// (docs/deployment.md): `apis` API processes as deploy/systemd/veloptima-api@.service starts
// them (instances 00 and 10) and `workers` worker processes as veloptima-worker.service does,
// with the environment of deploy/env/*.env (cluster-deploy.ts reads both), one PostgreSQL
// database of their own, files in one bucket of an S3-protocol server (s3rver) on loopback
// (s3: true) or one shared directory, and nginx running deploy/nginx.conf (cluster-nginx.ts).
// What this changes from deploy/, and only this:
// - addresses: DATABASE_URL (this test's database), PUBLIC_URL and AUTH_ISSUER (nginx's ports
//   below), S3_ENDPOINT (s3rver's port) and its credentials (s3rver's built-in account S3RVER);
//   without s3, STORAGE_DRIVER=local and FILES_DIR (a shared directory) instead of the bucket;
// - ports: the units' PORT / IDP_PORT, WORKER_PORT, nginx's listen and upstream ports;
// - paths: the units' node (this test's), WorkingDirectory (the checkout), the built file (the
//   TypeScript source through tsx when the build is older than the sources, scripts/roles.mjs),
//   DATA_DIR and WEB_DIST_DIR (the cluster's directory), nginx's prefix (-p);
// - the test's own settings, last: LIVE_POLL_MS=1000, LIVE_HEARTBEAT_MS=2000, LOG_LEVEL and
//   LOG_REQUESTS, the worker's JOB_WORKERS (`threads`), and `env` (e.g. JOB_HEARTBEAT_SECONDS=10).
// The S3 server starts without the bucket: the processes create it (the shipped credentials'
// case). `restart()` stops every process, nginx and the S3 server and starts them again on the
// same database, bucket and ports. Used by multi-process.int.test.ts,
// jobs-fairness-processes.int.test.ts and bench/scale.bench.ts. Needs PostgreSQL
// (TEST_DATABASE_URL, DB_DRIVER=pg) and nginx.
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import S3rver from 's3rver'
import type { Database } from '@veloptima/db'
import { readEnvFile, readUnit, unitCommand } from './cluster-deploy.ts'
import { nginxConfig } from './cluster-nginx.ts'
import { persistentDatabase } from './persistent-db.ts'
import { eventually } from './runs-helpers.ts'

const root = new URL('../../../', import.meta.url).pathname
export const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx'
/** The bucket of deploy/env/common.env, as shipped. */
export const S3_BUCKET = readEnvFile('common.env').S3_BUCKET!

export type Proc = { name: string; child: ChildProcess; lines: string[] }

/** The pino records a process logged (lines that parse as JSON). */
export const logRecords = (p: Proc) =>
  p.lines.flatMap((line) => {
    try {
      return [
        JSON.parse(line) as {
          msg?: string
          jobId?: string
          kind?: string
          attempt?: number
          outcome?: string
          durationMs?: number
          pid?: number
          time?: number
          req?: { url?: string }
        },
      ]
    } catch {
      return []
    }
  })

/** The job attempts a worker process started (its 'job attempt started' log lines). */
export const startedJobs = (p: Proc) =>
  logRecords(p).filter((r) => r.msg === 'job attempt started' && r.jobId)

/** Sends `signal` to a process and resolves when it has exited. */
export function stopProcess(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM') {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode) return resolve()
    child.once('exit', () => resolve())
    child.kill(signal)
  })
}

export type ClusterOptions = {
  apis: number
  workers: number
  /** Job threads per worker process. */
  threads?: number
  /** Files in a bucket of a local S3-protocol server (STORAGE_DRIVER=s3), not a directory. */
  s3?: boolean
  /** Build the web app for the API processes to serve (for a browser). */
  web?: boolean
  /** API processes log each request (LOG_REQUESTS), telling which process served what. */
  logRequests?: boolean
  env?: Record<string, string>
}

export type Cluster = Awaited<ReturnType<typeof startCluster>>

/** Builds the SPA into `outDir` (vite, as `npm start` does). */
function buildWeb(outDir: string) {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(
      'npx',
      ['vite', 'build', '--logLevel', 'warn', '--outDir', outDir, '--emptyOutDir'],
      { cwd: join(root, 'apps/web'), stdio: ['ignore', 'inherit', 'inherit'] },
    )
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`vite build exited with ${code}`)),
    )
  })
}

export async function startCluster(options: ClusterOptions) {
  const { apis: apiCount, workers: workerCount, threads = 1, env = {} } = options
  if (apiCount < 1 || apiCount > 2) throw new Error(`apis: expected 1 or 2, got ${apiCount}`)
  if (!existsSync(NGINX)) {
    throw new Error(
      `nginx is missing at ${NGINX}: apt-get install nginx-light (npm test does it as root)`,
    )
  }
  // Ports: one block of 20 from a random base, so parallel runs do not collide.
  const base = 20_000 + Math.floor(Math.random() * 400) * 20
  const lb = base
  const lbIdp = base + 1
  const apiPorts = [base + 2, base + 4].slice(0, apiCount)
  const workerPorts = Array.from({ length: workerCount }, (_, i) => base + 10 + i)
  const s3Port = base + 19
  const publicUrl = `http://127.0.0.1:${lb}`
  const issuer = `http://127.0.0.1:${lbIdp}/`
  const dir = mkdtempSync(join(tmpdir(), 'veloptima-cluster-'))
  const db = await persistentDatabase()
  const database: Database = await db.open() // migrated here, before the processes start
  /** Every process ever started (for close); apis and workers: the current ones. */
  const procs: Proc[] = []
  const apis: Proc[] = []
  const workers: Proc[] = []
  let nginx: ChildProcess | undefined
  let s3server: S3rver | undefined
  const s3Dir = join(dir, 's3')

  const shipped = readEnvFile('common.env')
  const common: Record<string, string | undefined> = {
    ...shipped,
    ...db.env,
    PUBLIC_URL: publicUrl,
    AUTH_ISSUER: issuer,
    ...(options.s3
      ? {
          S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
          S3_ACCESS_KEY_ID: 'S3RVER', // s3rver's built-in account
          S3_SECRET_ACCESS_KEY: 'S3RVER',
        }
      : { STORAGE_DRIVER: 'local', FILES_DIR: join(dir, 'files') }),
  }
  for (const [name, value] of Object.entries({ PUBLIC_URL: publicUrl, AUTH_ISSUER: issuer })) {
    // Only the port differs from the shipped address (nginx's listen lines).
    if (new URL(value).hostname !== new URL(shipped[name]!).hostname) {
      throw new Error(`deploy/env/common.env ${name}=${shipped[name]}: not on ${value}'s host`)
    }
  }
  const testSettings = { LIVE_POLL_MS: '1000', LIVE_HEARTBEAT_MS: '2000', ...env }

  /** A role as its unit starts it: Environment=, then the EnvironmentFiles, then this test's. */
  function startRole(
    name: string,
    role: 'serve' | 'worker',
    unitName: string,
    instance: string,
    substitutes: Record<string, string>,
  ) {
    const unit = readUnit(unitName, instance)
    const files = unit.environmentFiles.map((path) => {
      const file = path.split('/').pop()!
      return file === 'common.env' ? common : readEnvFile(file)
    })
    const roleEnv: Record<string, string | undefined> = {
      ...process.env,
      ...unit.environment,
      ...Object.assign({}, ...files),
      ...substitutes,
      WEB_DIST_DIR: join(dir, 'web'),
      DATA_DIR: join(dir, `data-${name.replace(' ', '-')}`),
      ...testSettings,
    }
    // node on the built file itself (no launcher), so that a signal sent to this PID reaches
    // the server or worker itself, as under systemd.
    const child = spawn(process.execPath, unitCommand(unit, role), {
      cwd: root,
      env: roleEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const p: Proc = { name, child, lines: [] }
    let rest = ''
    const collect = (chunk: Buffer) => {
      const parts = (rest + chunk.toString()).split('\n')
      rest = parts.pop() ?? ''
      p.lines.push(...parts)
    }
    child.stdout!.on('data', collect)
    child.stderr!.on('data', collect)
    procs.push(p)
    return p
  }

  const waitReady = (url: string, p: Proc) =>
    eventually(
      async () => {
        if (p.child.exitCode !== null) {
          throw new Error(`${p.name} exited (${p.child.exitCode}):\n${p.lines.join('\n')}`)
        }
        return fetch(url).then(
          (r) => r.status === 200,
          () => false,
        )
      },
      120_000,
      `${p.name} ready`,
    )

  const startApi = (i: number) =>
    // The template's instances 00 and 10 (PORT=30%i, IDP_PORT=40%i), on this test's ports.
    startRole(`api ${i}`, 'serve', 'veloptima-api@.service', ['00', '10'][i]!, {
      PORT: String(apiPorts[i]),
      IDP_PORT: String(apiPorts[i]! + 1),
      ...(options.logRequests
        ? { LOG_LEVEL: 'info', LOG_REQUESTS: 'true' }
        : { LOG_LEVEL: 'warn' }),
    })
  const startWorker = (i: number) =>
    startRole(`worker ${i}`, 'worker', 'veloptima-worker.service', '', {
      WORKER_PORT: String(workerPorts[i]),
      JOB_WORKERS: String(threads),
      LOG_LEVEL: 'info',
    })

  /** Starts the S3 server, every process and nginx; resolves when all answer. */
  async function launch() {
    if (options.s3) {
      mkdirSync(s3Dir, { recursive: true })
      s3server = new S3rver({
        address: '127.0.0.1',
        port: s3Port,
        directory: s3Dir,
        silent: true,
      })
      const address = (await s3server.run()) as AddressInfo
      if (address.port !== s3Port) throw new Error(`s3rver on ${address.port}, not ${s3Port}`)
    }
    apis.splice(0, apis.length, ...apiPorts.map((_, i) => startApi(i)))
    workers.splice(0, workers.length, ...workerPorts.map((_, i) => startWorker(i)))
    const confPath = join(dir, 'nginx.conf')
    writeFileSync(confPath, nginxConfig({ lb, lbIdp, apiPorts }))
    // As deploy/systemd/veloptima-nginx.service runs it, the cluster's directory as prefix.
    nginx = spawn(NGINX, ['-p', dir, '-e', 'stderr', '-c', confPath, '-g', 'daemon off;'], {
      stdio: 'inherit',
    })
    await Promise.all([
      ...apis.map((p, i) => waitReady(`http://127.0.0.1:${apiPorts[i]}/api/ready`, p)),
      ...workers.map((p, i) => waitReady(`http://127.0.0.1:${workerPorts[i]}/ready`, p)),
    ])
    await eventually(
      () =>
        fetch(`${publicUrl}/api/ready`).then(
          (r) => r.status === 200,
          () => false,
        ),
      20_000,
      'nginx',
    )
  }

  /** Stops nginx, every process (SIGTERM, as a supervisor does) and the S3 server. */
  async function stop() {
    if (nginx) await stopProcess(nginx, 'SIGTERM')
    nginx = undefined
    await Promise.all(procs.map((p) => stopProcess(p.child, 'SIGTERM')))
    await s3server?.close()
    s3server = undefined
  }

  async function close() {
    await stop()
    await database.close()
    await db.cleanup()
    rmSync(dir, { recursive: true, force: true })
  }

  try {
    if (options.web) await buildWeb(join(dir, 'web'))
    await launch()
    return {
      publicUrl,
      issuer,
      apiPorts,
      workerPorts,
      /** The API and worker processes running now (replaced by restart). */
      apis,
      workers,
      database,
      /** The S3 server (s3: true): its address and the directory it keeps the bucket in. */
      s3Endpoint: `http://127.0.0.1:${s3Port}`,
      s3Dir,
      /** The cluster's directory (nginx.conf, nginx's error.log, files). */
      dir,
      /** Stops everything (nginx, processes, S3 server) and starts it again; same data. */
      async restart() {
        await stop()
        await launch()
      },
      close,
    }
  } catch (error) {
    await close()
    throw error
  }
}

// Several Veloptima processes behind nginx, as deployed (docs/deployment.md):
// `apis` API processes (scripts/roles.mjs serve, JOB_WORKERS=0) and `workers` worker processes
// (scripts/roles.mjs worker), one PostgreSQL database of their own, files in one shared
// directory or (s3: true) in one bucket of an S3-protocol server (s3rver) on loopback, and nginx
// running deploy/nginx.conf on free ports. `restart()` stops every process, nginx and the S3
// server and starts them again on the same database, bucket and ports. Used by
// multi-process.int.test.ts and bench/scale.bench.ts. Needs PostgreSQL (TEST_DATABASE_URL,
// DB_DRIVER=pg) and nginx.
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import S3rver from 's3rver'
import type { Database } from '@veloptima/db'
import { roleCommand } from '../../../scripts/roles.mjs'
import { nginxConfig } from './cluster-nginx.ts'
import { persistentDatabase } from './persistent-db.ts'
import { eventually } from './runs-helpers.ts'

const root = new URL('../../../', import.meta.url).pathname
export const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx'
export const S3_BUCKET = 'veloptima-cluster'

export type Proc = { name: string; child: ChildProcess; lines: string[] }

/** The pino records a process logged (lines that parse as JSON). */
export const logRecords = (p: Proc) =>
  p.lines.flatMap((line) => {
    try {
      return [
        JSON.parse(line) as {
          msg?: string
          jobId?: string
          attempt?: number
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

  const common: Record<string, string | undefined> = {
    ...process.env,
    ...db.env,
    HOST: '127.0.0.1',
    BIND_ADDRESS: '127.0.0.1',
    PUBLIC_URL: publicUrl,
    AUTH_ISSUER: issuer,
    TRUST_PROXY: '127.0.0.1', // nginx, for the per-address limits
    FILES_DIR: join(dir, 'files'),
    WEB_DIST_DIR: join(dir, 'web'),
    LIVE_POLL_MS: '1000',
    LIVE_HEARTBEAT_MS: '2000',
    ...(options.s3
      ? {
          STORAGE_DRIVER: 's3',
          S3_BUCKET,
          S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
          S3_ACCESS_KEY_ID: 'S3RVER', // s3rver's built-in account
          S3_SECRET_ACCESS_KEY: 'S3RVER',
          S3_FORCE_PATH_STYLE: 'true',
        }
      : {}),
    ...env,
  }

  function startRole(name: string, role: 'serve' | 'worker', roleEnv: Record<string, string>) {
    // The role's own node process (not the scripts/roles.mjs launcher), so that a signal sent
    // to it reaches the server or worker itself.
    const { args } = roleCommand(role)
    const child = spawn(process.execPath, args, {
      cwd: root,
      env: { ...common, ...roleEnv },
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
    startRole(`api ${i}`, 'serve', {
      PORT: String(apiPorts[i]),
      IDP_PORT: String(apiPorts[i]! + 1),
      JOB_WORKERS: '0',
      ...(options.logRequests
        ? { LOG_LEVEL: 'info', LOG_REQUESTS: 'true' }
        : { LOG_LEVEL: 'warn' }),
    })
  const startWorker = (i: number) =>
    startRole(`worker ${i}`, 'worker', {
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
        configureBuckets: [{ name: S3_BUCKET, configs: [] }],
      })
      const address = (await s3server.run()) as AddressInfo
      if (address.port !== s3Port) throw new Error(`s3rver on ${address.port}, not ${s3Port}`)
    }
    apis.splice(0, apis.length, ...apiPorts.map((_, i) => startApi(i)))
    workers.splice(0, workers.length, ...workerPorts.map((_, i) => startWorker(i)))
    const confPath = join(dir, 'nginx.conf')
    writeFileSync(confPath, nginxConfig({ lb, lbIdp, apiPorts }))
    nginx = spawn(
      NGINX,
      [
        '-p',
        dir,
        '-c',
        confPath,
        '-g',
        `daemon off; pid ${dir}/nginx.pid; error_log ${dir}/error.log;`,
      ],
      { stdio: 'inherit' },
    )
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

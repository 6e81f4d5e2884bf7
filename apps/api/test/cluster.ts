// Several Veloptima processes behind nginx, as deployed (README "Running on several machines"):
// `apis` API processes (scripts/roles.mjs serve, JOB_WORKERS=0) and `workers` worker processes
// (scripts/roles.mjs worker), one PostgreSQL database of their own, one shared files directory,
// and nginx running deploy/nginx.conf on free ports. Used by multi-process.int.test.ts and
// bench/scale.bench.ts. Needs PostgreSQL (TEST_DATABASE_URL, DB_DRIVER=pg) and nginx.
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Database } from '@veloptima/db'
import { roleCommand } from '../../../scripts/roles.mjs'
import { persistentDatabase } from './persistent-db.ts'
import { eventually } from './runs-helpers.ts'

const root = new URL('../../../', import.meta.url).pathname
export const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx'

export type Proc = { name: string; child: ChildProcess; lines: string[] }

/** The pino records a process logged (lines that parse as JSON). */
export const logRecords = (p: Proc) =>
  p.lines.flatMap((line) => {
    try {
      return [JSON.parse(line) as { msg?: string; jobId?: string; attempt?: number }]
    } catch {
      return []
    }
  })

/** The job attempts a worker process started (its 'job attempt started' log lines). */
export const startedJobs = (p: Proc) =>
  logRecords(p).filter((r) => r.msg === 'job attempt started' && r.jobId)

export type ClusterOptions = {
  apis: number
  workers: number
  /** Job threads per worker process. */
  threads?: number
  env?: Record<string, string>
}

export type Cluster = Awaited<ReturnType<typeof startCluster>>

export async function startCluster({ apis, workers, threads = 1, env = {} }: ClusterOptions) {
  if (apis < 1 || apis > 2) throw new Error(`apis: expected 1 or 2, got ${apis}`)
  if (!existsSync(NGINX)) {
    throw new Error(
      `nginx is missing at ${NGINX}: apt-get install nginx-light (npm test does it as root)`,
    )
  }
  // Ports: one block of 20 from a random base, so parallel runs do not collide.
  const base = 20_000 + Math.floor(Math.random() * 400) * 20
  const lb = base
  const lbIdp = base + 1
  const apiPorts = [base + 2, base + 4].slice(0, apis)
  const workerPorts = Array.from({ length: workers }, (_, i) => base + 10 + i)
  const publicUrl = `http://127.0.0.1:${lb}`
  const issuer = `http://127.0.0.1:${lbIdp}/`
  const dir = mkdtempSync(join(tmpdir(), 'veloptima-cluster-'))
  const db = await persistentDatabase()
  const database: Database = await db.open() // migrated here, before the processes start
  const procs: Proc[] = []
  let nginx: ChildProcess | undefined

  const common = {
    ...process.env,
    ...db.env,
    HOST: '127.0.0.1',
    BIND_ADDRESS: '127.0.0.1',
    PUBLIC_URL: publicUrl,
    AUTH_ISSUER: issuer,
    TRUST_PROXY: '127.0.0.1', // nginx, for the per-address limits
    FILES_DIR: join(dir, 'files'),
    LIVE_POLL_MS: '1000',
    LIVE_HEARTBEAT_MS: '2000',
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

  async function close() {
    nginx?.kill('SIGTERM')
    await Promise.all(
      procs.map(
        (p) =>
          new Promise<void>((resolve) => {
            if (p.child.exitCode !== null || p.child.signalCode) return resolve()
            p.child.once('exit', () => resolve())
            p.child.kill('SIGTERM')
          }),
      ),
    )
    await database.close()
    await db.cleanup()
    rmSync(dir, { recursive: true, force: true })
  }

  try {
    const apiProcs = apiPorts.map((port, i) =>
      startRole(`api ${i}`, 'serve', {
        PORT: String(port),
        IDP_PORT: String(port + 1),
        JOB_WORKERS: '0',
        LOG_LEVEL: 'warn',
      }),
    )
    const workerProcs = workerPorts.map((port, i) =>
      startRole(`worker ${i}`, 'worker', {
        WORKER_PORT: String(port),
        JOB_WORKERS: String(threads),
        LOG_LEVEL: 'info',
      }),
    )
    // deploy/nginx.conf as shipped, on these ports (one API process: its line only).
    let conf = readFileSync(join(root, 'deploy/nginx.conf'), 'utf8')
      .split('\n')
      .filter((line) => !line.trim().startsWith('#'))
      .join('\n')
      .replace('listen 8080;', `listen 127.0.0.1:${lb};`)
      .replace('listen 8081;', `listen 127.0.0.1:${lbIdp};`)
      .replace('worker_processes auto;', 'worker_processes 1;')
    const upstream = (from: number, i: number, offset: number) => {
      const port = apiPorts[i]
      conf = port
        ? conf.replace(`server 127.0.0.1:${from} `, `server 127.0.0.1:${port + offset} `)
        : conf.replace(new RegExp(`\\n\\s*server 127\\.0\\.0\\.1:${from}[^\\n]*`), '')
    }
    upstream(3000, 0, 0)
    upstream(3010, 1, 0)
    upstream(4000, 0, 1)
    upstream(4010, 1, 1)
    for (const shipped of ['3000', '3010', '4000', '4010', '8080', '8081']) {
      if (conf.includes(`127.0.0.1:${shipped} `) || conf.includes(`listen ${shipped};`)) {
        throw new Error(`deploy/nginx.conf: port ${shipped} was not replaced`)
      }
    }
    writeFileSync(join(dir, 'nginx.conf'), conf)
    nginx = spawn(
      NGINX,
      [
        '-p',
        dir,
        '-c',
        join(dir, 'nginx.conf'),
        '-g',
        `daemon off; pid ${dir}/nginx.pid; error_log ${dir}/error.log;`,
      ],
      { stdio: 'inherit' },
    )
    await Promise.all([
      ...apiProcs.map((p, i) => waitReady(`http://127.0.0.1:${apiPorts[i]}/api/ready`, p)),
      ...workerProcs.map((p, i) => waitReady(`http://127.0.0.1:${workerPorts[i]}/ready`, p)),
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
    return {
      publicUrl,
      issuer,
      apiPorts,
      apis: apiProcs,
      workers: workerProcs,
      database,
      close,
    }
  } catch (error) {
    await close()
    throw error
  }
}

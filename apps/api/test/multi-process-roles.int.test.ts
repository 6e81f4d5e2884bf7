// `npm run serve` under a supervisor that kills what it started with SIGKILL: the server must
// not outlive the PID the supervisor sees (npm, then scripts/roles.mjs, then the server). A
// real `npm run serve` on the embedded database (PGlite in a temporary DATA_DIR) and free
// ports; no PostgreSQL needed. The units of deploy/systemd start node on the built file
// instead (multi-process.int.test.ts checks their ExecStart), where that PID is the server.
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { freePort } from './ports.ts'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { eventually } from './runs-helpers.ts'

const root = new URL('../../../', import.meta.url).pathname

/** PIDs of this user's processes whose environment holds `marker` (a unique DATA_DIR). */
function processesWith(marker: string): number[] {
  const found: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      if (readFileSync(`/proc/${entry}/environ`, 'latin1').includes(marker)) {
        found.push(Number(entry))
      }
    } catch {
      // Gone meanwhile, or not ours.
    }
  }
  return found
}

const answers = (url: string) =>
  fetch(url).then(
    (r) => r.status,
    () => 0,
  )

describe('npm run serve under a supervisor', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'veloptima-roles-'))
  let npm: ChildProcess | undefined
  const output: string[] = []
  afterAll(() => {
    // Whatever a failed run left behind, by PID (only the processes started here carry dataDir).
    for (const pid of processesWith(`DATA_DIR=${dataDir}`)) {
      try {
        process.kill(pid, 'SIGKILL')
      } catch {
        // already gone
      }
    }
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('stops the server when the PID it sees (npm) is killed with SIGKILL', async () => {
    const [port, idpPort] = [await freePort(), await freePort()]
    const env: Record<string, string | undefined> = {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      IDP_PORT: String(idpPort),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      WEATHER_PROVIDER: 'none',
      WEB_DIST_DIR: join(dataDir, 'web'),
    }
    delete env.DATABASE_URL
    npm = spawn('npm', ['run', 'serve'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] })
    npm.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()))
    npm.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()))
    const base = `http://127.0.0.1:${port}`
    await eventually(
      async () => {
        if (npm!.exitCode !== null) throw new Error(`npm run serve exited:\n${output.join('')}`)
        return (await answers(`${base}/api/health`)) === 200
      },
      120_000,
      'the server to answer',
    )
    // Ready as a whole: database, local file directory, its own identity provider's keys.
    const ready = await fetch(`${base}/api/ready`)
    expect(ready.status, await ready.clone().text()).toBe(200)
    expect(await ready.json()).toMatchObject({
      status: 'ready',
      missing: [],
      storage: { driver: 'local', ready: true },
      identityProvider: { ready: true },
    })
    // npm, roles.mjs and the server (and whatever shell npm used) carry the marker.
    const before = processesWith(`DATA_DIR=${dataDir}`)
    expect(before.length).toBeGreaterThanOrEqual(3)

    npm.kill('SIGKILL')
    // The server stops: its port refuses connections and no process of this start is left.
    await eventually(
      async () => (await answers(`${base}/api/health`)) === 0,
      60_000,
      'the server to stop',
    )
    await eventually(
      async () => processesWith(`DATA_DIR=${dataDir}`).length === 0,
      60_000,
      'every process of npm run serve to exit',
    )
  }, 180_000)
})

// Measures the start-up time of the API role to its first 200 from /api/ready, from the
// production build (node apps/api/dist/server/server.mjs) and from the sources (node + tsx),
// on a fresh embedded database each time (migrations included). `npm run build` first.
//   node scripts/startup-time.mjs [runs=3]
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { root } from './lib.mjs'

const runs = Number(process.argv[2] ?? 3)
const variants = {
  build: ['apps/api/dist/server/server.mjs'],
  tsx: ['--import', 'tsx', 'apps/api/src/server.ts'],
}

async function once(args, port) {
  const dataDir = mkdtempSync(join(tmpdir(), 'veloptima-startup-'))
  const t0 = performance.now()
  const child = spawn(process.execPath, args, {
    cwd: root,
    stdio: 'ignore',
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      IDP_PORT: String(port + 1),
      LOG_LEVEL: 'silent',
      JOB_WORKERS: '0',
    },
  })
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode})`)
      const ok = await fetch(`http://127.0.0.1:${port}/api/ready`)
        .then((r) => r.status === 200)
        .catch(() => false)
      if (ok) return performance.now() - t0
      await new Promise((r) => setTimeout(r, 20))
    }
  } finally {
    // (a server that exited on its own has no exit left to wait for)
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM')
      await new Promise((r) => child.once('exit', r))
    }
    rmSync(dataDir, { recursive: true, force: true })
  }
}

for (const [name, args] of Object.entries(variants)) {
  const times = []
  for (let i = 0; i < runs; i++) times.push(await once(args, 3950))
  times.sort((a, b) => a - b)
  console.log(
    `${name.padEnd(6)} median ${(times[Math.floor(times.length / 2)] / 1000).toFixed(2)} s ` +
      `(${times.map((t) => (t / 1000).toFixed(2)).join(', ')})`,
  )
}

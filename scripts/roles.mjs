// Starts one process role of the product, from the production build when it is there and up to
// date (`npm run build`), else from the TypeScript sources through tsx (slower to start):
//   node scripts/roles.mjs serve   — API + web (`npm run serve`; JOB_WORKERS=0: runs no jobs)
//   node scripts/roles.mjs worker  — jobs only, health endpoint on WORKER_PORT (`npm run worker`)
// Signals are forwarded; the exit code is the role's.
import { spawn } from 'node:child_process'
import { existsSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { newestMtime, root } from './lib.mjs'

const roles = {
  serve: { built: 'apps/api/dist/server/server.mjs', source: 'apps/api/src/server.ts' },
  worker: { built: 'apps/api/dist/server/worker.mjs', source: 'apps/api/src/worker.ts' },
}

/** The command that starts `role`: node on the build when fresh, else node + tsx on the source. */
export function roleCommand(role) {
  const r = roles[role]
  if (!r) throw new Error(`role: expected ${Object.keys(roles).join(' or ')}, got ${role}`)
  const built = join(root, r.built)
  if (existsSync(built)) {
    const builtAt = statSync(built).mtimeMs
    const sources = [
      'apps/api/src',
      'packages/engine/src',
      'packages/db/src',
      'packages/db/drizzle',
    ]
    const stale = sources.some((s) => newestMtime(join(root, s)) > builtAt)
    if (!stale) return { args: [built], built: true }
    console.warn(`${r.built} is older than the sources: starting from TypeScript (npm run build).`)
  }
  return { args: ['--import', 'tsx', join(root, r.source)], built: false }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { args } = roleCommand(process.argv[2])
  const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit', env: process.env })
  const forward = (signal) => () => child.kill(signal)
  process.on('SIGINT', forward('SIGINT'))
  process.on('SIGTERM', forward('SIGTERM'))
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
}

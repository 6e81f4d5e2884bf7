// Starts one process role of the product, from the production build when it is there and up to
// date (`npm run build`), else from the TypeScript sources through tsx (slower to start):
//   node scripts/roles.mjs serve   — API + web (`npm run serve`; JOB_WORKERS=0: runs no jobs)
//   node scripts/roles.mjs worker  — jobs only, health endpoint on WORKER_PORT (`npm run worker`)
// This launcher is for a terminal or a development machine: a supervisor (systemd, the
// Procfile) starts node on the built file itself (deploy/), so that the PID it watches is the
// server's. Here SIGHUP, SIGINT and SIGTERM are forwarded, the exit code is the role's, and the
// role never outlives its launcher: it is started with an IPC channel and ends
// (scripts/die-with-parent.mjs) when that channel closes, which a SIGKILL of the launcher does;
// the launcher in turn ends the role when its own parent (npm, a shell) dies.
import { spawn } from 'node:child_process'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { newestMtime, root } from './lib.mjs'

/** Each role's built file (npm run build) and TypeScript source, relative to the root. */
export const roles = {
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

/** The parent PID of `pid` (Linux /proc); undefined when it is gone or unknown. */
function parentOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // "pid (command) state ppid …": the command may hold spaces and parentheses.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
  } catch {
    return undefined
  }
}

/** Preloaded into the role: it stops when the launcher's IPC channel closes. */
const dieWithParent = pathToFileURL(join(root, 'scripts/die-with-parent.mjs')).href

if (import.meta.url === `file://${process.argv[1]}`) {
  const { args } = roleCommand(process.argv[2])
  const child = spawn(process.execPath, ['--import', dieWithParent, ...args], {
    cwd: root,
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    env: process.env,
  })
  for (const signal of ['SIGHUP', 'SIGINT', 'SIGTERM']) {
    process.on(signal, () => child.kill(signal))
  }
  // The launcher's parent or grandparent reparented (`npm run` starts it through `sh -c`, which
  // stays when npm is killed): stop the role, as the supervisor meant to.
  const parent = process.ppid
  const grandparent = parentOf(parent)
  const watch = setInterval(() => {
    if (process.ppid === parent && parentOf(parent) === grandparent) return
    clearInterval(watch)
    child.kill('SIGTERM')
  }, 500).unref()
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
}

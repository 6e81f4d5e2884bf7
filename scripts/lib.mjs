// Helpers shared by the start and test scripts (plain Node, no dependencies).
import { spawn } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { isAbsolute, join, resolve } from 'node:path'

export const root = new URL('..', import.meta.url).pathname.replace(/\/$/, '')

/** Runs a command, streaming its output; resolves with its exit code. */
export function run(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit', cwd: root, ...options })
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)))
    child.on('error', (error) => {
      console.error(`Could not run ${command}: ${error.message}`)
      resolve(127)
    })
  })
}

/** Newest modification time (ms) of a file or of anything in a directory (not node_modules, dist). */
export function newestMtime(path) {
  if (!existsSync(path)) return 0
  const st = statSync(path)
  if (!st.isDirectory()) return st.mtimeMs
  let newest = st.mtimeMs
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry === 'dist') continue
    newest = Math.max(newest, newestMtime(join(path, entry)))
  }
  return newest
}

/** Where the SPA is built: WEB_DIST_DIR (as the API reads it, relative to the root) or apps/web/dist. */
export function webDistDir() {
  const dir = process.env.WEB_DIST_DIR || 'apps/web/dist'
  return isAbsolute(dir) ? dir : resolve(root, dir)
}

/** True when the SPA build is missing or older than any of its sources. */
export function webBuildIsStale() {
  const built = join(webDistDir(), 'index.html')
  if (!existsSync(built)) return true
  const builtAt = statSync(built).mtimeMs
  const sources = [
    'apps/web/src',
    'apps/web/public',
    'apps/web/index.html',
    'apps/web/vite.config.ts',
    'apps/web/package.json',
    'packages/engine/src',
    'packages/contracts/src',
  ]
  return sources.some((s) => newestMtime(join(root, s)) > builtAt)
}

export async function buildWebIfStale() {
  if (!webBuildIsStale()) return 0
  console.log('Building the web app…')
  const outDir = webDistDir()
  return run('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', outDir, '--emptyOutDir'], {
    cwd: join(root, 'apps/web'),
  })
}

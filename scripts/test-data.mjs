// `npm run test-data`: fetches the real-world files the tests and benchmarks use (rides, courses and
// aero field tests published by other people, listed with their sources and SHA-256 sums in
// scripts/test-data.json) into test-data/ (git-ignored; or the folder VELOPTIMA_TEST_DATA names),
// where scripts/test-data.ts finds them. A file already there with the right sum is kept; a
// download is written only when its SHA-256 is the pinned one. Needs the internet; never run by
// npm install or npm test. Ends non-zero, naming each file, when one could not be had.
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

const root = resolve(import.meta.dirname, '..')

/** The pinned list: { path, repository, source, url, sha256 }[]. */
export function pinnedFiles() {
  return JSON.parse(readFileSync(join(root, 'scripts/test-data.json'), 'utf8')).files
}

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex')

/**
 * Fills `dir` with `files`: each one either present (already there, right sum), fetched (written,
 * right sum), or failed with the reason (HTTP status, network error, or the wrong sum; nothing
 * written). Resolves with one { path, status, reason? } per file.
 */
export async function fill(files, dir, log = () => {}) {
  const results = []
  for (const f of files) {
    const target = join(dir, f.path)
    if (existsSync(target) && sha256(readFileSync(target)) === f.sha256) {
      results.push({ path: f.path, status: 'present' })
      log(`present  ${f.path}`)
      continue
    }
    let bytes
    try {
      const res = await fetch(f.url)
      if (!res.ok) {
        results.push({ path: f.path, status: 'failed', reason: `HTTP ${res.status} from ${f.url}` })
        log(`FAILED   ${f.path}: HTTP ${res.status} from ${f.url}`)
        continue
      }
      bytes = Buffer.from(await res.arrayBuffer())
    } catch (error) {
      const reason = `${error.cause?.message ?? error.message} (${f.url})`
      results.push({ path: f.path, status: 'failed', reason })
      log(`FAILED   ${f.path}: ${reason}`)
      continue
    }
    const got = sha256(bytes)
    if (got !== f.sha256) {
      const reason = `SHA-256 ${got}, expected ${f.sha256} (${f.url}): not kept`
      results.push({ path: f.path, status: 'failed', reason })
      log(`FAILED   ${f.path}: ${reason}`)
      continue
    }
    mkdirSync(dirname(target), { recursive: true })
    const part = `${target}.part`
    writeFileSync(part, bytes)
    renameSync(part, target)
    results.push({ path: f.path, status: 'fetched' })
    log(`fetched  ${f.path} (${bytes.length} bytes)`)
  }
  return results
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const env = process.env.VELOPTIMA_TEST_DATA
  const dir = env && env !== 'none' ? resolve(root, env) : join(root, 'test-data')
  console.log(`Real-world test files into ${dir}`)
  const results = await fill(pinnedFiles(), dir, (line) => console.log(`  ${line}`))
  const failed = results.filter((r) => r.status === 'failed')
  console.log(
    `${results.length - failed.length} of ${results.length} files in place` +
      (failed.length ? `; ${failed.length} failed (the tests that need them skip)` : ''),
  )
  process.exit(failed.length ? 1 : 0)
}

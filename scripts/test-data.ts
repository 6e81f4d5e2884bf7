// Where the tests and benchmarks find the real-world files (rides, courses and aero field tests
// recorded or published by other people; the list, their sources and SHA-256 sums are in
// scripts/test-data.json). They are never part of the repository, so every test that needs one
// skips, naming the missing file, where they are absent.
//
// The folder, first found wins:
//   1. VELOPTIMA_TEST_DATA, a folder (`none`: no real-world files at all, as on a stranger's clone);
//   2. ../shared/data next to the repository, when it exists;
//   3. test-data/ in the repository (git-ignored), filled by `npm run test-data`.
//
// Plain Node (no test runner imported): Vitest tests, Playwright journeys and benchmarks all use it.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

export const repoRoot = resolve(import.meta.dirname, '..')

/** Words every skip reason carries; scripts/test.mjs counts the skipped tests by them. */
export const SKIP_MARK = 'real-world file(s) absent'

function findDataDir(): string | undefined {
  const env = process.env.VELOPTIMA_TEST_DATA
  if (env !== undefined && env !== '') {
    if (env === 'none') return undefined
    return resolve(repoRoot, env)
  }
  const shared = resolve(repoRoot, '../shared/data')
  if (existsSync(shared)) return shared
  const local = join(repoRoot, 'test-data')
  if (existsSync(local)) return local
  return undefined
}

/** Every real-world file the tests may use (`courses/alpe-dhuez.gpx`, …), from scripts/test-data.json. */
export const realFiles: string[] = (
  JSON.parse(readFileSync(join(repoRoot, 'scripts/test-data.json'), 'utf8')) as {
    files: { path: string }[]
  }
).files.map((f) => f.path)

/** The real-world files in one folder (e.g. `courses`), as names inside it, sorted. */
export const realFilesIn = (folder: string): string[] =>
  realFiles
    .filter((p) => p.startsWith(`${folder}/`))
    .map((p) => p.slice(folder.length + 1))
    .sort()

/** The folder of the real-world files, or undefined when there is none. */
export const dataDir: string | undefined = findDataDir()

/** Absolute path of a real-world file (e.g. `courses/alpe-dhuez.gpx`), or undefined when absent. */
export function dataFile(rel: string): string | undefined {
  if (dataDir === undefined) return undefined
  const path = join(dataDir, rel)
  return existsSync(path) ? path : undefined
}

/** The names of the real-world files in a folder (e.g. `courses`), sorted; empty when absent. */
export function dataFiles(folder: string): string[] {
  const dir = dataFile(folder)
  return dir === undefined ? [] : readdirSync(dir).sort()
}

export interface RealData {
  /** Every named file is present. */
  ok: boolean
  /** `!ok`, for `describe.skipIf(data.skip)` and Playwright's `test.skip(data.skip, data.reason)`. */
  skip: boolean
  missing: string[]
  /** Why the tests skip: names the missing files and how to get them (empty when ok). */
  reason: string
  /** The test's title, with the skip reason appended when files are missing. */
  title: (name: string) => string
  /** Absolute path of one of the named files (throws when it is absent). */
  path: (rel: string) => string
  /** The bytes of one of the named files (throws when it is absent). */
  read: (rel: string) => Buffer
}

/**
 * The real-world files a test needs. Use as
 * `describe.skipIf(alpe.skip)(alpe.title('imports the Alpe'), () => { alpe.read('courses/alpe-dhuez.gpx') })`
 * so that without them the tests skip with a reason naming the files.
 */
export function needs(...rels: string[]): RealData {
  const missing = rels.filter((r) => dataFile(r) === undefined)
  const reason =
    missing.length === 0
      ? ''
      : `${SKIP_MARK}: ${missing.join(', ')} (npm run test-data fetches them)`
  const path = (rel: string): string => {
    const p = dataFile(rel)
    if (p === undefined) throw new Error(`${SKIP_MARK}: ${rel} (npm run test-data fetches it)`)
    return p
  }
  return {
    ok: missing.length === 0,
    skip: missing.length > 0,
    missing,
    reason,
    title: (name) => (missing.length === 0 ? name : `${name} [skipped: ${reason}]`),
    path,
    read: (rel) => readFileSync(path(rel)),
  }
}

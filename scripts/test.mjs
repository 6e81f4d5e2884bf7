// `npm test`: every check and every test suite, with a summary line per suite.
//   format · lint · types · unit · integration (PGlite) · integration (PostgreSQL) · e2e (Chromium)
// Ends non-zero when anything fails.
//
// The real-world files (rides, courses and field tests of other people, never in the repository)
// are found by scripts/test-data.ts: VELOPTIMA_TEST_DATA, else ../shared/data, else test-data/
// (`npm run test-data` fills it). Tests that need one skip, naming it; each suite's line says how
// many skipped for that and why.
//   npm test -- --no-real-data [suites…]   hides them (VELOPTIMA_TEST_DATA=none), as on a
//                                          stranger's clone: every reader and path still runs on
//                                          the self-made fixtures.
// With them hidden, the integration suites run only the test files that use scripts/test-data.ts
// or the self-made fixtures (the others read no such file, so hiding changes nothing for them).
// CI (.ci/run) runs the cheap part hidden first — the whole unit suite (~2 min) and those
// integration files on PGlite (~2 min) — then everything with the files.
// Every failure is named in the summary (file, test, first line of its message). On CI
// (CI set) a vitest file that failed runs once more alone, as Playwright retries a failed test
// there; a file that passes on its rerun counts as passed and is named in the summary as flaky.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join, relative } from 'node:path'
import { root, run } from './lib.mjs'
import { ensureChromium, ensureNginx, ensurePostgres } from './services.mjs'

const args = process.argv.slice(2)
const noRealData = args.includes('--no-real-data')
if (noRealData) process.env.VELOPTIMA_TEST_DATA = 'none'
const only = args.filter((a) => a !== '--no-real-data') // e.g. `npm test -- unit e2e`
// The words scripts/test-data.ts puts in every skip reason (SKIP_MARK there).
const SKIP_MARK = 'real-world file(s) absent'
const wanted = (name) => only.length === 0 || only.includes(name)
const reportDir = join(root, 'test-results')
rmSync(reportDir, { recursive: true, force: true })
mkdirSync(reportDir, { recursive: true })

const summary = []
let totalPassed = 0
let totalFailed = 0

function record(name, ok, detail, passed = 0, failed = 0, seconds = 0, notes = []) {
  totalPassed += passed
  totalFailed += failed
  summary.push({ name, ok, detail, seconds, notes })
}

/** "; N skipped: …" for tests skipped (reasons: the strings that carry the skip reason). */
function skippedDetail(reasons) {
  if (reasons.length === 0) return ''
  const real = reasons.filter((r) => r.includes(SKIP_MARK))
  const files = new Set()
  for (const r of real) {
    const m = new RegExp(`${SKIP_MARK.replace(/[()]/g, '\\$&')}: ([^(\\]]*)`).exec(r)
    for (const f of m ? m[1].split(',') : []) if (f.trim()) files.add(f.trim())
  }
  const parts = []
  if (real.length > 0)
    parts.push(
      `${real.length} skipped: the real-world files are absent (${files.size} files; npm run test-data fetches them)`,
    )
  if (reasons.length > real.length) parts.push(`${reasons.length - real.length} skipped otherwise`)
  return `; ${parts.join('; ')}`
}

async function check(name, command, args) {
  if (!wanted(name)) return
  const t0 = Date.now()
  const code = await run(command, args)
  record(
    name,
    code === 0,
    code === 0 ? 'clean' : `failed (exit ${code})`,
    0,
    0,
    (Date.now() - t0) / 1000,
  )
}

/** The integration test files that use the real-world files or the self-made fixtures. */
function integrationFilesUsingTestData() {
  const found = []
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.name === 'node_modules' || e.name === 'dist') continue
      const p = join(dir, e.name)
      if (e.isDirectory()) walk(p)
      else if (e.name.endsWith('.int.test.ts')) {
        const text = readFileSync(p, 'utf8')
        if (/scripts\/test-data|test\/fixtures\/synthetic-/.test(text))
          found.push(relative(root, p))
      }
    }
  }
  for (const group of ['apps', 'packages']) walk(join(root, group))
  return found.sort()
}

/** What a vitest JSON report says: counts, skip reasons, and each failure named with its first line. */
function readVitestReport(out) {
  const r = JSON.parse(readFileSync(out, 'utf8'))
  const skipped = []
  const failures = [] // { file, name, message }
  const passedIn = {} // file → tests passed
  for (const file of r.testResults ?? []) {
    const path = relative(root, file.name)
    passedIn[path] = (file.assertionResults ?? []).filter((a) => a.status === 'passed').length
    let named = false
    // A skipped test's reason is in its title or a describe's (scripts/test-data-vitest.ts).
    for (const a of file.assertionResults ?? []) {
      if (a.status === 'skipped' || a.status === 'pending')
        skipped.push({ file: path, title: [...(a.ancestorTitles ?? []), a.title].join(' > ') })
      if (a.status === 'failed') {
        named = true
        failures.push({ file: path, name: a.fullName, message: a.failureMessages?.[0] ?? '' })
      }
    }
    // A file that fails outside its tests (a beforeAll, an import) has only the file's message.
    if (file.status === 'failed' && !named)
      failures.push({ file: path, name: '(the file itself)', message: file.message ?? '' })
  }
  return {
    passed: r.numPassedTests ?? 0,
    failedTests: r.numFailedTests ?? 0,
    passedIn,
    skipped,
    failures,
  }
}

const firstLine = (text) => (text.split('\n').find((l) => l.trim()) ?? '').trim().slice(0, 200)

async function vitestRun(project, files, env, out) {
  const code = await run(
    'npx',
    [
      'vitest',
      'run',
      '--project',
      project,
      ...files,
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${out}`,
    ],
    { env: { ...process.env, ...env } },
  )
  return { code, report: existsSync(out) ? readVitestReport(out) : undefined }
}

async function vitestSuite(name, project, env = {}, files = []) {
  if (!wanted(name)) return
  const t0 = Date.now()
  const out = join(reportDir, `${name}.json`)
  let { code, report } = await vitestRun(project, files, env, out)
  // On CI a failed file runs once more, alone, as Playwright retries a failed test there
  // (e2e/playwright.config.ts): a file that then passes counts as passed and is named as flaky.
  const flaky = []
  if (process.env.CI && code !== 0 && report && report.failures.length > 0) {
    const again = [...new Set(report.failures.map((f) => f.file))]
    if (again.length <= 3) {
      console.log(`\n${name}: running the failed file(s) once more: ${again.join(', ')}`)
      const retry = await vitestRun(project, again, env, join(reportDir, `${name}-retry.json`))
      const r2 = retry.report
      // A file that passed whole on its rerun (ran, no failure) counts as its second run.
      const passedNow = r2
        ? again.filter((f) => f in r2.passedIn && !r2.failures.some((x) => x.file === f))
        : []
      if (passedNow.length > 0) {
        flaky.push(...report.failures.filter((f) => passedNow.includes(f.file)))
        const failures = report.failures.filter((f) => !passedNow.includes(f.file))
        const sum = (counts, files) => files.reduce((n, f) => n + (counts[f] ?? 0), 0)
        report = {
          ...report,
          passed: report.passed - sum(report.passedIn, passedNow) + sum(r2.passedIn, passedNow),
          failedTests: failures.filter((f) => f.name !== '(the file itself)').length,
          skipped: [
            ...report.skipped.filter((t) => !passedNow.includes(t.file)),
            ...r2.skipped.filter((t) => passedNow.includes(t.file)),
          ],
          failures,
        }
        if (failures.length === 0) code = 0
      }
    }
  }
  const passed = report?.passed ?? 0
  let failed = report ? report.failedTests + (code !== 0 && !report.failedTests ? 1 : 0) : 0
  if (!report && code !== 0) failed = 1
  const ok = code === 0 && passed > 0
  const notes = [
    ...flaky.map(
      (f) => `flaky (passed on its rerun): ${f.file} > ${f.name}: ${firstLine(f.message)}`,
    ),
    ...(report?.failures ?? []).map(
      (f) => `failed: ${f.file} > ${f.name}: ${firstLine(f.message)}`,
    ),
  ]
  record(
    name,
    ok,
    `${passed} passed, ${failed} failed${passed === 0 ? ' (no tests ran)' : ''}${skippedDetail((report?.skipped ?? []).map((t) => t.title))}`,
    passed,
    ok ? failed : Math.max(failed, 1),
    (Date.now() - t0) / 1000,
    notes,
  )
}

async function e2eSuite() {
  if (!wanted('e2e')) return
  const t0 = Date.now()
  let chromium
  try {
    chromium = ensureChromium()
  } catch (error) {
    record('e2e', false, error.message, 0, 1)
    return
  }
  const out = join(reportDir, 'e2e.json')
  const code = await run('npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts'], {
    env: { ...process.env, CHROMIUM_PATH: chromium, PLAYWRIGHT_JSON_OUTPUT_NAME: out },
  })
  let passed = 0
  let failed = 0
  const skipped = []
  if (existsSync(out)) {
    const r = JSON.parse(readFileSync(out, 'utf8'))
    passed = (r.stats?.expected ?? 0) + (r.stats?.flaky ?? 0)
    failed = r.stats?.unexpected ?? 0
    // Playwright keeps a skip's reason as the test's 'skip' annotation.
    const walk = (suite) => {
      for (const spec of suite.specs ?? [])
        for (const t of spec.tests ?? [])
          if (t.status === 'skipped')
            skipped.push(
              (t.annotations ?? [])
                .filter((a) => a.type === 'skip')
                .map((a) => a.description ?? '')
                .join(' ') || spec.title,
            )
      for (const s of suite.suites ?? []) walk(s)
    }
    for (const s of r.suites ?? []) walk(s)
  }
  if (code !== 0 && failed === 0) failed = 1
  record(
    'e2e',
    code === 0 && passed > 0,
    `${passed} passed, ${failed} failed${skippedDetail(skipped)}`,
    passed,
    failed,
    (Date.now() - t0) / 1000,
  )
}

await check('format', 'npx', ['prettier', '--check', '--log-level', 'warn', '.'])
await check('lint', 'npx', ['eslint', '.', '--max-warnings=0'])
await check('types', 'node', ['scripts/typecheck.mjs'])
await vitestSuite('unit', 'unit')
const hiddenIntegration = noRealData ? integrationFilesUsingTestData() : []
await vitestSuite('integration-pglite', 'integration', { DB_DRIVER: 'pglite' }, hiddenIntegration)
if (wanted('integration-pg')) {
  try {
    const url = await ensurePostgres()
    // The multi-process test (apps/api/test/multi-process.int.test.ts) runs nginx in front of
    // several API and worker processes, and uses the app through it in Chromium.
    const nginx = ensureNginx()
    const chromium = ensureChromium()
    await vitestSuite(
      'integration-pg',
      'integration',
      {
        DB_DRIVER: 'pg',
        TEST_DATABASE_URL: url,
        NGINX_PATH: nginx,
        CHROMIUM_PATH: chromium,
      },
      hiddenIntegration,
    )
  } catch (error) {
    record('integration-pg', false, error.message, 0, 1)
  }
}
await e2eSuite()

console.log(
  `\n── Veloptima test summary (Node ${process.version}${noRealData ? '; real-world files hidden' : ''}) ──`,
)
for (const s of summary) {
  console.log(
    `${s.ok ? 'PASS' : 'FAIL'}  ${s.name.padEnd(20)} ${s.detail}  (${s.seconds.toFixed(1)} s)`,
  )
  for (const note of s.notes ?? []) console.log(`      ${note}`)
}
const allOk = summary.every((s) => s.ok)
console.log(`${totalPassed} passed, ${totalFailed} failed`)
process.exit(allOk ? 0 : 1)

// `npm run bench -- landing`: the first page as a new visitor gets it (under 120 KB of gzipped
// JavaScript, docs/web-app.md). The SPA is built for production by Vite into a scratch
// directory and served by the real API (embedded PGlite, loopback); Debian's headless Chromium
// loads the landing page with an empty cache, RUNS times. Prints, from the browser's Resource
// Timing, every script the page fetched with its bytes on the wire and its gzip size (the API
// itself does not compress: a proxy in front does), the total by kind, and first contentful
// paint. Nothing here asserts; docs/benchmarks.md quotes the figures.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { gzipSync } from 'node:zlib'
import { chromium } from '@playwright/test'
import { build } from 'vite'
import { openDatabase } from '@veloptima/db'
import { chromiumArgs, chromiumPath } from '../../../e2e/chromium.ts'
import { buildApp } from '../../api/src/app.ts'
import { loadConfig } from '../../api/src/config.ts'
import { loadSessionTokens } from '../../api/src/services/session-token.ts'

const RUNS = Number(process.env.BENCH_RUNS ?? 5)

if (!existsSync(chromiumPath)) {
  console.log(`Chromium not found at ${chromiumPath}: install Debian's chromium.`)
  process.exit(0)
}

const webRoot = resolve(import.meta.dirname, '..')
const outDir = mkdtempSync(join(tmpdir(), 'veloptima-landing-'))
await build({ root: webRoot, logLevel: 'warn', build: { outDir, emptyOutDir: true } })

const database = await openDatabase({ driver: 'pglite' })
await database.migrate()
const config = loadConfig({
  LOG_LEVEL: 'silent',
  DATA_DIR: join(outDir, 'data'),
  WEB_DIST_DIR: outDir,
})
const app = await buildApp({
  config,
  database,
  sessionTokens: await loadSessionTokens(database, config.publicUrl),
})
await app.listen({ port: 0, host: '127.0.0.1' })
const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`

type Loaded = { path: string; kind: string; transfer: number; body: number }
type Run = { fcp: number; loaded: Loaded[] }

const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })
const runs: Run[] = []
try {
  for (let i = 0; i < RUNS; i++) {
    const context = await browser.newContext({ serviceWorkers: 'block' })
    const page = await context.newPage()
    await page.goto(`${origin}/`)
    await page.waitForSelector('html[data-auth="signed-out"]', { timeout: 30_000 })
    await page.waitForLoadState('networkidle')
    runs.push(
      await page.evaluate(() => {
        const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN
        const loaded = performance
          .getEntriesByType('resource')
          .map((e) => e as PerformanceResourceTiming)
          .map((e) => ({
            path: new URL(e.name).pathname,
            kind: e.initiatorType === 'link' && e.name.endsWith('.css') ? 'css' : e.initiatorType,
            transfer: e.transferSize,
            body: e.encodedBodySize,
          }))
        return { fcp, loaded }
      }),
    )
    await context.close()
  }
} finally {
  await browser.close()
  await app.close()
  await database.close()
}

const scripts = runs[0]!.loaded.filter((l) => l.path.endsWith('.js'))
const gzip = (path: string) => gzipSync(readFileSync(join(outDir, path)), { level: 9 }).length
let totalBody = 0
let totalGzip = 0
console.log('Scripts of the landing page (first run):')
for (const s of scripts) {
  const gz = gzip(s.path)
  totalBody += s.body
  totalGzip += gz
  console.log(
    `  ${s.path.padEnd(44)} ${(s.body / 1024).toFixed(1).padStart(7)} KB  gzip ${(gz / 1024).toFixed(1).padStart(6)} KB`,
  )
}
const others = runs[0]!.loaded.filter((l) => !l.path.endsWith('.js'))
const otherBytes = others.reduce((a, l) => a + l.transfer, 0)
const fcps = runs.map((r) => r.fcp).sort((a, b) => a - b)
console.log(
  `JavaScript: ${scripts.length} files, ${(totalBody / 1024).toFixed(1)} KB as served, ` +
    `${(totalGzip / 1024).toFixed(1)} KB gzip (goal: under 120 KB gzip)`,
)
console.log(
  `Other requests: ${others.length} (${others.map((o) => o.path).join(', ')}), ` +
    `${(otherBytes / 1024).toFixed(1)} KB transferred`,
)
console.log(
  `First contentful paint over ${RUNS} cold loads on loopback: median ` +
    `${fcps[Math.floor(fcps.length / 2)]!.toFixed(0)} ms (min ${fcps[0]!.toFixed(0)}, ` +
    `max ${fcps[fcps.length - 1]!.toFixed(0)})`,
)
rmSync(outDir, { recursive: true, force: true })

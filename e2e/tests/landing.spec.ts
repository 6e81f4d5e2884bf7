import { gzipSync } from 'node:zlib'
import { expect, test } from '@playwright/test'
import { screenshotPath } from '../helpers/auth.ts'
import { expectLandingCopy } from './shell-checks.ts'

test('a signed-out visitor sees the landing page of the specification', async ({ page }) => {
  const errors: string[] = []
  page.on('console', (msg) => msg.type() === 'error' && errors.push(msg.text()))
  await page.goto('/')
  await expectLandingCopy(page)
  await page.screenshot({ path: screenshotPath('landing'), fullPage: true })
  expect(errors).toEqual([])
})

test('the landing page loads under 120 KB of gzipped JavaScript, without TanStack Query', async ({
  page,
}) => {
  // The landing page under 120 KB of gzipped JavaScript, the signed-in app split from it
  // (docs/web-app.md). Every script a new visitor's browser fetches until the network is
  // idle, gzipped at level 9 as a compressing proxy would serve it.
  const scripts: string[] = []
  const requests: string[] = []
  page.on('response', (r) => {
    if (r.request().resourceType() === 'script') scripts.push(new URL(r.url()).pathname)
    else requests.push(new URL(r.url()).pathname)
  })
  await page.goto('/')
  await expect(page.locator('html[data-auth="signed-out"]')).toBeAttached()
  await expect(
    page.getByRole('heading', { name: 'Use your energy more wisely and become faster.' }),
  ).toBeVisible()
  await page.waitForLoadState('networkidle')
  let gzipped = 0
  const bodies: string[] = []
  for (const path of scripts) {
    const body = await (await page.request.get(path)).body()
    gzipped += gzipSync(body, { level: 9 }).length
    bodies.push(body.toString('utf8'))
  }
  console.log(`Landing page JavaScript: ${scripts.length} files, ${gzipped} bytes gzip`)
  // the footer's links and the sign-in's provider settings share one read of the configuration
  expect(requests.filter((p) => p === '/api/public-config')).toHaveLength(1)
  expect(scripts.length).toBeGreaterThan(0)
  expect(gzipped).toBeLessThan(120 * 1024)
  // TanStack Query's core (its "Missing queryFn" error is in no other library) and the data
  // layer's chunk load with the signed-in app only.
  expect(scripts.filter((s) => s.includes('query-layer'))).toEqual([])
  expect(bodies.filter((b) => b.includes('Missing queryFn'))).toEqual([])

  // The first page that queries brings the layer with it.
  await page.getByRole('link', { name: /Learn more/ }).click()
  await expect(page.getByRole('heading', { name: 'Plans for riders and teams' })).toBeVisible()
  expect(scripts.some((s) => s.includes('query-layer'))).toBe(true)
})

test('the API answers liveness and readiness', async ({ request }) => {
  expect((await request.get('/api/health')).status()).toBe(200)
  const ready = await request.get('/api/ready')
  expect(ready.status()).toBe(200)
  expect(await ready.json()).toMatchObject({ status: 'ready', database: { migrated: true } })
})

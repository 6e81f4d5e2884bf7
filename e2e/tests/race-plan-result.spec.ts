import { readFileSync } from 'node:fs'
import { Decoder, Stream } from '@garmin/fitsdk'
import { expect, test, type Page } from '@playwright/test'
import { DEMO, screenshotPath, signIn } from '../helpers/auth.ts'
import { pageErrors } from '../helpers/page-errors.ts'
import { roadSetupBody } from '../helpers/rider-setup.ts'
import { captureToken } from './shell-checks.ts'

// The race plan's result page: a 50 km course ridden in 32 °C heat by a rider who tires
// (durability 0.06) with a gut that takes 90 g/h, run through the app; the page says the CP left
// at the finish, what heat and durability cost the plan and the fuel plan with its feeds, and
// every export downloads as a file of its kind (the FIT course decoded with Garmin's SDK, its
// feeds as food and water course points). A target time shows its outcome: reached, the time and
// NP; out of reach, the fastest legal plan's time and that plan. Desktop and phone widths.

const UUID = '[0-9a-f-]{36}'

/** A 50 km course north (501 points 100 m apart), rolling ±30 m, as a GPX file. */
const rollingGpx = () =>
  `<?xml version="1.0" encoding="UTF-8"?><gpx version="1.1" creator="e2e" xmlns="http://www.topografix.com/GPX/1/1"><trk><name>Hot fifty</name><trkseg>${Array.from(
    { length: 501 },
    (_, i) =>
      `<trkpt lat="${(45 + i * 0.0009).toFixed(6)}" lon="${(6 + 0.002 * Math.sin(i / 40)).toFixed(6)}"><ele>${(200 + 30 * Math.sin(i / 25)).toFixed(1)}</ele></trkpt>`,
  ).join('')}</trkseg></trk></gpx>`

type Api = {
  post: <T = { id: string }>(path: string, data: unknown) => Promise<T>
  courseId: string
  setupId: string
}

/** Signs the rider in and makes the course and the setup (durability 0.06) through the API. */
async function prepare(page: Page): Promise<Api> {
  const token = captureToken(page)
  await signIn(page, DEMO.rider)
  await expect(page.getByRole('heading', { name: /Get ready|You are ready to go/ })).toBeVisible()
  const headers = () => ({ authorization: `Bearer ${token()}` })
  const post = async <T = { id: string }>(path: string, data: unknown): Promise<T> => {
    const r = await page.request.post(path, { headers: headers(), data })
    expect(r.status(), `${path}: ${await r.text()}`).toBeLessThan(300)
    return (await r.json()) as T
  }
  const imported = await page.request.post('/api/courses/import', {
    headers: headers(),
    multipart: {
      file: {
        name: 'hot-fifty.gpx',
        mimeType: 'application/gpx+xml',
        buffer: Buffer.from(rollingGpx()),
      },
    },
  })
  expect(imported.status(), await imported.text()).toBeLessThan(300)
  const courseId = ((await imported.json()) as { id: string }).id
  const setup = await post('/api/rider-setups', {
    ...roadSetupBody('Tiring TT bike'),
    max_power: 900,
    durability: 0.06,
  })
  return { post, courseId, setupId: setup.id }
}

/** A pacing optimization in 32 °C heat with fuel, run from its page; waits for its result. */
async function runPlan(page: Page, api: Api, name: string, constraint: object): Promise<void> {
  const optimization = await api.post('/api/optimizations', {
    type: 'pacing',
    name,
    course_id: api.courseId,
    rider_setup_id: api.setupId,
    inputs: {
      constraint,
      environment: { temperature_c: 32 },
      options: { heat: true },
      fuel: { gut_tolerance_g_per_h: 90 },
    },
  })
  await page.goto(`/simulation/optimizations/pacing/${optimization.id}`)
  await page.getByRole('button', { name: 'Run' }).click()
  await page.waitForURL(new RegExp(`/optimizations/pacing/${UUID}/results/${UUID}$`), {
    timeout: 90_000,
  })
  await expect(page.getByTestId('predicted-time')).toHaveText(/^(\d+:)?\d?\d:\d\d$/, {
    timeout: 90_000,
  })
}

/** Clicks a download button and answers the file's bytes and name. */
async function download(page: Page, label: string) {
  const event = page.waitForEvent('download')
  await page.getByRole('button', { name: label, exact: true }).click()
  const file = await event
  return { bytes: readFileSync(await file.path()), name: file.suggestedFilename() }
}

type FitMessages = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  messages: Record<string, any[]>
  errors: unknown[]
}

/** At 390 px nothing is wider than the screen; the page and each card named are photographed. */
async function expectNoWiderThanPhone(page: Page, shot: string, cards: string[] = []) {
  await page.setViewportSize({ width: 390, height: 844 })
  const width = await page.evaluate(() => document.documentElement.scrollWidth)
  expect(width).toBeLessThanOrEqual(390)
  await page.screenshot({ path: screenshotPath(shot), fullPage: true })
  for (const card of cards) {
    await page
      .locator('section')
      .filter({ has: page.getByRole('heading', { name: card, exact: true }) })
      .screenshot({ path: screenshotPath(`${shot}-${card.toLowerCase().replace(/\W+/g, '-')}`) })
  }
  await page.setViewportSize({ width: 1280, height: 900 })
}

test('a race plan in the heat: finish CP, costs, fuel card and every export', async ({ page }) => {
  test.setTimeout(300_000)
  const errors = pageErrors(page)
  await page.setViewportSize({ width: 1280, height: 900 })
  const api = await prepare(page)
  await runPlan(page, api, 'Hot fifty', { type: 'w_prime_balance' })

  // The CP at the finish, below the setup's 280 W.
  const finishCp = page.getByTestId('finish-cp')
  await expect(finishCp).toHaveText(/^At the finish your CP is \d+ W \(280 W at the start\)\.$/)
  const cp = Number(/CP is (\d+) W/.exec((await finishCp.textContent())!)![1])
  expect(cp).toBeGreaterThan(100)
  expect(cp).toBeLessThan(280)
  // What heat and durability cost the plan, in that order.
  await expect(page.getByTestId('plan-costs')).toHaveText(
    /^heat \+(\d+ min )?\d+ s, durability \+(\d+ min )?\d+ s$/,
  )

  // The fuel card: the rate, fluid and sodium, the glycogen line, the feeds and their times.
  const fuel = page.getByTestId('fuel-card')
  await expect(fuel.getByTestId('fuel-carbohydrate')).toHaveText(
    /^Carbohydrate [1-9]\d* g\/h, \d+ g in all.* The ride burns \d+ g; your gut takes up to 90 g\/h\.$/,
  )
  await expect(fuel.getByTestId('fuel-fluid')).toHaveText(
    /^Fluid \d+ ml\/h, sodium \d+ mg\/h \(\d+ ml in all\)\.$/,
  )
  await expect(fuel.getByTestId('fuel-glycogen')).toHaveText(/^Glycogen \d+ g at the start/)
  const feeds = fuel.getByTestId('fuel-feed')
  const feedCount = await feeds.count()
  expect(feedCount).toBeGreaterThanOrEqual(2)
  for (const feed of await feeds.all()) {
    await expect(feed).toHaveText(/^\d+\.\d km\s*(\d+:)?\d?\d:\d\d\s*\S.*\d+ ml$/)
  }
  await page.screenshot({ path: screenshotPath('race-plan-result'), fullPage: true })
  await expectNoWiderThanPhone(page, 'race-plan-result-phone', [
    'Target, capacity and costs',
    'Fuel',
    'Export',
  ])

  // Every export: a file of its kind. The FIT course carries a food or water point per feed.
  const fit = await download(page, 'Download FIT course')
  expect(fit.name).toMatch(/\.fit$/)
  expect(fit.bytes.subarray(8, 12).toString('latin1')).toBe('.FIT')
  const decoded = new Decoder(
    Stream.fromByteArray(new Uint8Array(fit.bytes)),
  ).read() as unknown as FitMessages
  expect(decoded.errors).toEqual([])
  const foodPoints = decoded.messages.coursePointMesgs!.filter(
    (p) => p.type === 'food' || p.type === 'water',
  )
  expect(foodPoints.length).toBe(feedCount)
  const heads: [label: string, extension: RegExp, head: RegExp][] = [
    ['Download GPX', /\.gpx$/, /^<\?xml[^>]*>\s*<gpx /],
    ['Download CSV', /\.csv$/, /^section,start_km,end_km/],
    ['Download ERG', /\.erg$/, /^\[COURSE HEADER\]\r\n[\s\S]*MINUTES WATTS/],
    ['Download MRC', /\.mrc$/, /^\[COURSE HEADER\]\r\n[\s\S]*FTP = 280[\s\S]*MINUTES PERCENT/],
    ['Download Zwift workout', /\.zwo$/, /^<\?xml[^>]*>\s*<workout_file>/],
  ]
  for (const [label, extension, head] of heads) {
    const file = await download(page, label)
    expect(file.bytes.length, label).toBeGreaterThan(0)
    expect(file.name, label).toMatch(extension)
    expect(file.bytes.toString('utf8'), label).toMatch(head)
  }
  const workout = await download(page, 'Download FIT workout')
  expect(workout.name).toMatch(/-workout\.fit$/)
  const steps = new Decoder(
    Stream.fromByteArray(new Uint8Array(workout.bytes)),
  ).read() as unknown as FitMessages
  expect(steps.errors).toEqual([])
  expect(steps.messages.fileIdMesgs![0].type).toBe('workout')
  expect(steps.messages.workoutStepMesgs!.length).toBeGreaterThan(0)

  // The printed race sheet carries the fuel rate and each feed.
  await page.emulateMedia({ media: 'print' })
  const sheet = page.getByTestId('race-sheet-fuel')
  await expect(sheet).toBeVisible()
  await expect(sheet).toContainText(/Fuel\s*\d+ g\/h carbohydrate · fluid \d+ ml\/h/)
  await expect(sheet.getByTestId('race-sheet-feed')).toHaveCount(feedCount)
  await page.setViewportSize({ width: 718, height: 1047 })
  await page.getByTestId('race-sheet').screenshot({ path: screenshotPath('race-plan-sheet') })
  await page.emulateMedia({ media: 'screen' })
  expect(errors).toEqual([])
})

test('a target time: the time and NP when reached, the fastest legal plan when not', async ({
  page,
}) => {
  test.setTimeout(300_000)
  const errors = pageErrors(page)
  await page.setViewportSize({ width: 1280, height: 900 })
  const api = await prepare(page)

  // Two and a half hours for 50 km: reached with the least effort.
  await runPlan(page, api, 'Easy fifty', { type: 'target_time', time_s: 9000 })
  await expect(page.getByTestId('target-time')).toHaveText(
    /^Target 2:30:00: finishes in (2:29:[45]\d|2:30:00) at NP \d+ W\. The least effort that makes it; the fastest legal plan is (\d+:)?\d?\d:\d\d\.$/,
  )
  await expect(page.getByRole('button', { name: 'Download FIT course' })).toBeEnabled()

  // Forty minutes for 50 km: out of reach. The run stores the fastest legal plan as its result,
  // and the result page says why it is not the target's, with that plan's exports.
  await runPlan(page, api, 'Impossible fifty', { type: 'target_time', time_s: 2400 })
  const sentence = /not reachable: the fastest legal plan is ((\d+:)?\d?\d:\d\d)\./
  const outcome = page.getByTestId('target-time')
  await expect(outcome).toHaveText(
    /^Target 40:00 not reachable: the fastest legal plan is (\d+:)?\d?\d:\d\d\. The plan below is that fastest plan\.$/,
  )
  const fastest = sentence.exec((await outcome.textContent())!)![1]!
  await expect(page.getByTestId('predicted-time')).toHaveText(fastest)
  await expect(page.getByRole('button', { name: 'Download FIT course' })).toBeEnabled()
  await page.screenshot({ path: screenshotPath('race-plan-target-missed'), fullPage: true })
  await expectNoWiderThanPhone(page, 'race-plan-target-missed-phone')
  expect(errors).toEqual([])
})

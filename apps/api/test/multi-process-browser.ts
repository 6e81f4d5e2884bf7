// Debian's Chromium driving the app through the cluster's balancer (multi-process.int.test.ts):
// the browser and sign-in steps of the e2e journeys (e2e/chromium.ts, e2e/helpers/auth.ts)
// without Playwright Test's runner, and a probe: the browser's own EventSource on /api/live,
// whose every notification and (re)connection the test reads back.
import { chromium, type Browser, type Page, type Request } from '@playwright/test'
import { chromiumArgs, chromiumPath } from '../../../e2e/chromium.ts'

export type BrowserSession = {
  browser: Browser
  page: Page
  /** A page at `url` in a context of its own (no cookies, no service worker). */
  newPage(url: string): Promise<Page>
  close(): Promise<void>
}

/** One page in Debian's Chromium (never a downloaded browser). */
export async function openBrowser(): Promise<BrowserSession> {
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })
  const context = await browser.newContext()
  const page = await context.newPage()
  page.setDefaultTimeout(30_000)
  return {
    browser,
    page,
    async newPage(url) {
      const other = await (await browser.newContext({ serviceWorkers: 'block' })).newPage()
      other.setDefaultTimeout(30_000)
      await other.goto(url)
      return other
    },
    close: () => browser.close(),
  }
}

/** The session token the app sends with its API calls (read from its requests). */
export function captureToken(page: Page): () => string | undefined {
  let token: string | undefined
  page.on('request', (r) => {
    const h = r.headers().authorization
    if (r.url().includes('/api/') && h?.startsWith('Bearer ')) token = h.slice(7)
  })
  return () => token
}

export const authState = (page: Page) => page.locator('html').getAttribute('data-auth')

/**
 * Signs in from the landing page at `publicUrl` with the embedded provider's password form (the
 * provider behind the balancer's second address), and waits until the app has its session.
 */
export async function signIn(page: Page, publicUrl: string, email: string, password: string) {
  await page.goto(`${publicUrl}/`)
  await page.waitForSelector('html[data-auth="signed-out"]')
  const signInButton = page.getByRole('button', { name: 'Sign in', exact: true })
  const getStarted = page
    .getByRole('button', { name: 'Get started' })
    .or(page.getByRole('link', { name: 'Get started' }))
  await signInButton.or(getStarted).first().waitFor()
  await ((await signInButton.first().isVisible()) ? signInButton : getStarted).first().click()
  await page.waitForURL(/\/interaction\//)
  await page.getByLabel('E-mail').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.waitForSelector('html[data-auth="signed-in"]')
}

/** What the probe uses of the browser's EventSource. */
type BrowserEventSource = {
  addEventListener(name: string, listener: (m: { lastEventId: string; data: string }) => void): void
  onopen: (() => void) | null
  onerror: (() => void) | null
  close(): void
}

export type ProbeState = {
  events: { id: string; data: string }[]
  opens: number
  errors: number
}

/**
 * Connections of the probe stream (`probe=` in the address). (Chromium adds Last-Event-ID below
 * the layer Playwright intercepts: the header is not in the request seen here.)
 */
export type ProbeRequest = { at: number; request: Request }

/**
 * Opens the probe: a plain EventSource on /api/live?access_token=…&probe=TAG in the page. The
 * browser reconnects it by itself (after the stream's `retry:`), sending Last-Event-ID.
 * `hold(request)` is asked about each connection after the first: while it resolves, the
 * reconnection waits in the browser (to make it happen after the notifications it must replay).
 */
export async function openProbe(
  page: Page,
  token: string,
  hold: (request: Request) => Promise<void>,
  tag = 'probe',
): Promise<{ connections: ProbeRequest[]; state(): Promise<ProbeState>; close(): Promise<void> }> {
  const connections: ProbeRequest[] = []
  await page.route(/\/api\/live\?.*probe=/, async (route) => {
    const request = route.request()
    connections.push({ at: Date.now(), request })
    if (connections.length > 1) await hold(request)
    await route.continue()
  })
  // Runs in the page (this package's types have no DOM: the browser's globals are spelled out).
  await page.evaluate(
    ({ t, tag }) => {
      const w = globalThis as unknown as { __probe: ProbeState; __probeSource: BrowserEventSource }
      w.__probe = { events: [], opens: 0, errors: 0 }
      const source = new (
        globalThis as unknown as { EventSource: new (url: string) => BrowserEventSource }
      ).EventSource(`/api/live?access_token=${encodeURIComponent(t)}&probe=${tag}`)
      source.addEventListener('notification', (m) => {
        w.__probe.events.push({ id: m.lastEventId, data: m.data })
      })
      source.onopen = () => {
        w.__probe.opens++
      }
      source.onerror = () => {
        w.__probe.errors++
      }
      w.__probeSource = source
    },
    { t: token, tag },
  )
  return {
    connections,
    state: () => page.evaluate(() => (globalThis as unknown as { __probe: ProbeState }).__probe),
    close: () =>
      page.evaluate(() =>
        (globalThis as unknown as { __probeSource: BrowserEventSource }).__probeSource.close(),
      ),
  }
}

/** Polls the probe until `predicate` holds (or throws after `ms`, with what it has). */
export async function probeUntil(
  probe: { state(): Promise<ProbeState> },
  predicate: (s: ProbeState) => boolean,
  ms: number,
  what: string,
): Promise<ProbeState> {
  const deadline = Date.now() + ms
  for (;;) {
    const s = await probe.state()
    if (predicate(s)) return s
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}; the probe has ${JSON.stringify(s)}`)
    }
    await new Promise((r) => setTimeout(r, 250))
  }
}

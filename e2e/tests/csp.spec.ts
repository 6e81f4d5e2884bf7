import { expect, test, type Page } from '@playwright/test'
import { DEMO, signIn } from '../helpers/auth.ts'
import { captureToken } from './shell-checks.ts'

// Browser lockdown: every page, served with its Content-Security-Policy, loads
// without a single violation: the landing page, the identity provider's sign-in page and the
// signed-in pages of a coach (the routes of shell.spec.ts). Violations are caught twice: the
// securitypolicyviolation event of each document and Chromium's console message about it.

type Violation = { page: string; directive: string; blocked: string; sample: string }

async function watchCsp(page: Page): Promise<Violation[]> {
  const violations: Violation[] = []
  await page.exposeFunction('__cspViolation', (v: Omit<Violation, 'page'>) =>
    violations.push({ page: page.url(), ...v }),
  )
  // Init scripts run through the DevTools protocol, not as inline scripts, so the policy
  // under test does not stop this listener.
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const report = (window as unknown as { __cspViolation: (v: unknown) => void }).__cspViolation
      report({ directive: e.effectiveDirective, blocked: e.blockedURI, sample: e.sample })
    })
  })
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) {
      violations.push({ page: page.url(), directive: 'console', blocked: '', sample: m.text() })
    }
  })
  return violations
}

/** The navigation's own policy: present, and strict about scripts. */
async function visit(page: Page, path: string) {
  const response = await page.goto(path)
  const policy = response?.headers()['content-security-policy'] ?? ''
  expect(policy, `${path}: Content-Security-Policy`).toMatch(/script-src 'self'(;|$)/)
  expect(policy).toContain("frame-ancestors 'none'")
  await page.waitForLoadState('networkidle')
}

test('every page loads under the CSP without a violation', async ({ page }) => {
  test.setTimeout(180_000)
  const violations = await watchCsp(page)

  // The detector itself: an inline script added to the page is refused and reported.
  await visit(page, '/')
  await page.evaluate(() => {
    const s = document.createElement('script')
    s.textContent = 'window.__inlineRan = true'
    document.body.append(s)
  })
  // Both the event (effective directive script-src-elem) and the console message arrive.
  await expect.poll(() => violations.some((v) => /^script-src/.test(v.directive))).toBe(true)
  await expect.poll(() => violations.some((v) => v.directive === 'console')).toBe(true)
  expect(await page.evaluate(() => '__inlineRan' in window)).toBe(false)
  violations.length = 0

  // Signed out: landing (its service worker registers and activates under the policy), pricing,
  // legal pages, an unknown path.
  await visit(page, '/')
  await expect(page.getByRole('button', { name: 'Get started' })).toBeVisible()
  await page.waitForFunction(async () => {
    const r = await navigator.serviceWorker.getRegistration('/')
    return r?.active?.state === 'activated'
  })
  for (const path of ['/pricing', '/terms', '/privacy', '/no-such-page']) await visit(page, path)

  // The provider's sign-in page, then the coach's pages.
  const token = captureToken(page)
  await page.goto('/')
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await page.waitForURL(/\/interaction\//)
  await expect(page.getByLabel('E-mail')).toBeVisible()
  await page.waitForLoadState('networkidle')
  expect(violations, 'sign-in page').toEqual([])
  await page.goto('/')
  await signIn(page, DEMO.coach)

  const courses = await page.request.get('/api/courses?limit=1', {
    headers: { authorization: `Bearer ${token()}` },
  })
  const courseId = ((await courses.json()) as { items: { id: string }[] }).items[0]?.id
  const pages = [
    '/',
    '/account',
    '/tools',
    '/simulation',
    '/simulation/input',
    '/simulation/courses',
    ...(courseId ? [`/simulation/courses/${courseId}`] : []),
    '/simulation/riders',
    '/simulation/riders/new',
    '/simulation/optimizations?type=pacing',
    '/simulation/optimizations/new?type=pacing',
    '/simulation/optimizations/new?type=equipment',
    '/aero',
    '/aero/sessions',
    '/aero/devices',
  ]
  for (const path of pages) {
    await visit(page, path)
    await expect(page.locator('main')).toBeVisible()
  }
  expect(courseId, 'a sample course to show on its map page').toBeTruthy()
  expect(violations).toEqual([])
})

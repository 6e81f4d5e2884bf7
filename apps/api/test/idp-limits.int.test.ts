// The sign-in and sign-up limits of the embedded provider under bursts, over HTTP as a browser
// (or an attacker's script) reaches them (docs/limits-signin.md). Client addresses come from
// X-Forwarded-For: the provider trusts the loopback balancer here (TRUST_PROXY=loopback).
// The password hashes a burst costs are read from the process's scrypt counter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { inArray } from 'drizzle-orm'
import { idpAccounts } from '@veloptima/db'
import { DEMO_PASSWORD } from '../src/idp/index.ts'
import { scryptDerivations } from '../src/idp/passwords.ts'
import type { TestApp } from './helpers.ts'
import { authorize, Browser, startIdentity, type FlowSettings, type Identity } from './idp-flow.ts'

const from = (address: string, fields: Record<string, string>): RequestInit => ({
  method: 'POST',
  headers: {
    'content-type': 'application/x-www-form-urlencoded',
    'x-forwarded-for': address,
  },
  body: new URLSearchParams(fields).toString(),
})

/** Every 429 carries Retry-After in whole seconds, and its page says when to try again. */
async function expectTooMany(response: Response) {
  expect(response.status).toBe(429)
  expect(response.headers.get('retry-after')).toMatch(/^[1-9]\d*$/)
  expect(await response.text()).toMatch(
    /data-code="too-many-requests">[^<]*Try again in \d+ (second|minute)s?[.,]/,
  )
}

describe('sign-in limits under bursts', () => {
  let identity: Identity
  let t: TestApp
  let settings: FlowSettings
  let now = Date.now()
  beforeAll(async () => {
    identity = await startIdentity({ TRUST_PROXY: 'loopback' }, { now: () => now })
    ;({ t, settings } = identity)
  })
  afterAll(() => identity?.close())

  /** Signs in from `address`: the code the app's callback receives, or undefined. */
  async function signIn(address: string, email: string, password: string) {
    const browser = new Browser()
    const { pageUrl } = await authorize(browser, settings)
    const post = await browser.fetch(`${pageUrl}/login`, from(address, { email, password }))
    if (post.status !== 303) return { status: post.status, code: undefined }
    const location = new URL(post.headers.get('location') ?? '', pageUrl).toString()
    const { url } = await browser.follow(location, {}, settings.issuer)
    const code = url.startsWith(settings.redirectUri)
      ? (new URL(url).searchParams.get('code') ?? undefined)
      : undefined
    return { status: post.status, code }
  }

  it('hashes 100 parallel wrong passwords for one e-mail at most 5 times; the owner elsewhere still signs in', async () => {
    const browser = new Browser()
    const { pageUrl } = await authorize(browser, settings)
    const before = scryptDerivations()
    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        browser.fetch(
          `${pageUrl}/login`,
          from('198.51.100.7', { email: 'rider@example.com', password: `guess-${i}` }),
        ),
      ),
    )
    const hashed = scryptDerivations() - before
    const statuses = responses.map((r) => r.status)
    expect(hashed).toBe(5)
    expect(statuses.filter((s) => s === 401)).toHaveLength(5)
    expect(statuses.filter((s) => s === 429)).toHaveLength(95)
    for (const r of responses.filter((r) => r.status === 429)) await expectTooMany(r)
    // The right password from the attacker's address waits too …
    await expectTooMany(
      await browser.fetch(
        `${pageUrl}/login`,
        from('198.51.100.7', { email: 'rider@example.com', password: DEMO_PASSWORD }),
      ),
    )
    // … but the owner at their own address is not locked out by someone else's guesses.
    const owner = await signIn('203.0.113.20', 'rider@example.com', DEMO_PASSWORD)
    expect(owner.status).toBe(303)
    expect(owner.code).toBeTruthy()
  })

  it('backs off per e-mail and address: 1 minute after 5 failures, then 2, then 4', async () => {
    // Sign-ins that succeed are not failures: 21 of them from the address (its limit is 20 failed
    // tries in 15 minutes) leave it the whole back-off below.
    for (let i = 0; i < 21; i++) {
      expect((await signIn('198.51.100.8', 'coach@example.com', DEMO_PASSWORD)).code).toBeTruthy()
    }
    const browser = new Browser()
    const { pageUrl } = await authorize(browser, settings)
    const attempt = () =>
      browser.fetch(
        `${pageUrl}/login`,
        from('198.51.100.8', { email: 'coach@example.com', password: 'not-it-at-all' }),
      )
    for (let i = 0; i < 5; i++) expect((await attempt()).status).toBe(401)
    const waits: number[] = []
    const pages: string[] = []
    for (let round = 0; round < 3; round++) {
      const refused = await attempt()
      const wait = Number(refused.headers.get('retry-after'))
      waits.push(wait)
      pages.push(/Try again in [^.]+\./.exec(await refused.text())?.[0] ?? '')
      now += wait * 1000 // the block ends: one more try is allowed, and fails
      expect((await attempt()).status).toBe(401)
    }
    expect(waits).toEqual([60, 120, 240])
    expect(pages).toEqual([
      'Try again in 1 minute.',
      'Try again in 2 minutes.',
      'Try again in 4 minutes.',
    ])
  })

  it('keeps an account open to its known address when many addresses guess at it', async () => {
    // The owner signed in from home before; then ten addresses fill the account's ceiling (50).
    expect((await signIn('192.0.2.10', 'new@example.com', DEMO_PASSWORD)).code).toBeTruthy()
    const browser = new Browser()
    const { pageUrl } = await authorize(browser, settings)
    const guesses = await Promise.all(
      Array.from({ length: 10 }, (_, a) =>
        Promise.all(
          Array.from({ length: 5 }, (_, i) =>
            browser.fetch(
              `${pageUrl}/login`,
              from(`198.51.100.${100 + a}`, { email: 'new@example.com', password: `g-${a}-${i}` }),
            ),
          ),
        ),
      ),
    )
    expect(guesses.flat().map((r) => r.status)).toEqual(Array<number>(50).fill(401))
    // A new address is refused for the rest of the hour, without a hash …
    const before = scryptDerivations()
    const stranger = await browser.fetch(
      `${pageUrl}/login`,
      from('198.51.100.200', { email: 'new@example.com', password: DEMO_PASSWORD }),
    )
    expect(scryptDerivations()).toBe(before)
    expect(Number(stranger.headers.get('retry-after'))).toBeGreaterThan(3000)
    expect(await stranger.clone().text()).toContain('Too many failed sign-ins to this account.')
    await expectTooMany(stranger)
    // … the owner at home signs in.
    expect((await signIn('192.0.2.10', 'new@example.com', DEMO_PASSWORD)).code).toBeTruthy()
  })

  it('refuses an e-mail longer than an address can be, before hashing or counting', async () => {
    // 254 characters at most (RFC 5321 paths); a longer key would not fit the limits' index.
    const browser = new Browser()
    const { pageUrl } = await authorize(browser, settings)
    const before = scryptDerivations()
    const response = await browser.fetch(
      `${pageUrl}/login`,
      from('198.51.100.10', { email: `${'a'.repeat(5000)}@example.com`, password: 'whatever' }),
    )
    expect(response.status).toBe(400)
    expect(await response.text()).toContain('is not an e-mail address.')
    expect(scryptDerivations()).toBe(before)
  })

  it('creates at most 10 accounts from 30 parallel sign-ups of one address', async () => {
    const browsers = await Promise.all(
      Array.from({ length: 30 }, async () => {
        const browser = new Browser()
        return { browser, ...(await authorize(browser, settings)) }
      }),
    )
    const emails = browsers.map((_, i) => `burst${i}@example.net`)
    const responses = await Promise.all(
      browsers.map(({ browser, pageUrl }, i) =>
        browser.fetch(
          `${pageUrl}/signup`,
          from('198.51.100.9', {
            name: `Burst ${i}`,
            email: emails[i]!,
            password: 'a-good-password',
          }),
        ),
      ),
    )
    const statuses = responses.map((r) => r.status)
    expect(statuses.filter((s) => s === 303)).toHaveLength(10)
    expect(statuses.filter((s) => s === 429)).toHaveLength(20)
    for (const r of responses.filter((r) => r.status === 429)) await expectTooMany(r)
    const created = await t.database.db
      .select({ email: idpAccounts.email })
      .from(idpAccounts)
      .where(inArray(idpAccounts.email, emails))
    expect(created).toHaveLength(10)
  })
})

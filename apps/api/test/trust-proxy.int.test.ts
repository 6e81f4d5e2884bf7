// TRUST_PROXY (several API processes behind nginx): behind a trusted balancer the
// per-address limits count the client's address from X-Forwarded-For, not the balancer's; a
// request from an untrusted peer cannot pick its address with that header.
import { describe, expect, it } from 'vitest'
import { type TestApp, suiteApp } from './helpers.ts'

/** The codes of `n` token exchanges with this X-Forwarded-For (inject connects from 127.0.0.1). */
async function exchanges(t: TestApp, n: number, forwardedFor: string) {
  const codes: string[] = []
  for (let i = 0; i < n; i++) {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/custom-token',
      headers: { 'x-forwarded-for': forwardedFor },
      payload: { accessToken: 'x.y.z' },
    })
    codes.push(response.json().code)
  }
  return codes
}

describe('TRUST_PROXY=127.0.0.1: the client address comes from the balancer', () => {
  const t = suiteApp({ TRUST_PROXY: '127.0.0.1' })

  it('limits each client behind the balancer on its own (60 a minute each)', async () => {
    const first = await exchanges(t, 61, '203.0.113.1')
    expect(first.slice(0, 60).every((c) => c === 'invalid-credential')).toBe(true)
    expect(first[60]).toBe('too-many-requests')
    // Another client through the same balancer is not blocked by the first one's requests.
    expect(await exchanges(t, 1, '203.0.113.2')).toEqual(['invalid-credential'])
  })
})

describe('TRUST_PROXY unset: X-Forwarded-For is ignored', () => {
  const t = suiteApp()

  it('counts by the connecting address whatever the header says', async () => {
    const first = await exchanges(t, 60, '203.0.113.1')
    expect(first.every((c) => c === 'invalid-credential')).toBe(true)
    expect(await exchanges(t, 1, '203.0.113.2')).toEqual(['too-many-requests'])
  })
})

import { describe, expect, it } from 'vitest'
import { loadConfig } from '../config.ts'
import { authSettings } from './settings.ts'

describe('identity settings', () => {
  it("embedded provider: the SPA reaches it at this process's IDP_PORT by default", () => {
    const s = authSettings(loadConfig({ HOST: 'localhost', IDP_PORT: '4000' }))
    expect(s.embedded).toBe(true)
    expect(s.domain).toBe('http://localhost:4000')
    expect(s.issuer).toBe('http://localhost:4000/')
  })

  it('embedded provider behind a balancer: the SPA reaches it at AUTH_ISSUER, not at one process', () => {
    // deploy/env/common.env: every API process gets the balancer's identity address.
    const s = authSettings(
      loadConfig({ HOST: 'localhost', IDP_PORT: '4010', AUTH_ISSUER: 'https://id.example.com/' }),
    )
    expect(s.embedded).toBe(true)
    expect(s.domain).toBe('https://id.example.com')
    expect(s.issuer).toBe('https://id.example.com/')
    expect(s.jwksUrl).toBe('https://id.example.com/.well-known/jwks.json')
  })

  it('external provider: AUTH_DOMAIN, its issuer defaulting to it', () => {
    const s = authSettings(loadConfig({ AUTH_DOMAIN: 'https://tenant.eu.auth0.com' }))
    expect(s.embedded).toBe(false)
    expect(s.domain).toBe('https://tenant.eu.auth0.com')
    expect(s.issuer).toBe('https://tenant.eu.auth0.com/')
  })
})

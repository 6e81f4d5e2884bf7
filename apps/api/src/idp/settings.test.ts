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

  it("trusts Vite's dev server (port 5173) only when NODE_ENV is development", () => {
    // Production is the default: only the app's own origin is a redirect address, a CORS
    // origin and a form-action of the provider.
    for (const env of [{}, { NODE_ENV: 'production' }, { NODE_ENV: 'test' }]) {
      const s = authSettings(loadConfig({ HOST: 'app.example.com', PORT: '3000', ...env }))
      expect(s.appOrigins).toEqual(['http://app.example.com:3000'])
    }
    const dev = authSettings(
      loadConfig({ HOST: 'localhost', PORT: '3000', NODE_ENV: 'development' }),
    )
    expect(dev.appOrigins).toEqual(['http://localhost:3000', 'http://localhost:5173'])
  })
})

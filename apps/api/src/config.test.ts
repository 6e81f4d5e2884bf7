import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from './config.ts'

describe('loadConfig', () => {
  it('gives the embedded defaults with an empty environment', () => {
    const c = loadConfig({})
    expect(c.PORT).toBe(3000)
    expect(c.IDP_PORT).toBe(4000)
    expect(c.DATABASE_URL).toBeUndefined()
    expect(c.publicUrl).toBe('http://localhost:3000')
    expect(c.dataDir.endsWith('/data')).toBe(true)
  })

  it('names the variable and the value when a value is wrong', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError)
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT="eighty"/)
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL="mysql:\/\/x"/)
  })

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ PORT: '' }).PORT).toBe(3000)
  })
})

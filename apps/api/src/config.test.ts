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

  it('plans, prices, currency, periods and trial: defaults, and wrong values named', () => {
    const c = loadConfig({})
    expect(c.BILLING_CURRENCY).toBe('EUR')
    expect(c.BILLING_PERIODS).toEqual(['month', 'year'])
    expect(c.PLAN_PRICE_TEAM_YEAR).toBe(70)
    expect(c.TRIAL_DAYS).toBe(14)
    const set = loadConfig({ BILLING_CURRENCY: 'gbp', BILLING_PERIODS: 'year, month,year' })
    expect(set.BILLING_CURRENCY).toBe('GBP')
    expect(set.BILLING_PERIODS).toEqual(['year', 'month'])
    expect(() => loadConfig({ BILLING_CURRENCY: 'euro' })).toThrow(/BILLING_CURRENCY="euro"/)
    expect(() => loadConfig({ BILLING_PERIODS: 'week' })).toThrow(/BILLING_PERIODS="week"/)
    expect(() => loadConfig({ PLAN_PRICE_AERO_MONTH: '4.999' })).toThrow(
      /PLAN_PRICE_AERO_MONTH="4.999": expected at most two decimals/,
    )
    expect(() => loadConfig({ PLAN_PRICE_AERO_MONTH: '-1' })).toThrow(/PLAN_PRICE_AERO_MONTH/)
    expect(() => loadConfig({ TRIAL_DAYS: '0' })).toThrow(/TRIAL_DAYS="0"/)
  })
})

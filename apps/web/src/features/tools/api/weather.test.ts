import { describe, expect, it } from 'vitest'
import { forecastWind, type CourseForecast } from './weather.ts'

// Shapes as GET /api/weather/course/:id answers them (apps/api/src/routes/weather/routes.ts).
const used: CourseForecast = {
  status: 'used',
  start: '2026-06-01T09:30',
  start_utc: '2026-06-01T07:30:00.000Z',
  issued_at: '2026-05-31T18:00:00.000Z',
  source: 'open-meteo forecast',
  stretches: [],
  mean: { wind_speed_10m_mps: 4.2, wind_speed_mps: 2.54, wind_from_deg: 210 },
}

describe('the course forecast in the wheel tool', () => {
  it('takes the 10 m mean wind and direction (the tool reduces to rider height itself)', () => {
    expect(forecastWind(used)).toEqual({
      ok: true,
      windSpeedMps: 4.2,
      windFromDeg: 210,
      issuedAt: '2026-05-31T18:00:00.000Z',
      startUtc: '2026-06-01T07:30:00.000Z',
    })
  })
  it('unavailable: the reason, so the typed wind stays', () => {
    const off: CourseForecast = {
      status: 'unavailable',
      reason: 'disabled',
      message: 'weather fetching is off (WEATHER_PROVIDER=none)',
    }
    expect(forecastWind(off)).toEqual({ ok: false, reason: off.message })
  })
  it('a forecast without a usable wind is refused', () => {
    const bad = { ...used, mean: { ...used.mean, wind_speed_10m_mps: Number.NaN } }
    expect(forecastWind(bad).ok).toBe(false)
  })
})

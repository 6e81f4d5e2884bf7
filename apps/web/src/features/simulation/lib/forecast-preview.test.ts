// The forecast in the instant preview: its wind stretches go under the typed ones (a typed
// stretch wins where it lies, the forecast fills the rest), nothing changes without a forecast,
// and the map arrows sit at the stretches' middles.
import { describe, expect, it } from 'vitest'
import { forecastArrows, withForecastWind, type CourseForecast } from './forecast-preview.ts'

const forecast: CourseForecast = {
  status: 'used',
  start: '2026-11-26T09:30',
  start_utc: '2026-11-26T09:30:00.000Z',
  issued_at: '2026-11-25T01:00:00.000Z',
  source: 'open-meteo:forecast',
  kind: 'forecast',
  wind_height_factor: 0.738,
  assumed_speed_mps: 10,
  stretches: [0, 1].map((i) => ({
    start_m: i * 4000,
    end_m: (i + 1) * 4000,
    time: `2026-11-26T09:${String(33 + 6 * i)}:20.000Z`,
    wind_speed_mps: 3 + i,
    wind_speed_10m_mps: (3 + i) / 0.738,
    wind_from_deg: 200,
    gust_mps: null,
    lat: 45 + 0.018 * (2 * i + 1),
    lon: 6,
  })),
  mean: { wind_speed_10m_mps: 4.7, wind_speed_mps: 3.5, wind_from_deg: 200 },
}

describe('withForecastWind', () => {
  it('puts the forecast under the typed stretch, which wins where it lies', () => {
    const typed = { start_m: 1000, end_m: 5000, wind_speed_mps: 5, wind_from_deg: 90 }
    const out = withForecastWind({ environment: { wind_segments: [typed] } }, forecast)
    expect(out.environment?.wind_segments).toEqual([
      { start_m: 0, end_m: 1000, wind_speed_mps: 3, wind_from_deg: 200 },
      typed,
      { start_m: 5000, end_m: 8000, wind_speed_mps: 4, wind_from_deg: 200 },
    ])
  })
  it('changes nothing without a forecast in use', () => {
    const inputs = { environment: { wind_speed_mps: 2 } }
    expect(withForecastWind(inputs, undefined)).toBe(inputs)
    expect(
      withForecastWind(inputs, {
        status: 'unavailable',
        reason: 'disabled',
        message: 'off',
        start: '2026-11-26T09:30',
      }),
    ).toBe(inputs)
  })
})

describe('forecastArrows', () => {
  it('one arrow per stretch at its middle, with its hour and wind', () => {
    expect(forecastArrows(forecast, (v) => `${v} m/s`)).toEqual([
      {
        lat: 45.018,
        lon: 6,
        fromDeg: 200,
        speedMps: 3,
        label: '0.0–4.0 km, 09:33 UTC: 3 m/s from 200°',
      },
      {
        lat: 45.054,
        lon: 6,
        fromDeg: 200,
        speedMps: 4,
        label: '4.0–8.0 km, 09:39 UTC: 4 m/s from 200°',
      },
    ])
  })
})

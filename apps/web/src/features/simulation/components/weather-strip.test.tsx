// The race-day weather card, rendered on the server (no DOM in the unit project): one arrow per
// stretch rotated to where the wind blows, the sensitivity range in h:mm:ss, and the reason when
// the weather was not used.
import type { RaceDayWeatherRecord, RaceDayWeatherUsed } from '@veloptima/contracts'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { windArrowSvg } from '../lib/wind-arrow.ts'
import { arrivalText, arrowOf, mapArrowsOf, WeatherStrip } from './weather-strip.tsx'

const segments = Array.from({ length: 10 }, (_, i) => ({
  start: i * 1000,
  end: (i + 1) * 1000,
  grade: 0.01,
  altitude: 100 + 10 * i,
}))
const stretch = (i: number, from: number) => ({
  start_m: i * 2000,
  end_m: (i + 1) * 2000,
  time: '2026-07-02T09:45:00.000Z',
  wind_speed_mps: 2 + i,
  wind_from_deg: from,
  gust_mps: 5,
  temperature_c: 18,
  air_density_kg_m3: 1.2,
})
const used: RaceDayWeatherRecord = {
  status: 'used',
  source: 'open-meteo:forecast',
  kind: 'forecast',
  issued_at: '2026-07-01T06:00:00.000Z',
  start_utc: '2026-07-02T09:30:00.000Z',
  sensitivity: {
    wind_delta_mps: 2,
    direction_delta_deg: 30,
    base_s: 3725,
    min_s: 3600,
    max_s: 3905,
  },
  manual_wind_segments: 1,
  strip: [0, 1, 2, 3, 4].map((i) => stretch(i, [0, 90, 180, 270, 350][i]!)),
}

describe('WeatherStrip', () => {
  it('draws one arrow per stretch, pointing downwind, and the time range', () => {
    const html = renderToStaticMarkup(<WeatherStrip weather={used} segments={segments} />)
    expect(html.match(/data-wind-arrow/g)).toHaveLength(5)
    // A wind from the north (0°) blows south: rotated 180°; from 270° (west) blows east: 90°.
    expect(html).toContain('translate(100.0 20) rotate(180)')
    expect(html).toContain('translate(700.0 20) rotate(90)')
    expect(html).toContain('translate(900.0 20) rotate(170)')
    // 3600 s = 1:00:00, 3905 s = 1:05:05 (a plain count of seconds).
    expect(html).toMatch(/1:00:00 – 1:05:05/)
    expect(html).toContain('fetched 2026-07-01 06:00 UTC')
    expect(html).toContain('1 typed wind stretch kept')
    expect(arrowOf(used.strip[0]!, 10_000, 1000)).toEqual({ x: 100, rotateDeg: 180 })
  })
  it('says why the weather was not used', () => {
    const html = renderToStaticMarkup(
      <WeatherStrip
        weather={{
          status: 'unavailable',
          reason: 'offline',
          message: 'fetch failed: getaddrinfo ENOTFOUND api.open-meteo.com',
        }}
        segments={segments}
      />,
    )
    // A sentence for people; the system's own words only behind "Details".
    expect(html).toContain(
      '<p>Weather not used: the weather service could not be reached. The typed wind and air were used.</p>',
    )
    expect(html).toMatch(
      /<details[^>]*><summary[^>]*>Details<\/summary><p[^>]*>fetch failed: getaddrinfo ENOTFOUND api.open-meteo.com<\/p><\/details>/,
    )
    expect(html).not.toContain('data-wind-arrow')
  })

  it('names whose time the range is and how the arrival times were found', () => {
    const planned: RaceDayWeatherRecord = {
      ...(used as RaceDayWeatherUsed),
      sensitivity: { ...(used as { sensitivity: object }).sensitivity, of: 'plan' } as never,
      arrival: {
        first_guess: { power_w: 252, iterations: 3, converged: true, time_s: 2707 },
        rounds: [
          { arrivals: 'first-guess', time_s: 2437.1, max_shift_s: 267.3 },
          { arrivals: 'plan', time_s: 2436.8, max_shift_s: 4.9 },
        ],
        converged: true,
      },
    }
    const html = renderToStaticMarkup(<WeatherStrip weather={planned} segments={segments} />)
    expect(html).toContain('Time of the plan with wind ± 2')
    expect(html).toContain(
      'Conditions read where the plan puts the rider: 2 optimizations, the last plan&#x27;s arrival times within 5 s of those it was optimized with.',
    )
    expect(
      arrivalText({
        first_guess: { power_w: 252, iterations: 3, converged: true, time_s: 2707 },
        rounds: [],
      }),
    ).toBe('Conditions read at the times of a steady 252 W ride.')
    expect(
      arrivalText({
        rounds: [{ arrivals: 'first-guess', time_s: 100, max_shift_s: 300 }],
        converged: false,
        stopped_by: 'forecast: expected hours covering …',
      }),
    ).toContain('still moved 300 s in the last round (forecast: expected hours covering …)')
    // The map is the page's (a slot): drawn below the strip when given.
    expect(html).not.toContain('data-testid="weather-map"')
    const withMap = renderToStaticMarkup(
      <WeatherStrip
        weather={planned}
        segments={segments}
        map={<div data-testid="weather-map" />}
      />,
    )
    expect(withMap).toContain('data-testid="weather-map"')
  })
  it('map arrows: one per forecast point with a wind, rotated downwind by an SVG attribute', () => {
    const arrows = mapArrowsOf(
      [
        {
          distance_m: 0,
          lat: 45,
          lon: 6,
          time: '2026-07-02T09:30:00.000Z',
          wind_speed_mps: 3,
          wind_from_deg: 270,
        },
        { distance_m: 4000, lat: 45.04, lon: 6 }, // an older record's point: no wind
      ],
      (v) => `${v} m/s`,
    )
    expect(arrows).toEqual([
      { lat: 45, lon: 6, fromDeg: 270, speedMps: 3, label: '0.0 km, 09:30 UTC: 3 m/s from 270°' },
    ])
    const svg = windArrowSvg(arrows[0]!, 3)
    // From the west (270°) the wind blows east: rotated 90°; no inline style (the CSP).
    expect(svg).toContain('transform="rotate(90 16 16)"')
    expect(svg).not.toContain('style=')
  })
})

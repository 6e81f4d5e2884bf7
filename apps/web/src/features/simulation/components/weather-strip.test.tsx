// The race-day weather card, rendered on the server (no DOM in the unit project): one arrow per
// stretch rotated to where the wind blows, the sensitivity range in h:mm:ss, and the reason when
// the weather was not used.
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { arrowOf, WeatherStrip, type WeatherRecord } from './weather-strip.tsx'

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
const used: WeatherRecord = {
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
          message: 'weather provider unreachable',
        }}
        segments={segments}
      />,
    )
    expect(html).toContain(
      'Weather not used: weather provider unreachable. The typed wind and air were used.',
    )
    expect(html).not.toContain('data-wind-arrow')
  })
})

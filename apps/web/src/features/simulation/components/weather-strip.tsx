// Race-day weather of a result (result.weather, README "Race-day weather"): where and when the
// forecast came from, the predicted time's range for the forecast's spread, and a strip of wind
// arrows (pointing where the wind blows, north up) over the elevation profile. When the weather
// could not be used, it says why and that the typed wind and air were used.
import { formatQuantity, useUnits } from '../../../lib/units.ts'
import { formatDuration } from '../lib/format.ts'
import { ElevationChart } from './elevation-chart.tsx'
import { Card } from './ui.tsx'

export type WeatherStretch = {
  start_m: number
  end_m: number
  time: string
  wind_speed_mps: number
  wind_from_deg: number
  gust_mps: number | null
  temperature_c: number
  air_density_kg_m3: number
}

export type WeatherRecord =
  | {
      status: 'used'
      source: string
      kind: 'forecast' | 'archive'
      issued_at: string
      start_utc: string
      sensitivity: {
        wind_delta_mps: number
        direction_delta_deg: number
        base_s: number
        min_s: number
        max_s: number
      }
      manual_wind_segments: number
      strip: WeatherStretch[]
    }
  | { status: 'unavailable'; reason: string; message: string }

type Segment = { start: number; end: number; grade: number; altitude: number }

const utc = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`

/** The arrow of one stretch: centred in its share of the width, rotated to where the wind goes. */
export function arrowOf(s: WeatherStretch, totalM: number, width: number) {
  const x = ((s.start_m + s.end_m) / 2 / totalM) * width
  return { x, rotateDeg: (s.wind_from_deg + 180) % 360 }
}

export function WeatherStrip({
  weather,
  segments,
}: {
  weather: WeatherRecord
  segments: readonly Segment[]
}) {
  const { system } = useUnits()
  if (weather.status !== 'used') {
    return (
      <Card title="Race-day weather">
        <p className="text-sm" data-testid="weather-unavailable">
          Weather not used: {weather.message}. The typed wind and air were used.
        </p>
      </Card>
    )
  }
  const s = weather.sensitivity
  const total = weather.strip.at(-1)?.end_m ?? segments.at(-1)?.end ?? 1
  const width = 1000
  const maxWind = Math.max(1, ...weather.strip.map((w) => w.wind_speed_mps))
  return (
    <Card title="Race-day weather">
      <p className="text-sm">
        {weather.kind === 'archive' ? 'Recorded weather' : 'Forecast'} ({weather.source}) fetched{' '}
        {utc(weather.issued_at)}, start {utc(weather.start_utc)}
        {weather.manual_wind_segments > 0
          ? ` · ${weather.manual_wind_segments} typed wind stretch${weather.manual_wind_segments > 1 ? 'es' : ''} kept`
          : ''}
      </p>
      <p className="text-sm" data-testid="weather-range">
        Steady-ride time with wind ± {s.wind_delta_mps} m/s and direction ± {s.direction_delta_deg}
        °:{' '}
        <strong>
          {formatDuration(s.min_s)} – {formatDuration(s.max_s)}
        </strong>{' '}
        (forecast as issued: {formatDuration(s.base_s)})
      </p>
      <svg
        role="img"
        aria-label="Wind along the course (arrows point where the wind blows, north up)"
        viewBox={`0 0 ${width} 40`}
        className="mt-2 h-10 w-full"
        preserveAspectRatio="none"
      >
        {weather.strip.map((w, i) => {
          const a = arrowOf(w, total, width)
          const len = 8 + (10 * w.wind_speed_mps) / maxWind
          return (
            <g
              key={i}
              transform={`translate(${a.x.toFixed(1)} 20) rotate(${a.rotateDeg.toFixed(0)})`}
              data-wind-arrow=""
            >
              <title>
                {`${(w.start_m / 1000).toFixed(1)}–${(w.end_m / 1000).toFixed(1)} km, ${w.time.slice(11, 16)} UTC: ${formatQuantity('speed', w.wind_speed_mps, system)} from ${Math.round(w.wind_from_deg)}°${w.gust_mps !== null ? `, gusts ${formatQuantity('speed', w.gust_mps, system)}` : ''}, ${w.temperature_c.toFixed(1)} °C`}
              </title>
              <line x1="0" y1={len / 2} x2="0" y2={-len / 2} stroke="#0f172a" strokeWidth="1.5" />
              <path
                d={`M -3 ${-len / 2 + 4} L 0 ${-len / 2} L 3 ${-len / 2 + 4}`}
                fill="none"
                stroke="#0f172a"
                strokeWidth="1.5"
              />
            </g>
          )
        })}
      </svg>
      <ElevationChart segments={segments} height={140} label="Elevation under the wind strip" />
    </Card>
  )
}

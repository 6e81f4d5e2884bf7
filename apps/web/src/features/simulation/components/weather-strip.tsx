// Race-day weather of a result (result.weather, docs/engine/weather.md): where and when the
// forecast came from, how the arrival times were found (rounds of the plan), the predicted time's
// range for the forecast's spread, a strip of wind arrows (pointing where the wind blows, north
// up) over the elevation profile, and a small map with the wind at the forecast points. When the
// weather could not be used, it says why and that the typed wind and air were used.
import type { ReactNode } from 'react'
import type {
  RaceDayWeatherRecord,
  RaceDayWeatherUsed,
  WeatherPoint,
  WeatherStretch,
} from '@veloptima/contracts'
import { MessageDetails } from '../../../components/message-details.tsx'
import { formatQuantity, useUnits } from '../../../lib/units.ts'
import { formatDuration } from '../lib/format.ts'
import { ElevationChart } from './elevation-chart.tsx'
import { weatherReason } from './ride-calibration-weather.ts'
import type { MapWindArrow } from '../lib/wind-arrow.ts'
import { Card } from './ui.tsx'

type Segment = { start: number; end: number; grade: number; altitude: number }

const utc = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`

/** The arrow of one stretch: centred in its share of the width, rotated to where the wind goes. */
export function arrowOf(s: WeatherStretch, totalM: number, width: number) {
  const x = ((s.start_m + s.end_m) / 2 / totalM) * width
  return { x, rotateDeg: (s.wind_from_deg + 180) % 360 }
}

/** The forecast points with a wind, as map arrows. */
export function mapArrowsOf(
  points: readonly WeatherPoint[],
  speed: (mps: number) => string,
): MapWindArrow[] {
  return points
    .filter((p) => p.wind_speed_mps !== undefined && p.wind_from_deg !== undefined)
    .map((p) => ({
      lat: p.lat,
      lon: p.lon,
      fromDeg: p.wind_from_deg!,
      speedMps: p.wind_speed_mps!,
      label: `${(p.distance_m / 1000).toFixed(1)} km${p.time ? `, ${p.time.slice(11, 16)} UTC` : ''}: ${speed(p.wind_speed_mps!)} from ${Math.round(p.wind_from_deg!)}°`,
    }))
}

/** One line on how the arrival times were found. */
export function arrivalText(a: NonNullable<RaceDayWeatherUsed['arrival']>) {
  const rounds = a.rounds ?? []
  if (rounds.length === 0) {
    return a.first_guess
      ? `Conditions read at the times of a steady ${Math.round(a.first_guess.power_w)} W ride.`
      : null
  }
  const last = rounds.at(-1)!
  const n = rounds.length
  const head = `Conditions read where the plan puts the rider: ${n} optimization${n > 1 ? 's' : ''}`
  if (a.converged && last.max_shift_s !== null) {
    return `${head}, the last plan's arrival times within ${Math.max(1, Math.round(last.max_shift_s))} s of those it was optimized with.`
  }
  const why = a.stopped_by ? ` (${a.stopped_by})` : ''
  return `${head}; arrival times still moved ${last.max_shift_s !== null ? `${Math.round(last.max_shift_s)} s` : 'by an unknown amount'} in the last round${why}.`
}

export function WeatherStrip({
  weather,
  segments,
  map,
}: {
  weather: RaceDayWeatherRecord
  segments: readonly Segment[]
  /**
   * The small map of the course with `mapArrowsOf(weather.points)` (the page makes it: Leaflet
   * stays out of this component, which renders without a DOM).
   */
  map?: ReactNode
}) {
  const { system } = useUnits()
  if (weather.status !== 'used') {
    return (
      <Card title="Race-day weather">
        <MessageDetails
          tone="info"
          testId="weather-unavailable"
          message={`Weather not used: ${weatherReason(weather.reason)}. The typed wind and air were used.`}
          detail={weather.message}
        />
      </Card>
    )
  }
  const s = weather.sensitivity
  const total = weather.strip.at(-1)?.end_m ?? segments.at(-1)?.end ?? 1
  const width = 1000
  const maxWind = Math.max(1, ...weather.strip.map((w) => w.wind_speed_mps))
  const arrival = weather.arrival ? arrivalText(weather.arrival) : null
  return (
    <Card title="Race-day weather">
      <p className="text-sm">
        {weather.kind === 'archive' ? 'Recorded weather' : 'Forecast'} ({weather.source}) fetched{' '}
        {utc(weather.issued_at)}, start {utc(weather.start_utc)}
        {weather.manual_wind_segments > 0
          ? ` · ${weather.manual_wind_segments} typed wind stretch${weather.manual_wind_segments > 1 ? 'es' : ''} kept`
          : ''}
      </p>
      {arrival ? (
        <p className="text-sm" data-testid="weather-arrival">
          {arrival}
        </p>
      ) : null}
      <p className="text-sm" data-testid="weather-range">
        {s.of === 'plan' ? 'Time of the plan' : 'Steady-ride time'} with wind ± {s.wind_delta_mps}{' '}
        m/s and direction ± {s.direction_delta_deg}°:{' '}
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
      {map ? (
        <div className="mt-3">
          {map}
          <p className="mt-1 text-xs text-slate-500">
            Wind at rider height where and when the plan puts the rider at each forecast point.
          </p>
        </div>
      ) : null}
    </Card>
  )
}

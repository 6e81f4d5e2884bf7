// The race-day forecast in the instant preview: with an event start and a course with positions,
// the optimization page asks GET /api/weather/course/:id?start= for the forecast wind per stretch
// (at rider height, between the six forecast points, at the hours a steady 36 km/h rider is
// there) and the preview rides in it, under the wind stretches typed by hand (they win where they
// lie, as in the run). The air stays as typed: the run itself reads wind and air where and when
// the optimized plan puts the rider (docs/engine/weather.md).
import type { CourseForecast } from '@veloptima/contracts'
import { overlayWindSegments, type WindSegment } from '@veloptima/engine'
import type { OptimizationInputs, WindSegmentInput } from './engine-input.ts'
import type { MapWindArrow } from './wind-arrow.ts'

/** GET /api/weather/course/:id?start= (apps/api/src/routes/weather/routes.ts). */
export type { CourseForecast }

const camel = (w: WindSegmentInput): WindSegment => ({
  startM: w.start_m,
  endM: w.end_m,
  speedMps: w.wind_speed_mps,
  fromDeg: w.wind_from_deg,
})
const snake = (w: WindSegment): WindSegmentInput => ({
  start_m: w.startM,
  end_m: w.endM,
  wind_speed_mps: w.speedMps,
  wind_from_deg: w.fromDeg,
})

/** The inputs with the forecast's wind stretches under the typed ones (unchanged without one). */
export function withForecastWind(
  inputs: OptimizationInputs,
  forecast: CourseForecast | undefined,
): OptimizationInputs {
  if (!forecast || forecast.status !== 'used' || forecast.stretches.length === 0) return inputs
  const fromForecast = forecast.stretches.map((s) => ({
    startM: s.start_m,
    endM: s.end_m,
    speedMps: s.wind_speed_mps,
    fromDeg: s.wind_from_deg,
  }))
  const typed = (inputs.environment?.wind_segments ?? []).map(camel)
  return {
    ...inputs,
    environment: {
      ...inputs.environment,
      wind_segments: overlayWindSegments(fromForecast, typed).map(snake),
    },
  }
}

/** Map arrows at the forecast stretches' middles (the API gives their positions). */
export function forecastArrows(
  forecast: CourseForecast | undefined,
  speed: (mps: number) => string,
): MapWindArrow[] {
  if (!forecast || forecast.status !== 'used') return []
  return forecast.stretches.map((s) => ({
    lat: s.lat,
    lon: s.lon,
    fromDeg: s.wind_from_deg,
    speedMps: s.wind_speed_mps,
    label: `${(s.start_m / 1000).toFixed(1)}–${(s.end_m / 1000).toFixed(1)} km, ${s.time.slice(11, 16)} UTC: ${speed(s.wind_speed_mps)} from ${Math.round(s.wind_from_deg)}°`,
  }))
}

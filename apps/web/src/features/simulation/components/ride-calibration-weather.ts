// The historical weather of a recorded ride for its calibration (docs/engine/calibration.md): a few places along
// the ride and its hours, asked of POST /api/weather/history (Open-Meteo's archive, cached by the
// API); the answer is the engine's Forecast, or the reason there is none (the manual air is kept).
import type { Forecast, RideWeather } from '@veloptima/engine'
import { api } from '../../../lib/api-client.ts'

/** Places asked along a ride (evenly by distance; the API takes at most 12). */
export const RIDE_WEATHER_PLACES = 5
/** Longest ride (s) whose hours are asked at once (the API's limit). */
const MAX_SPAN_S = 48 * 3600

export type HistoryQuery = {
  points: { lat: number; lon: number; distance_m: number }[]
  from: string
  to: string
}

/** The places and hours to ask, or why a ride cannot be placed in the weather. */
export function rideWeatherQuery(
  track: { lat: ArrayLike<number>; lon: ArrayLike<number>; time: ArrayLike<number> },
  pointDistanceM: ArrayLike<number>,
  places = RIDE_WEATHER_PLACES,
): { ok: true; query: HistoryQuery } | { ok: false; reason: string } {
  const usable: number[] = []
  let first = Infinity
  let last = -Infinity
  for (let i = 0; i < track.time.length; i++) {
    const t = track.time[i]!
    if (Number.isFinite(t)) {
      first = Math.min(first, t)
      last = Math.max(last, t)
    }
    if (
      Number.isFinite(track.lat[i]!) &&
      Number.isFinite(track.lon[i]!) &&
      Number.isFinite(pointDistanceM[i]!)
    )
      usable.push(i)
  }
  if (usable.length < 2) return { ok: false, reason: 'the file has no GPS positions' }
  if (!(last > first)) return { ok: false, reason: 'the file has no times' }
  if (last - first > MAX_SPAN_S) return { ok: false, reason: 'the ride lasts more than 48 hours' }
  const total = pointDistanceM[usable[usable.length - 1]!]!
  const points: HistoryQuery['points'] = []
  let k = 0
  for (let p = 0; p < places; p++) {
    const want = places === 1 ? 0 : (total * p) / (places - 1)
    while (k < usable.length - 1 && pointDistanceM[usable[k]!]! < want) k++
    const i = usable[k]!
    const d = pointDistanceM[i]!
    if (points.length > 0 && !(d > points[points.length - 1]!.distance_m)) continue
    points.push({ lat: track.lat[i]!, lon: track.lon[i]!, distance_m: d })
  }
  const iso = (s: number) => new Date(s * 1000).toISOString()
  return { ok: true, query: { points, from: iso(first), to: iso(last) } }
}

type HistoryAnswer =
  | { status: 'used'; kind: string; label: string; forecast: Forecast }
  | { status: 'unavailable'; reason: string; message: string }

/** Why the weather service gave no weather (its `reason` codes), in a user's words. */
const WEATHER_REASONS: Record<string, string> = {
  disabled: 'weather is not fetched on this server',
  offline: 'the weather service could not be reached',
  rate_limited: 'the weather service is busy; try again in a few minutes',
  provider_error: 'the weather service answered with an error',
  refused: 'the weather service refused the request',
  malformed: 'the weather service’s answer could not be read',
  not_covered: 'the weather service has no data for this place and time',
  no_position: 'the file has no GPS positions',
  no_positions: 'the course has no GPS positions',
  invalid_start: 'the start is not a valid date and time',
  not_finished: 'a steady effort does not finish this course, so there are no arrival times',
}

/** A weather service's reason code as a phrase for users (a generic one for unknown codes). */
export function weatherReason(reason: string): string {
  return WEATHER_REASONS[reason] ?? 'the weather could not be read'
}

/**
 * The ride's weather for the calibration, or the reason it has none in a user's words with the
 * service's own message as the detail.
 */
export async function fetchRideWeather(
  query: HistoryQuery,
): Promise<{ ok: true; weather: RideWeather } | { ok: false; reason: string; detail?: string }> {
  try {
    const a = await api<HistoryAnswer>('/api/weather/history', { method: 'POST', body: query })
    if (a.status !== 'used')
      return { ok: false, reason: weatherReason(a.reason), detail: a.message }
    return { ok: true, weather: { forecast: a.forecast, label: a.label } }
  } catch (e) {
    return {
      ok: false,
      reason: 'the weather service could not be reached',
      detail: e instanceof Error ? e.message : String(e),
    }
  }
}

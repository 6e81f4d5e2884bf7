import { api } from '../../../lib/api-client.ts'

/** One stretch of GET /api/weather/course/:id: wind at rider height and at 10 m, from-direction. */
export type ForecastStretch = {
  start_m: number
  end_m: number
  time: string
  wind_speed_mps: number
  wind_speed_10m_mps: number
  wind_from_deg: number
  gust_mps: number | null
}

export type CourseForecast =
  | {
      status: 'used'
      start: string
      start_utc: string
      issued_at: string
      source: string
      stretches: ForecastStretch[]
      mean: { wind_speed_10m_mps: number; wind_speed_mps: number; wind_from_deg: number }
    }
  | { status: 'unavailable'; reason: string; message: string }

/** What the wheel tool takes from a forecast: its 10 m wind and direction, or why not. */
export type ForecastWind =
  | { ok: true; windSpeedMps: number; windFromDeg: number; issuedAt: string; startUtc: string }
  | { ok: false; reason: string }

/** GET /api/weather/course/:id?start=YYYY-MM-DDTHH:mm (local time at the course). */
export async function courseForecast(
  courseId: string,
  start: string,
  signal?: AbortSignal,
): Promise<CourseForecast> {
  return api<CourseForecast>(
    `/api/weather/course/${encodeURIComponent(courseId)}?start=${encodeURIComponent(start)}`,
    signal ? { signal } : {},
  )
}

/**
 * The wheel tool's wind from the course forecast: the length-weighted mean 10 m speed and the
 * mean direction (the tool takes one wind); `ok: false` with the API's reason otherwise.
 */
export function forecastWind(f: CourseForecast): ForecastWind {
  if (f.status !== 'used') return { ok: false, reason: f.message || f.reason }
  const { wind_speed_10m_mps: speed, wind_from_deg: from } = f.mean
  if (!Number.isFinite(speed) || speed < 0 || !Number.isFinite(from)) {
    return { ok: false, reason: 'the forecast has no wind for this course' }
  }
  return {
    ok: true,
    windSpeedMps: speed,
    windFromDeg: from,
    issuedAt: f.issued_at,
    startUtc: f.start_utc,
  }
}

// Our own JSON course: {"name"?: string, "points": [{"lat", "lon", "ele_m"?, "time"?, "distance_m"?}]}
// (time: ISO 8601 or seconds since the epoch).
import { ImportError } from './errors.ts'
import { strictIsoSeconds, TrackBuilder } from './types.ts'
import type { RawTrack } from './types.ts'

export function readJsonTrack(text: string, fileName: string | null): RawTrack {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (e) {
    throw new ImportError('invalid_json', `not valid JSON (${(e as Error).message})`, fileName)
  }
  const points = (data as { points?: unknown } | null)?.points
  if (!Array.isArray(points)) {
    throw new ImportError(
      'no_track_points',
      'expected a JSON object with a "points" array, got none',
      fileName,
    )
  }
  const b = new TrackBuilder()
  points.forEach((p: unknown, i) => {
    if (!p || typeof p !== 'object') {
      throw new ImportError(
        'invalid_json',
        `points[${i}]: expected an object, got ${JSON.stringify(p)}`,
        fileName,
      )
    }
    const q = p as Record<string, unknown>
    // Absent or null is missing; anything else must be a finite number (1e999 parses to
    // Infinity; "45.1" is text, not a number).
    const val = (v: unknown, field: string): number => {
      if (v === undefined || v === null) return NaN
      if (typeof v === 'number' && Number.isFinite(v)) return v
      throw new ImportError(
        'invalid_value',
        `points[${i}].${field}: expected a number, got ${typeof v === 'number' ? String(v) : (JSON.stringify(v) ?? String(v))}`,
        fileName,
      )
    }
    const t =
      typeof q.time === 'string'
        ? strictIsoSeconds(q.time, 'time', i, fileName)
        : val(q.time, 'time')
    const ele = q.ele_m !== undefined ? val(q.ele_m, 'ele_m') : val(q.ele, 'ele')
    b.push(val(q.lat, 'lat'), val(q.lon, 'lon'), ele, t, val(q.distance_m, 'distance_m'))
  })
  const name = (data as { name?: unknown }).name
  return b.build('json', typeof name === 'string' ? name : null)
}

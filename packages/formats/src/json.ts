// Our own JSON course: {"name"?: string, "points": [{"lat", "lon", "ele_m"?, "time"?, "distance_m"?}]}
// (time: ISO 8601 or seconds since the epoch).
import { ImportError } from './errors.ts'
import { isoSeconds, TrackBuilder } from './types.ts'
import type { RawTrack } from './types.ts'

const n = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : NaN)

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
    const t = typeof q.time === 'string' ? isoSeconds(q.time) : n(q.time)
    b.push(n(q.lat), n(q.lon), n(q.ele_m ?? q.ele), t, n(q.distance_m))
  })
  const name = (data as { name?: unknown }).name
  return b.build('json', typeof name === 'string' ? name : null)
}

import type { RawPoints } from '@veloptima/engine'
import { ImportError } from './errors.ts'

export type TrackFormat = 'gpx' | 'tcx' | 'fit' | 'json'

/** Points read from a file, before course building. NaN marks a missing value. */
export interface RawTrack extends RawPoints {
  format: TrackFormat
  name: string | null
  lat: Float64Array
  lon: Float64Array
  ele: Float64Array
  /** Seconds since the Unix epoch. */
  time: Float64Array
  distance: Float64Array
  /** Crank power (W) per point when the file records it (FIT `power`, TCX/GPX `Watts`/`power`
   * extensions); absent when no point has power. */
  power?: Float64Array
}

/** Growable columns while reading. */
export class TrackBuilder {
  lat: number[] = []
  lon: number[] = []
  ele: number[] = []
  time: number[] = []
  distance: number[] = []
  power: number[] = []
  private withPower = false

  push(lat: number, lon: number, ele: number, time: number, distance: number, power = NaN): void {
    this.lat.push(lat)
    this.lon.push(lon)
    this.ele.push(ele)
    this.time.push(time)
    this.distance.push(distance)
    this.power.push(power)
    if (Number.isFinite(power)) this.withPower = true
  }

  get length(): number {
    return this.lat.length
  }

  build(format: TrackFormat, name: string | null): RawTrack {
    return {
      format,
      name,
      lat: new Float64Array(this.lat),
      lon: new Float64Array(this.lon),
      ele: new Float64Array(this.ele),
      time: new Float64Array(this.time),
      distance: new Float64Array(this.distance),
      ...(this.withPower ? { power: new Float64Array(this.power) } : {}),
    }
  }
}

/** Parses a number from text; NaN when absent or not a number. */
export function num(text: string | null | undefined): number {
  if (text === null || text === undefined) return NaN
  const t = text.trim()
  if (t === '') return NaN
  const v = Number(t)
  return Number.isFinite(v) ? v : NaN
}

export function isoSeconds(text: string | null | undefined): number {
  if (!text) return NaN
  const ms = Date.parse(text.trim())
  return Number.isFinite(ms) ? ms / 1000 : NaN
}

/**
 * A strict reader of one point's value from text: NaN when absent or empty, the parsed value when
 * it is finite, an ImportError('invalid_value') naming the point, what was expected and the text
 * otherwise.
 */
function strictPointValue(parse: (text: string) => number, expected: string) {
  return (
    text: string | null | undefined,
    field: string,
    index: number,
    fileName: string | null,
  ): number => {
    if (text === null || text === undefined || text.trim() === '') return NaN
    const v = parse(text)
    if (Number.isFinite(v)) return v
    throw new ImportError(
      'invalid_value',
      `point ${index}: ${field} expected ${expected}, got ${JSON.stringify(text.trim().slice(0, 40))}`,
      fileName,
    )
  }
}

/**
 * A point's value from text, strictly: NaN when absent or empty (missing), the number when it is
 * one, and an ImportError('invalid_value') naming the point and the text otherwise ("NaN",
 * "Infinity", "1e999", "12 m" are not elevations).
 */
export const strictNum = strictPointValue((t) => Number(t.trim()), 'a number')

/** A point's time from ISO 8601 text, strictly (see strictNum): NaN when absent or empty. */
export const strictIsoSeconds = strictPointValue(isoSeconds, 'an ISO 8601 time')

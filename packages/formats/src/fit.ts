// FIT activities (record messages) and course files through @garmin/fitsdk. A multisport file
// keeps the records of its (longest) cycling session.
import { Decoder, Stream } from '@garmin/fitsdk'
import { ImportError } from './errors.ts'
import { TrackBuilder } from './types.ts'
import type { RawTrack } from './types.ts'

/** Degrees per semicircle, FIT's unit of latitude and longitude. */
export const SEMI = 180 / 2 ** 31

/** The fields of a FIT record message that both FIT readers use. */
export interface FitRecord {
  timestamp?: Date
  positionLat?: number
  positionLong?: number
  altitude?: number
  enhancedAltitude?: number
  distance?: number
  power?: number
}
export interface FitSession {
  sport?: string
  startTime?: Date
  totalElapsedTime?: number
}

export function isFitFile(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 12 &&
    String.fromCharCode(bytes[8]!, bytes[9]!, bytes[10]!, bytes[11]!) === '.FIT'
  )
}

/**
 * The decode step both FIT readers share: the header checked, the messages read (types as
 * strings, dates as Dates, scales applied, components expanded). Bad header or undecodable:
 * ImportError 'invalid_fit' naming the file.
 */
export function decodeFit(
  bytes: Uint8Array,
  fileName: string | null,
): { messages: unknown; errors: Error[] } {
  const decoder = new Decoder(Stream.fromBuffer(bytes))
  if (!decoder.isFIT())
    throw new ImportError('invalid_fit', 'not a FIT file (bad header)', fileName)
  let result: ReturnType<Decoder['read']>
  try {
    result = decoder.read({
      convertTypesToStrings: true,
      convertDateTimesToDates: true,
      applyScaleAndOffset: true,
      expandComponents: true,
      mergeHeartRates: false,
    })
  } catch (e) {
    throw new ImportError('invalid_fit', `cannot decode FIT (${(e as Error).message})`, fileName)
  }
  return { messages: result.messages, errors: result.errors }
}

/** " (first decoder error)" to append to a message, or "". */
export function firstFitError(errors: Error[]): string {
  return errors.length ? ` (${errors[0]!.message})` : ''
}

/**
 * Multisport: the longest cycling session when the file also holds other sports (null when
 * every session, or none, is cycling: the whole file is the ride).
 */
export function longestCyclingSession<S extends FitSession>(sessions: S[]): S | null {
  const cycling = sessions.filter((s) => s.sport === 'cycling' && s.startTime && s.totalElapsedTime)
  if (cycling.length === 0 || cycling.length === sessions.length) return null
  return cycling.reduce((a, b) => (b.totalElapsedTime! > a.totalElapsedTime! ? b : a))
}

export function readFit(bytes: Uint8Array, fileName: string | null): RawTrack {
  const result = decodeFit(bytes, fileName)
  const messages = result.messages as {
    recordMesgs?: FitRecord[]
    sessionMesgs?: FitSession[]
  }
  let records = messages.recordMesgs ?? []
  if (records.length === 0) {
    const why = firstFitError(result.errors)
    throw new ImportError('no_track_points', `FIT file has no record messages${why}`, fileName)
  }
  const s = longestCyclingSession(messages.sessionMesgs ?? [])
  if (s) {
    const t0 = s.startTime!.getTime()
    const t1 = t0 + s.totalElapsedTime! * 1000
    records = records.filter(
      (r) => r.timestamp && r.timestamp.getTime() >= t0 && r.timestamp.getTime() <= t1,
    )
  }
  const b = new TrackBuilder()
  for (const r of records) {
    const lat = r.positionLat !== undefined ? r.positionLat * SEMI : NaN
    const lon = r.positionLong !== undefined ? r.positionLong * SEMI : NaN
    const alt = r.enhancedAltitude ?? r.altitude
    b.push(
      lat,
      lon,
      alt ?? NaN,
      r.timestamp ? r.timestamp.getTime() / 1000 : NaN,
      r.distance ?? NaN,
      r.power ?? NaN,
    )
  }
  return b.build('fit', null)
}

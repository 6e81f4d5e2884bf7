// FIT activities (record messages) and course files through @garmin/fitsdk. A multisport file
// keeps the records of its (longest) cycling session.
import { Decoder, Stream } from '@garmin/fitsdk'
import { ImportError } from './errors.ts'
import { TrackBuilder } from './types.ts'
import type { RawTrack } from './types.ts'

const SEMI = 180 / 2 ** 31

interface FitRecord {
  timestamp?: Date
  positionLat?: number
  positionLong?: number
  altitude?: number
  enhancedAltitude?: number
  distance?: number
  power?: number
}
interface FitSession {
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

export function readFit(bytes: Uint8Array, fileName: string | null): RawTrack {
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
  const messages = result.messages as unknown as {
    recordMesgs?: FitRecord[]
    sessionMesgs?: FitSession[]
  }
  let records = messages.recordMesgs ?? []
  if (records.length === 0) {
    const why = result.errors.length ? ` (${result.errors[0]!.message})` : ''
    throw new ImportError('no_track_points', `FIT file has no record messages${why}`, fileName)
  }
  const sessions = messages.sessionMesgs ?? []
  const cycling = sessions.filter((s) => s.sport === 'cycling' && s.startTime && s.totalElapsedTime)
  if (cycling.length > 0 && cycling.length < sessions.length) {
    const s = cycling.reduce((a, b) => (b.totalElapsedTime! > a.totalElapsedTime! ? b : a))
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

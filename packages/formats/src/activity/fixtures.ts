// Self-made activity files for the tests: a FIT with the developer fields an aero sensor writes
// (encoded by Garmin's SDK), a GoldenCheetah JSON ride and CSV tables. Each is built from known
// per-sample values so a test can compare what the reader returns with what went in.
import { Encoder, Profile } from '@garmin/fitsdk'

type Mesg = Parameters<Encoder['onMesg']>[1]
const mesg = (o: object): Mesg => o as Mesg

/** Base types of the FIT profile (fit_base_type). */
export const FIT_FLOAT32 = 136
export const FIT_UINT16 = 132
export const FIT_UINT32 = 134

export interface DevField {
  /** developer_data_index the field belongs to (one per sensor/app). */
  source: number
  number: number
  name: string
  units: string
  baseType: number
  scale?: number
  offset?: number
  /** Stored value of sample i (before any scale), or undefined to leave it out. */
  value: (i: number) => number | undefined
}

/**
 * A FIT activity of `n` 1 Hz records: speed (m/s), power and altitude by index, laps at the
 * given record indices, and developer fields from one or more sources.
 */
export function aeroSensorFit(opts: {
  n: number
  t0: Date
  speed: (i: number) => number
  /** Absent: the records carry no power field. */
  power?: (i: number) => number
  altitude?: (i: number) => number
  laps?: number[]
  fields: DevField[]
}): Uint8Array {
  const enc = new Encoder()
  const at = (i: number) => new Date(opts.t0.getTime() + i * 1000)
  enc.onMesg(
    Profile.MesgNum.FILE_ID!,
    mesg({ manufacturer: 'development', product: 0, timeCreated: opts.t0, type: 'activity' }),
  )
  const sources = [...new Set(opts.fields.map((f) => f.source))]
  const keyOf = new Map<DevField, number>()
  for (const s of sources) {
    const idMesg = {
      developerDataIndex: s,
      applicationId: Array.from({ length: 16 }, (_, k) => (k === 15 ? s + 1 : 0xa0 + k)),
      applicationVersion: 1,
    }
    enc.onMesg(Profile.MesgNum.DEVELOPER_DATA_ID!, mesg(idMesg))
    for (const f of opts.fields.filter((g) => g.source === s)) {
      const desc = {
        developerDataIndex: s,
        fieldDefinitionNumber: f.number,
        fitBaseTypeId: f.baseType,
        fieldName: f.name,
        units: f.units,
        ...(f.scale !== undefined ? { scale: f.scale } : {}),
        ...(f.offset !== undefined ? { offset: f.offset } : {}),
      }
      enc.onMesg(Profile.MesgNum.FIELD_DESCRIPTION!, mesg(desc))
      const key = keyOf.size
      keyOf.set(f, key)
      enc.addDeveloperField(key, mesg(idMesg) as never, mesg(desc) as never)
    }
  }
  const laps = [0, ...(opts.laps ?? []), opts.n]
  for (let i = 0; i < opts.n; i++) {
    const developerFields: Record<number, number> = {}
    for (const [f, key] of keyOf) {
      const v = f.value(i)
      if (v !== undefined) developerFields[key] = v
    }
    enc.onMesg(
      Profile.MesgNum.RECORD!,
      mesg({
        timestamp: at(i),
        speed: opts.speed(i),
        ...(opts.power ? { power: opts.power(i) } : {}),
        ...(opts.altitude ? { altitude: opts.altitude(i) } : {}),
        ...(Object.keys(developerFields).length ? { developerFields } : {}),
      }),
    )
    const lapEnd = laps.indexOf(i + 1)
    if (lapEnd > 0) {
      const start = laps[lapEnd - 1]!
      enc.onMesg(
        Profile.MesgNum.LAP!,
        mesg({
          timestamp: at(i),
          startTime: at(start),
          totalElapsedTime: i + 1 - start,
          totalTimerTime: i + 1 - start,
          event: 'lap',
          eventType: 'stop',
        }),
      )
    }
  }
  return enc.close()
}

export const bytesOf = (s: string): Uint8Array => new TextEncoder().encode(s)

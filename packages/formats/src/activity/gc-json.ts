// GoldenCheetah's native ride file (.json, written by GoldenCheetah's JsonRideFile):
// {"RIDE":{"STARTTIME":"2015/05/09 12:53:54 UTC","RECINTSECS":1,"DEVICETYPE":…,
//   "INTERVALS":[{"NAME","START","STOP"}],"SAMPLES":[{"SECS","KM","WATTS","KPH","ALT","LAT","LON",
//   "HEADWIND","TEMP",…}]}}. KPH in km/h, KM in km, ALT in m, TEMP in °C; HEADWIND is the air
// speed along the bike in km/h (what Aerolab uses for the drag term when present).
import { ImportError } from '../errors.ts'
import { SampleColumns } from './types.ts'
import type { RawActivity } from './types.ts'

const n = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : NaN)

/** GoldenCheetah writes "yyyy/MM/dd hh:mm:ss UTC" (also accepts ISO 8601; UTC without a zone). */
export function gcStartTime(text: unknown): number {
  if (typeof text !== 'string') return NaN
  const m = /^\s*(\d{4})\/(\d{1,2})\/(\d{1,2})[ T](\d{1,2}):(\d{2}):(\d{2})\s*(UTC)?\s*$/.exec(text)
  if (m) {
    const [, y, mo, d, h, mi, s] = m.map(Number) as number[]
    return Date.UTC(y!, mo! - 1, d!, h!, mi!, s!) / 1000
  }
  const t = text.trim()
  const ms = Date.parse(/(Z|[+-]\d{2}:?\d{2})$/i.test(t) ? t : `${t.replace(' ', 'T')}Z`)
  return Number.isFinite(ms) ? ms / 1000 : NaN
}

export function isGcJson(data: unknown): boolean {
  return !!data && typeof data === 'object' && 'RIDE' in data
}

export function readGcJson(data: unknown, fileName: string | null): RawActivity {
  const ride = (data as { RIDE?: unknown }).RIDE
  if (!ride || typeof ride !== 'object')
    throw new ImportError('not_an_activity', 'GoldenCheetah JSON without a RIDE object', fileName)
  const r = ride as Record<string, unknown>
  const samples = r.SAMPLES
  if (!Array.isArray(samples) || samples.length === 0) {
    throw new ImportError(
      'not_an_activity',
      'GoldenCheetah JSON without SAMPLES (a ride summary, not a recording)',
      fileName,
    )
  }
  const warnings: string[] = []
  const start = gcStartTime(r.STARTTIME)
  const absolute = Number.isFinite(start)
  if (!absolute)
    warnings.push(`STARTTIME ${JSON.stringify(r.STARTTIME)} not understood: times are relative`)
  const origin = absolute ? start : 0
  const cols = new SampleColumns()
  const nonZero = (v: number) => (v === 0 ? NaN : v)
  samples.forEach((s: unknown, i) => {
    if (!s || typeof s !== 'object') {
      throw new ImportError(
        'invalid_json',
        `RIDE.SAMPLES[${i}]: expected an object, got ${JSON.stringify(s)}`,
        fileName,
      )
    }
    const p = s as Record<string, unknown>
    const kph = n(p.KPH)
    const km = n(p.KM)
    const headwind = n(p.HEADWIND)
    cols.push(origin + n(p.SECS), {
      speed: kph / 3.6,
      power: n(p.WATTS),
      altitude: n(p.ALT),
      distance: km * 1000,
      // GoldenCheetah writes 0 for "no position".
      lat: nonZero(n(p.LAT)),
      lon: nonZero(n(p.LON)),
      airspeed: headwind / 3.6,
      temperature: n(p.TEMP),
    })
  })
  const laps: RawActivity['laps'] = []
  if (Array.isArray(r.INTERVALS)) {
    for (const iv of r.INTERVALS as unknown[]) {
      const o = (iv ?? {}) as Record<string, unknown>
      const a = n(o.START)
      const b = n(o.STOP)
      if (Number.isFinite(a))
        laps.push({ start: origin + a, end: Number.isFinite(b) ? origin + b : undefined })
    }
  }
  const tags = (r.TAGS ?? {}) as Record<string, unknown>
  const name = [tags.Title, tags.Route, tags.Notes].find((v) => typeof v === 'string' && v.trim())
  const device = typeof r.DEVICETYPE === 'string' ? r.DEVICETYPE.trim() : ''
  const serial = typeof tags['Device Info'] === 'string' ? tags['Device Info'].trim() : ''
  return {
    format: 'gc_json',
    name: typeof name === 'string' ? name.trim() : null,
    columns: cols,
    absolute,
    laps,
    devices:
      device && serial ? [{ serial, name: device, model: null, firmware: null, channels: [] }] : [],
    warnings,
  }
}

// What every activity reader produces (ImportedActivity) and the one place where columns read
// from a file become the engine's ActivitySamples: time sorted and deduplicated, laps turned into
// a per-sample index, and the refusal of a file the aero analysis cannot use (no power, no speed).
import { OPTIONAL_SAMPLE_CHANNELS, type ActivitySamples } from '@veloptima/engine'
import { ImportError } from '../errors.ts'

export type ActivityFormat = 'fit' | 'tcx' | 'gc_json' | 'csv' | 'ibike_csv' | 'gpx'

export interface ActivityLap {
  /** 0-based, the value of `samples.lap` inside the lap. */
  index: number
  /** Seconds on the clock of `samples.t`. */
  startT: number
  endT: number
}

export interface ActivityDevice {
  serial: string
  name: string | null
  model: string | null
  firmware: string | null
  /** Channels of ActivitySamples the device supplies ('power', 'speed', 'airspeed', …). */
  channels: string[]
}

export interface ImportedActivity {
  format: ActivityFormat
  name: string | null
  /** Epoch seconds of t = 0 (NaN when the file has no absolute time). */
  startEpochS: number
  samples: ActivitySamples
  laps: ActivityLap[]
  devices: ActivityDevice[]
  /** What the reader assumed or dropped (units inferred, duplicate timestamps, …). */
  warnings: string[]
}

export interface ReadActivityOptions {
  /** When a file carries several sensors for one channel, the serial of the one to use. */
  deviceSerial?: string
}

/** The optional channels of ActivitySamples (null when the file lacks them). */
export const OPTIONAL_CHANNELS = OPTIONAL_SAMPLE_CHANNELS
export type OptionalChannel = (typeof OPTIONAL_CHANNELS)[number]
export type Channel = 'speed' | 'power' | OptionalChannel
const CHANNELS: readonly Channel[] = ['speed', 'power', ...OPTIONAL_CHANNELS]

/** Columns accumulated while reading: one `push` per sample, NaN for a missing value. */
export class SampleColumns {
  /** Epoch seconds, or seconds from an arbitrary origin when `absolute` is false. */
  readonly time: number[] = []
  readonly values: Record<Channel, number[]> = Object.fromEntries(
    CHANNELS.map((c) => [c, [] as number[]]),
  ) as Record<Channel, number[]>

  push(time: number, row: Partial<Record<Channel, number>>): void {
    this.time.push(time)
    for (const c of CHANNELS) {
      const v = row[c]
      this.values[c].push(v === undefined || !Number.isFinite(v) ? NaN : v)
    }
  }

  get length(): number {
    return this.time.length
  }
}

export interface RawActivity {
  format: ActivityFormat
  name: string | null
  columns: SampleColumns
  /** True when `columns.time` is epoch seconds. */
  absolute: boolean
  /** Lap start times (and optional ends) on the clock of `columns.time`. */
  laps: { start: number; end?: number }[]
  devices: ActivityDevice[]
  warnings: string[]
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

/** Sorted, deduplicated samples → ActivitySamples; throws for a file without power or speed. */
export function finishActivity(raw: RawActivity, fileName: string | null): ImportedActivity {
  const { columns, warnings } = raw
  const what = `${raw.format.toUpperCase().replace('_', ' ')} file`
  if (columns.length === 0)
    throw new ImportError('not_an_activity', `the ${what} has no samples`, fileName)

  // Order by time; samples without a time cannot be placed.
  const order: number[] = []
  for (let i = 0; i < columns.length; i++) if (Number.isFinite(columns.time[i])) order.push(i)
  if (order.length === 0) {
    throw new ImportError(
      'not_an_activity',
      `the ${what} has no timestamps (a route or course, not a recorded ride)`,
      fileName,
    )
  }
  if (order.length < columns.length)
    warnings.push(`${plural(columns.length - order.length, 'sample')} without a time dropped`)
  const time = columns.time
  let sorted = true
  for (let k = 1; k < order.length && sorted; k++) sorted = time[order[k]!]! >= time[order[k - 1]!]!
  if (!sorted) {
    order.sort((a, b) => time[a]! - time[b]! || a - b)
    warnings.push('samples were out of time order: sorted by time')
  }
  // Equal times: one sample, each channel from the first row that has it.
  const groups: number[][] = []
  for (const i of order) {
    const last = groups[groups.length - 1]
    if (last && time[last[0]!] === time[i]) last.push(i)
    else groups.push([i])
  }
  if (groups.length < order.length) {
    warnings.push(
      `${plural(order.length - groups.length, 'sample')} with a repeated timestamp merged`,
    )
  }
  const n = groups.length
  const t0 = time[groups[0]![0]!]!
  const t = new Float64Array(n)
  for (let k = 0; k < n; k++) t[k] = time[groups[k]![0]!]! - t0
  const channel = (c: Channel): Float64Array | null => {
    const src = columns.values[c]
    const out = new Float64Array(n)
    let any = false
    for (let k = 0; k < n; k++) {
      let v = NaN
      for (const i of groups[k]!) {
        if (!Number.isNaN(src[i]!)) {
          v = src[i]!
          break
        }
      }
      out[k] = v
      if (!Number.isNaN(v)) any = true
    }
    return any ? out : null
  }

  const power = channel('power')
  let speed = channel('speed')
  const distance = channel('distance')
  if (!hasPositive(speed) && distance) {
    speed = speedFromDistance(t, distance)
    if (hasPositive(speed))
      warnings.push('no speed channel: speed derived from the recorded distance')
  }
  const lacksPower = !hasPositive(power)
  const lacksSpeed = !hasPositive(speed)
  if (lacksPower) {
    throw new ImportError(
      'missing_power',
      `the ${what} has no power data${lacksSpeed ? ' (and no speed)' : ''}: the aero analysis needs power (W) and speed`,
      fileName,
    )
  }
  if (lacksSpeed) {
    throw new ImportError(
      'missing_speed',
      `the ${what} has no speed or distance data: the aero analysis needs speed and power`,
      fileName,
    )
  }

  const optional = Object.fromEntries(OPTIONAL_CHANNELS.map((c) => [c, channel(c)])) as Record<
    OptionalChannel,
    Float64Array | null
  >
  if (!optional.lat || !optional.lon) optional.lat = optional.lon = null
  const { lap, laps } = lapsOf(raw.laps, t0, t)
  return {
    format: raw.format,
    name: raw.name,
    startEpochS: raw.absolute ? t0 : NaN,
    samples: {
      t,
      startEpochS: raw.absolute ? t0 : NaN,
      speed: speed!,
      power: power!,
      lap,
      ...optional,
    },
    laps,
    devices: raw.devices,
    warnings,
  }
}

function hasPositive(a: Float64Array | null): boolean {
  if (!a) return false
  for (let i = 0; i < a.length; i++) if (a[i]! > 0) return true
  return false
}

/** Central differences of the cumulative distance (one-sided at the ends). */
function speedFromDistance(t: Float64Array, d: Float64Array): Float64Array {
  const n = t.length
  const v = new Float64Array(n).fill(NaN)
  for (let i = 0; i < n; i++) {
    const a = Math.max(0, i - 1)
    const b = Math.min(n - 1, i + 1)
    const dt = t[b]! - t[a]!
    const dd = d[b]! - d[a]!
    if (dt > 0 && Number.isFinite(dd)) v[i] = Math.max(0, dd / dt)
  }
  return v
}

/**
 * Lap starts (file clock) → laps on the t clock and the per-sample lap index. Laps are taken in
 * start order; a lap starting before the first sample starts at 0, one starting after the last
 * sample is dropped, an end defaults to the next lap's start (or the last sample).
 */
function lapsOf(
  starts: RawActivity['laps'],
  t0: number,
  t: Float64Array,
): { lap: Int32Array; laps: ActivityLap[] } {
  const n = t.length
  const tEnd = t[n - 1]!
  const spans = starts
    .filter((l) => Number.isFinite(l.start))
    .map((l) => ({ start: Math.max(0, l.start - t0), end: l.end === undefined ? NaN : l.end - t0 }))
    .filter((l) => l.start <= tEnd)
    .sort((a, b) => a.start - b.start)
  const laps: ActivityLap[] = []
  for (const s of spans) {
    const prev = laps[laps.length - 1]
    if (prev && s.start <= prev.startT) continue
    if (prev && prev.endT > s.start) prev.endT = s.start
    laps.push({ index: laps.length, startT: s.start, endT: Number.isFinite(s.end) ? s.end : NaN })
  }
  for (let k = 0; k < laps.length; k++) {
    const l = laps[k]!
    const next = laps[k + 1]
    const limit = next ? next.startT : tEnd
    if (!Number.isFinite(l.endT) || l.endT > limit || l.endT < l.startT) l.endT = limit
  }
  const lap = new Int32Array(n)
  let k = 0
  for (let i = 0; i < n; i++) {
    while (k + 1 < laps.length && t[i]! >= laps[k + 1]!.startT) k++
    lap[i] = k
  }
  return { lap, laps }
}

// CSV activities (the iBike export is read in csv-ibike.ts): a generic table (`time, speed, power, altitude|elevation, distance, airspeed,
// lap, lat, lon`, any order and case, units in the header like "speed (km/h)") and the Velocomp
// iBike export (first line `iBike,<version>,english|metric`, imperial or metric units, measured
// wind speed, lap markers). Times: seconds, mm:ss(.s), hh:mm:ss(.s) or ISO 8601 date-times.
import { ImportError } from '../errors.ts'
import { SampleColumns } from './types.ts'
import type { Channel, RawActivity } from './types.ts'
import {
  angleFactor,
  densityFactor,
  distanceFactor,
  inferDensityFactor,
  inferPressureFactor,
  median,
  pressureFactor,
  speedFactor,
  temperatureTransform,
} from './units.ts'

interface Line {
  no: number
  text: string
}

/** Lines without the empty ones (\r\n, \r\r\n, \r or \n), each with its 1-based line number. */
export function csvLines(text: string): Line[] {
  const out: Line[] = []
  const raw = text.split(/\r*\n|\r/)
  raw.forEach((line, i) => {
    if (line.trim() !== '') out.push({ no: i + 1, text: line })
  })
  return out
}

/** One CSV row: separator-split with double-quoted fields ("a,b" and "" escapes). */
export function splitCsv(line: string, sep: string): string[] {
  if (!line.includes('"')) return line.split(sep).map((s) => s.trim())
  const out: string[] = []
  let cur = ''
  let quoted = false
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cur += '"'
        i++
      } else if (c === '"') quoted = false
      else cur += c
    } else if (c === '"') quoted = true
    else if (c === sep) {
      out.push(cur.trim())
      cur = ''
    } else cur += c
  }
  out.push(cur.trim())
  return out
}

/**
 * A time cell → seconds: "75.5", "01:15.5" (mm:ss.s), "1:02:03" (hh:mm:ss) or an ISO 8601 date
 * (epoch seconds, `absolute`; UTC when it names no zone). NaN when it is none of these.
 */
export function parseTime(cell: string): { s: number; absolute: boolean } {
  const c = cell.trim()
  if (/^[+-]?\d+(\.\d*)?([eE][+-]?\d+)?$|^[+-]?\.\d+$/.test(c))
    return { s: Number(c), absolute: false }
  const hms = /^(\d+):(\d{1,2}(?:\.\d*)?)$|^(\d+):(\d{1,2}):(\d{1,2}(?:\.\d*)?)$/.exec(c)
  if (hms) {
    const s =
      hms[1] !== undefined
        ? Number(hms[1]) * 60 + Number(hms[2])
        : Number(hms[3]) * 3600 + Number(hms[4]) * 60 + Number(hms[5])
    return { s, absolute: false }
  }
  if (/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(c)) {
    // Without a zone a date-time is read as UTC (not the server's local time).
    const zoned = /(Z|[+-]\d{2}:?\d{2})$/i.test(c)
    const ms = Date.parse(c.replace(' ', 'T') + (zoned ? '' : 'Z'))
    if (Number.isFinite(ms)) return { s: ms / 1000, absolute: true }
  }
  return { s: NaN, absolute: false }
}

type Role = Channel | 'time' | 'lap'

/** Header name (units removed) → what the column holds. */
const ROLES: [RegExp, Role][] = [
  [/^(time|secs?|seconds|elapsed( ?time)?|timestamp|t|date ?time|minutes|mins?)$/, 'time'],
  [/^(air ?speed|air_speed|aero ?speed|apparent ?wind|headwind)$/, 'airspeed'],
  [/^(wind ?speed|wind_speed)$/, 'windSpeed'],
  [/^(speed|kph|kmh|mph|velocity|ground ?speed|speed_?mps|speed_?kmh|speed_?kph)$/, 'speed'],
  [/^(power|watts?|pwr|power_?w)$/, 'power'],
  [/^(altitude|elevation|alt|ele|elev|altitude_?m|elevation_?m)$/, 'altitude'],
  [/^(distance|dist|km|miles|distance_?m|distance_?km)$/, 'distance'],
  [/^(lap|laps|lap ?marker|lap ?number|interval)$/, 'lap'],
  [/^(lat|latitude)$/, 'lat'],
  [/^(lon|long|lng|longitude)$/, 'lon'],
  [/^(yaw|yaw ?angle)$/, 'yaw'],
  [/^(temperature|temp|air ?temperature|air ?temp)$/, 'temperature'],
  [/^(pressure|air ?pressure|barometric ?pressure|baro)$/, 'pressure'],
  [/^(rho|air ?density|density)$/, 'airDensity'],
]

interface Column {
  index: number
  header: string
  role: Role
  units: string | null
}

/** "Speed (km/h)" → name "speed", units "km/h"; "speed_kmh" keeps its name (matched above). */
export function parseHeader(h: string): { name: string; units: string | null } {
  const m = /^(.*?)\s*[([]\s*([^)\]]*)\s*[)\]]\s*$/.exec(h)
  const name = (m ? m[1]! : h).trim().toLowerCase().replace(/\s+/g, ' ')
  return { name, units: m ? m[2]!.trim() || null : null }
}

function columnsOf(headers: string[]): Column[] {
  const cols: Column[] = []
  headers.forEach((h, index) => {
    const { name, units } = parseHeader(h)
    const role = ROLES.find(([re]) => re.test(name))?.[1]
    if (!role || cols.some((c) => c.role === role)) return
    // Names that carry their unit: "kph", "speed_mps", "km", "miles", "minutes".
    const implied = /kph|kmh/.test(name)
      ? 'km/h'
      : /mps$/.test(name)
        ? 'm/s'
        : name === 'mph'
          ? 'mph'
          : name === 'km' || /_km$/.test(name)
            ? 'km'
            : name === 'miles'
              ? 'miles'
              : /^min/.test(name)
                ? 'min'
                : /_m$/.test(name)
                  ? 'm'
                  : /_w$/.test(name)
                    ? 'W'
                    : null
    cols.push({ index, header: h.trim(), role, units: units ?? implied })
  })
  return cols
}

export function fail(fileName: string | null, message: string): never {
  throw new ImportError('invalid_csv', message, fileName)
}

/** Generic CSV → samples: the header, the cells, the time axis, then each channel in SI. */
export function readGenericCsv(text: string, fileName: string | null): RawActivity {
  const { sep, cols, body } = readHead(csvLines(text), fileName)
  const warnings: string[] = []
  const cells = readCells(body, cols, sep, fileName)
  const { values } = cells
  const byRole = new Map(cols.map((c) => [c.role, c]))
  const { time, absolute } = timeAxis(byRole.get('time'), cells, body.length, warnings)
  const conv = channelFactors(byRole, values, time, warnings)
  const tempTr = temperatureTransform(byRole.get('temperature')?.units) ?? [1, 0]
  const out = new SampleColumns()
  for (let i = 0; i < body.length; i++) {
    const row: Partial<Record<Channel, number>> = {}
    for (const [role, f] of Object.entries(conv) as [Channel, number][]) {
      const v = values.get(role)?.[i]
      if (v !== undefined) row[role] = v * f
    }
    const temp = values.get('temperature')?.[i]
    if (temp !== undefined) row.temperature = temp * tempTr[0] + tempTr[1]
    // 0, 0 is "no fix" (GoldenCheetah's CSV, iBike), not a point in the Gulf of Guinea.
    if (row.lat === 0 && row.lon === 0) row.lat = row.lon = NaN
    out.push(time[i]!, row)
  }
  return {
    format: 'csv',
    name: null,
    columns: out,
    absolute,
    laps: lapStarts(cells.lapCells, time),
    devices: [],
    warnings,
  }
}

/** The separator, the columns (with units from a second header line of units) and the data lines. */
function readHead(
  lines: Line[],
  fileName: string | null,
): { sep: string; cols: Column[]; body: Line[] } {
  if (lines.length === 0) throw new ImportError('empty_file', 'the file has no lines', fileName)
  const head = lines[0]!.text
  const sep = [',', ';', '\t'].reduce((a, b) =>
    head.split(b).length > head.split(a).length ? b : a,
  )
  const headers = splitCsv(head, sep)
  const cols = columnsOf(headers)
  if (cols.length === 0 || (cols.length === 1 && cols[0]!.role === 'time')) {
    throw new ImportError(
      'not_an_activity',
      `no activity columns in the first line (expected some of time, speed, power, altitude, distance, airspeed, lap, lat, lon; got ${JSON.stringify(head.slice(0, 80))})`,
      fileName,
    )
  }
  // A second header line of units ("s,km/h,W,m"): no cell of it is a number or a time.
  let body = lines.slice(1)
  const second = body[0] ? splitCsv(body[0].text, sep) : []
  if (
    second.some((c) => c !== '') &&
    second.every((c) => c === '' || (Number.isNaN(Number(c)) && Number.isNaN(parseTime(c).s)))
  ) {
    for (const c of cols) c.units = c.units ?? (second[c.index]?.trim() || null)
    body = body.slice(1)
  }
  return { sep, cols, body }
}

interface Cells {
  /** Each column's values by role, NaN for an empty cell. */
  values: Map<Role, number[]>
  lapCells: string[]
  /** Whether the times are date-times; null without any time cell. */
  absolute: boolean | null
}

/** Every cell read as a number or a time, refusing a cell that is neither. */
function readCells(body: Line[], cols: Column[], sep: string, fileName: string | null): Cells {
  const values = new Map<Role, number[]>()
  for (const c of cols) values.set(c.role, [])
  const lapCells: string[] = []
  let absolute: boolean | null = null
  for (const { no, text: line } of body) {
    const cells = splitCsv(line, sep)
    for (const c of cols) {
      const cell = cells[c.index] ?? ''
      if (c.role === 'lap') {
        lapCells.push(cell)
        continue
      }
      let v = NaN
      if (c.role === 'time') {
        const p = parseTime(cell)
        if (cell !== '' && Number.isNaN(p.s))
          fail(
            fileName,
            `line ${no}, column "${c.header}": expected a time (seconds, mm:ss or hh:mm:ss), got "${cell}"`,
          )
        if (cell !== '') {
          if (absolute === null) absolute = p.absolute
          else if (absolute !== p.absolute)
            fail(
              fileName,
              `line ${no}, column "${c.header}": mixes date-times and elapsed times ("${cell}")`,
            )
        }
        v = p.s
      } else if (cell !== '') {
        v = Number(cell)
        if (!Number.isFinite(v))
          fail(fileName, `line ${no}, column "${c.header}": expected a number, got "${cell}"`)
      }
      values.get(c.role)!.push(v)
    }
  }
  return { values, lapCells, absolute }
}

/** Seconds of each row (minutes, milliseconds and Unix times read as such), or one a second. */
function timeAxis(
  timeCol: Column | undefined,
  cells: Cells,
  rows: number,
  warnings: string[],
): { time: number[]; absolute: boolean } {
  let { absolute } = cells
  let time: number[]
  if (timeCol) {
    time = cells.values.get('time')!
    const scale =
      timeCol.units && /^min/.test(timeCol.units.toLowerCase())
        ? 60
        : timeCol.units && /^ms$/.test(timeCol.units.toLowerCase())
          ? 0.001
          : 1
    if (scale !== 1) time = time.map((s) => s * scale)
    // Plain numbers this large are Unix times (seconds, or milliseconds), not elapsed seconds.
    const first = time.find(Number.isFinite)
    if (absolute !== true && first !== undefined && first > 1e9) {
      if (first > 1e12) time = time.map((s) => s / 1000)
      absolute = true
    }
  } else {
    time = Array.from({ length: rows }, (_, i) => i)
    warnings.push('no time column: one sample per second assumed')
  }
  return { time, absolute: absolute === true }
}

/** Each channel's factor to SI, from its header's units or inferred from its values. */
function channelFactors(
  byRole: Map<Role, Column>,
  values: Map<Role, number[]>,
  time: number[],
  warnings: string[],
) {
  const speedF = unitOrInfer(
    'speed',
    byRole.get('speed'),
    values.get('speed'),
    warnings,
    inferSpeedFactor,
  )
  const conv = {
    speed: speedF,
    power: 1,
    altitude: distanceFactor(byRole.get('altitude')?.units) ?? 1,
    distance: unitOrInfer(
      'distance',
      byRole.get('distance'),
      values.get('distance'),
      warnings,
      (med) => inferDistanceFactor(med, time, values.get('speed'), speedF),
    ),
    airspeed: speedFactor(byRole.get('airspeed')?.units) ?? speedF,
    windSpeed: speedFactor(byRole.get('windSpeed')?.units) ?? speedF,
    lat: 1,
    lon: 1,
    yaw: angleFactor(byRole.get('yaw')?.units) ?? Math.PI / 180,
    pressure: unitOrInfer(
      'pressure',
      byRole.get('pressure'),
      values.get('pressure'),
      warnings,
      inferPressureFactor,
      pressureFactor,
    ),
    airDensity: unitOrInfer(
      'airDensity',
      byRole.get('airDensity'),
      values.get('airDensity'),
      warnings,
      inferDensityFactor,
      densityFactor,
    ),
  } satisfies Partial<Record<Channel, number>>
  for (const role of ['airspeed', 'windSpeed'] as const) {
    const c = byRole.get(role)
    if (c && !speedFactor(c.units))
      warnings.push(`${c.header}: no units in the header, read in the unit of speed`)
  }
  const alt = byRole.get('altitude')
  if (alt?.units && distanceFactor(alt.units) === null)
    warnings.push(`${alt.header}: unknown units "${alt.units}", read as metres`)
  return conv
}

/** Factor to SI from the header's units, else inferred from the values (with a warning). */
function unitOrInfer(
  what: 'speed' | 'distance' | 'pressure' | 'airDensity',
  col: Column | undefined,
  vals: number[] | undefined,
  warnings: string[],
  infer: (med: number) => number | null,
  fromUnits: (u: string | null | undefined) => number | null = what === 'speed'
    ? speedFactor
    : distanceFactor,
): number {
  if (!col || !vals) return 1
  const f = fromUnits(col.units)
  if (f !== null) return f
  const med = median(vals, (v) => v > 0)
  const g = infer(med)
  const si = { speed: 'm/s', distance: 'm', pressure: 'Pa', airDensity: 'kg/m³' }[what]
  const unit =
    g === null
      ? si
      : what === 'speed'
        ? g === 1
          ? 'm/s'
          : 'km/h'
        : what === 'distance'
          ? g === 1
            ? 'm'
            : 'km'
          : what === 'pressure'
            ? (({ 1: 'Pa', 100: 'hPa', 1000: 'kPa' } as Record<number, string>)[g] ?? si)
            : g === 1
              ? 'kg/m³'
              : 'g/m³'
  warnings.push(
    `${col.header}: ${col.units ? `unknown units "${col.units}"` : 'no units in the header'}, read as ${unit} (from the values: median ${Math.round(med * 100) / 100})`,
  )
  return g ?? 1
}

/** Moving speed: a median above 18 cannot be m/s on a bike (65 km/h), so it is km/h. */
const inferSpeedFactor = (med: number) => (med > 18 ? 1 / 3.6 : 1)

/** Distance in km or m: whichever agrees with the integrated speed (else the magnitude). */
function inferDistanceFactor(
  med: number,
  time: number[],
  speed: number[] | undefined,
  speedF: number,
): number | null {
  if (speed) {
    let travelled = 0
    for (let i = 1; i < time.length; i++) {
      const dt = time[i]! - time[i - 1]!
      const v = speed[i]! * speedF
      if (dt > 0 && dt < 30 && Number.isFinite(v)) travelled += v * dt
    }
    if (travelled > 100) {
      const ratio = (med * 2) / travelled
      return Math.abs(Math.log(ratio * 1000)) < Math.abs(Math.log(ratio)) ? 1000 : 1
    }
  }
  return med < 300 ? 1000 : 1
}

/**
 * Lap column → lap start times. A column filled on every row holds lap numbers (a new lap where
 * the value changes); a sparse one holds markers (a new lap at each non-empty, non-zero cell).
 */
function lapStarts(cells: string[], time: number[]): RawActivity['laps'] {
  if (cells.length === 0) return []
  const filled = cells.filter((c) => c !== '').length
  const starts: number[] = []
  if (filled > cells.length / 2) {
    let prev: string | null = null
    cells.forEach((c, i) => {
      if (c !== '' && c !== prev) {
        starts.push(time[i]!)
        prev = c
      }
    })
  } else {
    starts.push(time[0]!)
    cells.forEach((c, i) => {
      if (c !== '' && Number(c) !== 0 && i > 0) starts.push(time[i]!)
    })
  }
  return starts.filter(Number.isFinite).map((start) => ({ start }))
}

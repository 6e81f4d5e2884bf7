// The Velocomp iBike CSV export (first line `iBike,<version>,english|metric`, imperial or metric
// units, measured wind speed, lap markers), split from csv.ts, whose line and cell readers it uses.
import { ImportError } from '../errors.ts'
import { SampleColumns } from './types.ts'
import type { RawActivity } from './types.ts'
import { csvLines, splitCsv, parseHeader, fail } from './csv.ts'
import { FOOT, MILE, MPH } from './units.ts'

/** Velocomp iBike CSV → samples (layout as GoldenCheetah's CsvRideFile reads it). */
export function readIbikeCsv(text: string, fileName: string | null): RawActivity {
  const lines = csvLines(text)
  const first = splitCsv(lines[0]!.text, ',')
  const version = Number(first[1])
  const metric = (first[2] ?? '').toLowerCase() === 'metric'
  const warnings: string[] = []
  const headerAt = lines.findIndex((l) => /^\s*speed\s*\(/i.test(l.text))
  if (headerAt < 0) {
    throw new ImportError(
      'invalid_csv',
      'iBike file without its column header ("Speed (mph),Wind Speed (mph),Power (W),…")',
      fileName,
    )
  }
  // Line 2: the local start time (y, m, d, h, min, s); the line before the header: settings,
  // the recording interval in field 4.
  const date = splitCsv(lines[1]?.text ?? '', ',').map(Number)
  const config = headerAt >= 3 ? splitCsv(lines[headerAt - 1]!.text, ',') : []
  const interval = Number(config[4])
  const dt = Number.isFinite(interval) && interval > 0 ? interval : 1
  const start =
    date.length === 6 && date.every(Number.isFinite)
      ? Date.UTC(date[0]!, date[1]! - 1, date[2]!, date[3]!, date[4]!, date[5]!) / 1000
      : NaN
  if (Number.isFinite(start))
    warnings.push('iBike start time is local time without a zone: read as UTC')
  const headers = splitCsv(lines[headerAt]!.text, ',').map((h) => parseHeader(h).name)
  const col = (re: RegExp) => headers.findIndex((h) => re.test(h))
  const at = {
    speed: col(/^speed$/),
    wind: col(/^wind speed$/),
    power: col(/^power$/),
    distance: col(/^distance$/),
    altitude: col(/^elevation$/),
    temperature: col(/^temperature$/),
    lap: col(/^lap marker$/),
    dfpm: col(/^dfpm power$/),
    lat: col(/^latitude$/),
    lon: col(/^longitude$/),
    timestamp: col(/^timestamp$/),
  }
  const speedF = metric ? 1 / 3.6 : MPH
  const distF = metric ? 1000 : MILE
  const altF = metric ? 1 : FOOT
  const cols = new SampleColumns()
  const laps: RawActivity['laps'] = []
  let dfpmSeen = false
  let stampOrigin = NaN
  const num = (cells: string[], i: number, no: number, name: string): number => {
    if (i < 0) return NaN
    const c = cells[i] ?? ''
    if (c === '') return NaN
    const v = Number(c)
    if (!Number.isFinite(v))
      fail(fileName, `line ${no}, column "${name}": expected a number, got "${c}"`)
    return v
  }
  lines.slice(headerAt + 1).forEach(({ no, text: line }, k) => {
    const cells = splitCsv(line, ',')
    let t = k * dt
    const stamp = at.timestamp >= 0 ? (cells[at.timestamp] ?? '') : ''
    if (stamp !== '') {
      // iBike writes this column in UTC (GoldenCheetah's reader), often without the zone.
      const ms = Date.parse(
        /(Z|[+-]\d{2}:?\d{2})$/i.test(stamp) ? stamp : `${stamp.replace(' ', 'T')}Z`,
      )
      if (Number.isFinite(ms)) {
        if (Number.isNaN(stampOrigin)) stampOrigin = ms / 1000 - t
        t = ms / 1000 - stampOrigin
      }
    }
    // Version 11+: a direct-force power meter (DFPM) replaces the iBike's computed power from
    // the first sample it reads non-zero.
    const dfpm = num(cells, at.dfpm, no, 'DFPM Power')
    if (version >= 11 && dfpm > 0) dfpmSeen = true
    const power = dfpmSeen ? dfpm : num(cells, at.power, no, 'Power')
    const lat = num(cells, at.lat, no, 'Latitude')
    const lon = num(cells, at.lon, no, 'Longitude')
    const temp = num(cells, at.temperature, no, 'Temperature')
    cols.push(t, {
      speed: num(cells, at.speed, no, 'Speed') * speedF,
      windSpeed: num(cells, at.wind, no, 'Wind Speed') * speedF,
      power,
      distance: num(cells, at.distance, no, 'Distance') * distF,
      altitude: num(cells, at.altitude, no, 'Elevation') * altF,
      temperature: metric ? temp : ((temp - 32) * 5) / 9,
      // 0, 0 = no GPS fix.
      lat: lat === 0 && lon === 0 ? NaN : lat,
      lon: lat === 0 && lon === 0 ? NaN : lon,
    })
    if (num(cells, at.lap, no, 'Lap Marker') > 0 || k === 0) laps.push({ start: t })
  })
  if (!dfpmSeen) {
    warnings.push(
      'iBike power is computed by the iBike from its own wind, slope and CdA/Crr settings (no direct-force power meter in the file): drag figures from it echo those settings',
    )
  }
  const offset = Number.isFinite(start) ? start : 0
  for (let i = 0; i < cols.time.length; i++) cols.time[i] = cols.time[i]! + offset
  for (const l of laps) l.start += offset
  return {
    format: 'ibike_csv',
    name: null,
    columns: cols,
    absolute: Number.isFinite(start),
    laps,
    devices: [],
    warnings,
  }
}

// FIT activity → ActivitySamples. Record messages give time, speed, power, altitude, distance,
// position and temperature; developer fields written by aero sensors (Connect IQ apps and the
// like) give air speed, yaw, air density, air temperature and barometric pressure, matched by
// field name and converted by their declared units (or inferred by magnitude, with a warning).
// Lap messages become laps, device_info messages the device list; a multisport file keeps its
// (longest) cycling session.
import { ImportError } from '../errors.ts'
import {
  decodeFit,
  firstFitError,
  longestCyclingSession,
  SEMI,
  type FitRecord as CourseFitRecord,
  type FitSession,
} from '../fit.ts'
import { SampleColumns } from './types.ts'
import type { ActivityDevice, Channel, RawActivity, ReadActivityOptions } from './types.ts'
import {
  angleFactor,
  densityFactor,
  inferDensityFactor,
  inferPressureFactor,
  median,
  pressureFactor,
  speedFactor,
  temperatureTransform,
} from './units.ts'

type DevValue = number | number[] | string | undefined
interface FitRecord extends CourseFitRecord {
  speed?: number
  enhancedSpeed?: number
  temperature?: number
  developerFields?: Record<string, DevValue>
}
interface FitLap {
  startTime?: Date
  timestamp?: Date
  totalElapsedTime?: number
}
interface FitFieldDescription {
  developerDataIndex?: number
  fieldName?: string
  units?: string
  key?: number
  scale?: number
  offset?: number
  nativeFieldNum?: number
}
interface FitDeveloperDataId {
  developerDataIndex?: number
  applicationId?: number[]
  developerId?: number[]
  manufacturerId?: number | string
}
interface FitDeviceInfo {
  serialNumber?: number
  antDeviceNumber?: number
  manufacturer?: string | number
  product?: number
  garminProduct?: string | number
  productName?: string
  descriptor?: string
  softwareVersion?: number
  deviceIndex?: string | number
  antplusDeviceType?: string | number
  bleDeviceType?: string | number
  localDeviceType?: string | number
}
interface FitMessages {
  recordMesgs?: FitRecord[]
  lapMesgs?: FitLap[]
  sessionMesgs?: FitSession[]
  fieldDescriptionMesgs?: FitFieldDescription[]
  developerDataIdMesgs?: FitDeveloperDataId[]
  deviceInfoMesgs?: FitDeviceInfo[]
}

const epochS = (d: Date | undefined) => (d ? d.getTime() / 1000 : NaN)

/** Aero-sensor channel of a developer field, by its name (case and punctuation ignored). */
export function developerChannel(name: string, nativeFieldNum?: number): Channel | null {
  const k = name.toLowerCase().replace(/[^a-z]/g, '')
  if (/airspeed|aerospeed|apparentwind|relativewind|truewindspeed/.test(k)) return 'airspeed'
  if (/windspeed|headwind/.test(k)) return 'windSpeed'
  if (/yaw/.test(k)) return 'yaw'
  if (/density|^rho$|airrho/.test(k)) return 'airDensity'
  if (/pressure|baro/.test(k) && !/dynamic|differential|diff|tyre|tire|tyer|pitot/.test(k))
    return 'pressure'
  if (/temp/.test(k) && !/skin|core|body|tyre|tire/.test(k)) return 'temperature'
  if (nativeFieldNum === 7 || k === 'power') return 'power'
  return null
}

interface DevSource {
  index: number
  /** key → channel and conversion of each aero field this developer writes. */
  fields: Map<number, { channel: Channel; units: string | null; scale: number; offset: number }>
  serial: string
}

export function readFitActivity(
  bytes: Uint8Array,
  fileName: string | null,
  opts: ReadActivityOptions,
): RawActivity {
  const result = decodeFit(bytes, fileName)
  const m = result.messages as FitMessages
  let records = m.recordMesgs ?? []
  if (records.length === 0) {
    const why = firstFitError(result.errors)
    throw new ImportError('not_an_activity', `the FIT file has no record messages${why}`, fileName)
  }
  const warnings: string[] = []

  // Multisport: the records and laps of the (longest) cycling session.
  let window: [number, number] | null = null
  const sessions = m.sessionMesgs ?? []
  const s = longestCyclingSession(sessions)
  if (s) {
    window = [epochS(s.startTime), epochS(s.startTime) + s.totalElapsedTime!]
    const inWindow = (ts: number) => ts >= window![0] && ts <= window![1]
    records = records.filter((r) => inWindow(epochS(r.timestamp)))
    warnings.push(
      `multisport file: the cycling session (${Math.round(s.totalElapsedTime! / 60)} min) of ${sessions.length} sessions is used`,
    )
  }

  const sources = developerSources(m, records)
  const chosen = chooseSources(sources, opts, warnings)

  const cols = new SampleColumns()
  const devRaw = new Map<Channel, number[]>()
  for (const c of chosen.keys()) devRaw.set(c, [])
  for (const r of records) {
    const row: Partial<Record<Channel, number>> = {
      speed: r.enhancedSpeed ?? r.speed,
      power: r.power,
      altitude: r.enhancedAltitude ?? r.altitude,
      distance: r.distance,
      lat: r.positionLat !== undefined ? r.positionLat * SEMI : NaN,
      lon: r.positionLong !== undefined ? r.positionLong * SEMI : NaN,
      temperature: r.temperature,
    }
    for (const [channel, { field }] of chosen) {
      let v = r.developerFields?.[String(field.key)]
      if (Array.isArray(v)) v = v[0]
      const x = typeof v === 'number' ? v / field.scale - field.offset : NaN
      devRaw.get(channel)!.push(x)
    }
    cols.push(epochS(r.timestamp), row)
  }
  const groundMedian = median(cols.values.speed, (v) => v > 1)
  for (const [channel, { field, label }] of chosen) {
    const raw = devRaw.get(channel)!
    const convert = developerConversion(channel, field.units, raw, groundMedian, label, warnings)
    if (!convert) continue
    const target = cols.values[channel]
    if (channel === 'power') {
      // Developer power (a running-power pod, an app) only when the records carry none at all:
      // mixing it into a power meter's dropouts would splice two different measurements.
      if (target.some((v) => !Number.isNaN(v))) continue
      for (let i = 0; i < raw.length; i++) target[i] = raw[i]!
      warnings.push(`power from the developer field of device ${label} (no power in the records)`)
      continue
    }
    // A developer temperature is the air (the sensor's); it replaces the head unit's.
    for (let i = 0; i < raw.length; i++) if (!Number.isNaN(raw[i]!)) target[i] = convert(raw[i]!)
  }

  const laps = (m.lapMesgs ?? [])
    .map((l) => {
      const start = epochS(l.startTime)
      const end =
        l.totalElapsedTime !== undefined ? start + l.totalElapsedTime : epochS(l.timestamp)
      return { start, end }
    })
    .filter((l) => !window || (l.start >= window[0] - 1 && l.start <= window[1]))

  return {
    format: 'fit',
    name: null,
    columns: cols,
    absolute: true,
    laps,
    devices: [...nativeDevices(m.deviceInfoMesgs ?? []), ...sourceDevices(sources)],
    warnings,
  }
}

function developerSources(m: FitMessages, records: FitRecord[]): DevSource[] {
  const byIndex = new Map<number, DevSource>()
  const serialKeys = new Map<number, number>()
  for (const d of m.fieldDescriptionMesgs ?? []) {
    if (d.key === undefined || d.developerDataIndex === undefined || !d.fieldName) continue
    const name = d.fieldName.toLowerCase().replace(/[^a-z]/g, '')
    if (/serial|sensorid|deviceid|antid/.test(name)) serialKeys.set(d.developerDataIndex, d.key)
    const channel = developerChannel(d.fieldName, d.nativeFieldNum)
    if (!channel) continue
    let s = byIndex.get(d.developerDataIndex)
    if (!s) {
      s = { index: d.developerDataIndex, fields: new Map(), serial: '' }
      byIndex.set(d.developerDataIndex, s)
    }
    const scale = typeof d.scale === 'number' && d.scale !== 0 ? d.scale : 1
    const offset = typeof d.offset === 'number' ? d.offset : 0
    s.fields.set(d.key, { channel, units: d.units ?? null, scale, offset })
  }
  const ids = m.developerDataIdMesgs ?? []
  for (const s of byIndex.values()) {
    const key = serialKeys.get(s.index)
    const serial =
      key === undefined
        ? undefined
        : records.map((r) => r.developerFields?.[String(key)]).find((v) => v !== undefined)
    if (serial !== undefined) s.serial = String(Array.isArray(serial) ? serial[0] : serial)
    else {
      const id = ids.find((i) => i.developerDataIndex === s.index)
      const app = id?.applicationId ?? id?.developerId
      s.serial = app
        ? app.map((b) => b.toString(16).padStart(2, '0')).join('')
        : `developer-${s.index}`
    }
  }
  // Only the sources that wrote something.
  return [...byIndex.values()].filter((s) =>
    [...s.fields.keys()].some((k) =>
      records.some((r) => r.developerFields?.[String(k)] !== undefined),
    ),
  )
}

type Chosen = Map<
  Channel,
  { field: { key: number; units: string | null; scale: number; offset: number }; label: string }
>

/** One source per channel: the requested device's, else the first; says so when there was a choice. */
function chooseSources(
  sources: DevSource[],
  opts: ReadActivityOptions,
  warnings: string[],
): Chosen {
  const chosen: Chosen = new Map()
  const wanted = opts.deviceSerial
  if (wanted !== undefined && sources.length > 0 && !sources.some((s) => s.serial === wanted)) {
    warnings.push(
      `device ${wanted} writes no sensor fields in this file (found ${sources.map((s) => s.serial).join(', ')}): the first is used`,
    )
  }
  const ordered = [...sources].sort(
    (a, b) => Number(b.serial === wanted) - Number(a.serial === wanted),
  )
  const writers = new Map<Channel, string[]>()
  for (const s of ordered) {
    for (const [key, f] of s.fields) {
      writers.set(f.channel, [...(writers.get(f.channel) ?? []), s.serial])
      if (!chosen.has(f.channel)) chosen.set(f.channel, { field: { key, ...f }, label: s.serial })
    }
  }
  for (const [channel, serials] of writers) {
    const distinct = [...new Set(serials)]
    if (distinct.length > 1) {
      warnings.push(
        `${channel}: several sensors write it (${distinct.join(', ')}); device ${distinct[0]} is used`,
      )
    }
  }
  return chosen
}

/** Converter of a developer channel to SI, or null (the channel is dropped, with a warning). */
function developerConversion(
  channel: Channel,
  units: string | null,
  raw: number[],
  groundMedian: number,
  device: string,
  warnings: string[],
): ((v: number) => number) | null {
  const said = units ? `"${units}"` : 'no units'
  const med = median(raw)
  if (Number.isNaN(med)) return null
  switch (channel) {
    case 'airspeed':
    case 'windSpeed': {
      let f = speedFactor(units)
      if (f === null) {
        // Air speed is close to ground speed on average: km/h reads ~3.6 times larger.
        const ratio = med / groundMedian
        f = ratio > 2.5 && ratio < 5 ? 1 / 3.6 : 1
        warnings.push(
          `${channel} (device ${device}) has ${said}: read as ${f === 1 ? 'm/s' : 'km/h'} from its magnitude`,
        )
      }
      return (v) => v * f
    }
    case 'yaw': {
      let f = angleFactor(units)
      if (f === null) {
        f = Math.PI / 180
        warnings.push(`yaw (device ${device}) has ${said}: read as degrees`)
      }
      return (v) => v * f
    }
    case 'airDensity': {
      const f = densityFactor(units) ?? inferDensityFactor(med)
      if (f === null) {
        warnings.push(
          `air density (device ${device}) with ${said} and median ${med} is not a density: ignored`,
        )
        return null
      }
      return (v) => v * f
    }
    case 'pressure': {
      const f = pressureFactor(units) ?? inferPressureFactor(med)
      if (f === null) {
        warnings.push(
          `pressure (device ${device}) with ${said} and median ${med} is not a barometric pressure: ignored`,
        )
        return null
      }
      return (v) => v * f
    }
    case 'temperature': {
      const tr = temperatureTransform(units)
      if (!tr) warnings.push(`air temperature (device ${device}) has ${said}: read as °C`)
      const [a, b] = tr ?? [1, 0]
      return (v) => v * a + b
    }
    case 'power':
      return (v) => v
    default:
      return null
  }
}

const CHANNELS_BY_TYPE: Record<string, string[]> = {
  bikePower: ['power'],
  '11': ['power'],
  bikeSpeed: ['speed', 'distance'],
  '123': ['speed', 'distance'],
  bikeSpeedCadence: ['speed', 'distance'],
  '121': ['speed', 'distance'],
  barometer: ['altitude'],
  gps: ['lat', 'lon'],
  environmentSensor: ['temperature'],
  environmentSensorLegacy: ['temperature'],
  '25': ['temperature'],
}

function nativeDevices(infos: FitDeviceInfo[]): ActivityDevice[] {
  const bySerial = new Map<string, ActivityDevice>()
  for (const d of infos) {
    const id = d.serialNumber ?? d.antDeviceNumber
    if (id === undefined) continue
    const serial = String(id)
    const model =
      typeof d.garminProduct === 'string' ? d.garminProduct : d.product ? String(d.product) : null
    const maker = typeof d.manufacturer === 'string' ? d.manufacturer : null
    const name = d.productName ?? d.descriptor ?? ([maker, model].filter(Boolean).join(' ') || null)
    const type = d.antplusDeviceType ?? d.bleDeviceType ?? d.localDeviceType
    const channels = d.deviceIndex === 'creator' ? [] : (CHANNELS_BY_TYPE[String(type)] ?? [])
    const known = bySerial.get(serial)
    if (known) {
      known.name ??= name
      known.model ??= model
      known.firmware ??= d.softwareVersion !== undefined ? String(d.softwareVersion) : null
      for (const c of channels) if (!known.channels.includes(c)) known.channels.push(c)
      continue
    }
    bySerial.set(serial, {
      serial,
      name,
      model,
      firmware: d.softwareVersion !== undefined ? String(d.softwareVersion) : null,
      channels: [...channels],
    })
  }
  return [...bySerial.values()]
}

function sourceDevices(sources: DevSource[]): ActivityDevice[] {
  return sources.map((s) => ({
    serial: s.serial,
    name: null,
    model: null,
    firmware: null,
    channels: [...new Set([...s.fields.values()].map((f) => f.channel))],
  }))
}

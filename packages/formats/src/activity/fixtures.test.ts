// Self-made activity files (fixtures.ts): each is written from known per-sample values, so the
// reader's output is compared with what went in — units, times, laps, developer fields, devices.
import { describe, expect, it } from 'vitest'
import { readActivity } from '../index.ts'
import { aeroSensorFit, bytesOf, FIT_FLOAT32, FIT_UINT16, FIT_UINT32 } from './fixtures.ts'
import type { DevField } from './fixtures.ts'

const T0 = new Date('2024-05-01T10:00:00Z')

/** A developer field that writes the same value in every record. */
const constantField = (
  source: number,
  number: number,
  name: string,
  units: string,
  baseType: number,
  value: number,
): DevField => ({ source, number, name, units, baseType, value: () => value })

/** 30 s at a steady ground speed (m/s) and power (W; none in the records when absent). */
const steadyFit = (fields: DevField[], speedMps: number, powerW?: number) =>
  aeroSensorFit({
    n: 30,
    t0: T0,
    speed: () => speedMps,
    ...(powerW === undefined ? {} : { power: () => powerW }),
    fields,
  })

describe('FIT with the developer fields of an aero sensor', () => {
  const n = 120
  const speed = (i: number) => 10 + Math.sin(i / 10)
  const fields = [
    // A Connect-IQ-style sensor: air speed in km/h, yaw in degrees, density, pressure in hPa×10,
    // air temperature, and its serial number.
    {
      number: 0,
      name: 'Air Speed',
      units: 'km/h',
      baseType: FIT_FLOAT32,
      value: (i: number) => 3.6 * (speed(i) + 1.5),
    },
    {
      number: 1,
      name: 'yaw_angle',
      units: 'deg',
      baseType: FIT_FLOAT32,
      value: (i: number) => (i % 20) - 10,
    },
    { number: 2, name: 'Air Density', units: 'kg/m^3', baseType: FIT_FLOAT32, value: () => 1.19 },
    {
      number: 3,
      name: 'baro_pressure',
      units: 'hPa',
      baseType: FIT_UINT16,
      scale: 10,
      value: (i: number) => 10130 + (i % 3),
    },
    { number: 4, name: 'air_temperature', units: '°C', baseType: FIT_FLOAT32, value: () => 17.5 },
    { number: 5, name: 'sensor_serial', units: '', baseType: FIT_UINT32, value: () => 424242 },
  ].map((f) => ({ ...f, source: 0 }))
  const bytes = aeroSensorFit({
    n,
    t0: T0,
    speed,
    power: (i) => 240 + (i % 7),
    altitude: (i) => 50 + i * 0.01,
    laps: [40, 80],
    fields,
  })

  it('every channel in SI units, developer scale applied (hPa×10 → Pa), laps from lap messages', () => {
    const a = readActivity(bytes, 'aerosensor.fit')
    const s = a.samples
    expect(s.t.length).toBe(n)
    expect(a.startEpochS).toBe(T0.getTime() / 1000)
    for (const i of [0, 17, 63, 119]) {
      expect(s.speed[i]).toBeCloseTo(speed(i), 3) // FIT speed is stored in mm/s
      expect(s.airspeed![i]).toBeCloseTo(speed(i) + 1.5, 5)
      expect(s.yaw![i]).toBeCloseTo((((i % 20) - 10) * Math.PI) / 180, 6)
      expect(s.airDensity![i]).toBeCloseTo(1.19, 6)
      expect(s.pressure![i]).toBeCloseTo((10130 + (i % 3)) * 10, 6)
      expect(s.temperature![i]).toBeCloseTo(17.5, 6)
      expect(s.power[i]).toBe(240 + (i % 7))
    }
    expect(a.laps.map((l) => [l.startT, l.endT])).toEqual([
      [0, 40],
      [40, 80],
      [80, 119],
    ])
    expect(s.lap[39]).toBe(0)
    expect(s.lap[40]).toBe(1)
    expect(s.lap[119]).toBe(2)
    expect(a.devices).toContainEqual({
      serial: '424242',
      name: null,
      model: null,
      firmware: null,
      channels: ['airspeed', 'yaw', 'airDensity', 'pressure', 'temperature'],
    })
    expect(a.warnings).toEqual([])
  })

  it('two sensors writing air speed: the first by default, the chosen serial on request', () => {
    const two = steadyFit(
      [
        constantField(0, 0, 'airspeed', 'm/s', FIT_FLOAT32, 11),
        constantField(0, 1, 'serial', '', FIT_UINT32, 1001),
        constantField(1, 0, 'AirSpeed', 'm/s', FIT_FLOAT32, 12),
        constantField(1, 1, 'Serial', '', FIT_UINT32, 2002),
      ],
      10,
      250,
    )
    const first = readActivity(two, 'two.fit')
    expect(first.samples.airspeed![5]).toBe(11)
    expect(first.devices.map((d) => d.serial)).toEqual(['1001', '2002'])
    expect(first.warnings.join(' ')).toMatch(/airspeed: several sensors write it \(1001, 2002\)/)
    const second = readActivity(two, 'two.fit', { deviceSerial: '2002' })
    expect(second.samples.airspeed![5]).toBe(12)
    const unknown = readActivity(two, 'two.fit', { deviceSerial: '9' })
    expect(unknown.samples.airspeed![5]).toBe(11)
    expect(unknown.warnings.join(' ')).toMatch(/device 9 writes no sensor fields/)
  })

  it('power from a developer field only when the records have none', () => {
    const field = constantField(0, 0, 'Power', 'Watts', FIT_UINT16, 180)
    const podOnly = steadyFit([field], 9)
    const a = readActivity(podOnly, 'pod.fit')
    expect(a.samples.power[10]).toBe(180)
    expect(a.warnings.join(' ')).toMatch(/power from the developer field/)
    const both = steadyFit([field], 9, 250)
    expect(readActivity(both, 'both.fit').samples.power[10]).toBe(250)
  })

  it('air speed without units is read by its magnitude against the ground speed (and said)', () => {
    const kmh = steadyFit([constantField(0, 0, 'air_speed', '', FIT_FLOAT32, 39.6)], 10, 250)
    const a = readActivity(kmh, 'kmh.fit')
    expect(a.samples.airspeed![0]).toBeCloseTo(11, 5) // float32
    expect(a.warnings.join(' ')).toMatch(/airspeed .* no units: read as km\/h from its magnitude/)
  })
})

describe('GoldenCheetah JSON (RIDE: STARTTIME, SAMPLES in km/h and km, INTERVALS)', () => {
  const samples = Array.from({ length: 90 }, (_, i) => ({
    SECS: i,
    KM: (i * 9) / 1000,
    WATTS: 200 + (i % 5),
    KPH: 32.4,
    ALT: 100 + i * 0.05,
    LAT: 45 + i * 1e-5,
    LON: 5,
    HEADWIND: 36,
    TEMP: 21,
  }))
  const ride = {
    RIDE: {
      STARTTIME: '2015/05/09 12:53:54 UTC',
      RECINTSECS: 1,
      DEVICETYPE: 'Garmin FIT',
      IDENTIFIER: '',
      TAGS: { Notes: 'helmet A, lap 2 = helmet B', 'Device Info': '3889468484' },
      INTERVALS: [
        { NAME: 'Lap 1', START: 0, STOP: 44 },
        { NAME: 'Lap 2', START: 45, STOP: 89 },
      ],
      SAMPLES: samples,
    },
  }

  it('start time, SI units (km/h → m/s, km → m), HEADWIND as air speed, two laps', () => {
    const a = readActivity(bytesOf(JSON.stringify(ride)), 'ride.json')
    expect(a.format).toBe('gc_json')
    expect(a.startEpochS).toBe(Date.UTC(2015, 4, 9, 12, 53, 54) / 1000)
    const s = a.samples
    expect(s.t.length).toBe(90)
    expect(s.speed[10]).toBeCloseTo(9, 12)
    expect(s.distance![89]).toBeCloseTo(801, 9)
    expect(s.airspeed![0]).toBeCloseTo(10, 12)
    expect(s.power[3]).toBe(203)
    expect(s.altitude![20]).toBeCloseTo(101, 12)
    expect(s.lat![0]).toBe(45)
    expect(a.laps).toEqual([
      { index: 0, startT: 0, endT: 44 },
      { index: 1, startT: 45, endT: 89 },
    ])
    expect(s.lap[44]).toBe(0)
    expect(s.lap[45]).toBe(1)
    expect(a.name).toBe('helmet A, lap 2 = helmet B')
    expect(a.devices).toEqual([
      { serial: '3889468484', name: 'Garmin FIT', model: null, firmware: null, channels: [] },
    ])
  })
  it('a GoldenCheetah ride without WATTS → missing_power', () => {
    const noPower = {
      RIDE: { ...ride.RIDE, SAMPLES: samples.map(({ WATTS: _w, ...rest }) => rest) },
    }
    expect(() => readActivity(bytesOf(JSON.stringify(noPower)), 'nopower.json')).toThrow(
      /^nopower\.json: the GC JSON file has no power data/,
    )
  })
})

describe('generic CSV', () => {
  it('m/s with hh:mm:ss times, distance in km, lap numbers, semicolons and quotes', () => {
    const rows = ['"Time";"Speed (m/s)";"Power (W)";"Elevation (m)";"Distance (km)";"Lap"']
    for (let i = 0; i < 3700; i += 2) {
      const hh = String(Math.floor(i / 3600)).padStart(2, '0')
      const mm = String(Math.floor((i % 3600) / 60)).padStart(2, '0')
      const ss = String(i % 60).padStart(2, '0')
      rows.push(
        `${hh}:${mm}:${ss};9.5;${250 + (i % 10)};${12 + i / 1000};${(i * 9.5) / 1000};${i < 1800 ? 1 : 2}`,
      )
    }
    const a = readActivity(bytesOf(rows.join('\n')), 'test.csv')
    expect(a.format).toBe('csv')
    const s = a.samples
    expect(s.t.length).toBe(1850)
    expect(s.t[1849]).toBe(3698)
    expect(s.speed[100]).toBe(9.5)
    expect(s.distance![1000]).toBeCloseTo(2000 * 9.5, 9)
    expect(s.altitude![1000]).toBeCloseTo(14, 12)
    expect(a.laps).toEqual([
      { index: 0, startT: 0, endT: 1800 },
      { index: 1, startT: 1800, endT: 3698 },
    ])
    expect(Number.isNaN(a.startEpochS)).toBe(true)
    expect(a.warnings).toEqual([])
  })

  it('unitless speed in m/s is recognised by its magnitude; sparse lap markers; out of order rows', () => {
    const lines = ['time,speed,power,lap,airspeed']
    for (let i = 0; i < 60; i++) lines.push(`${i},${8 + (i % 3)},${200},${i === 30 ? 1 : ''},${9}`)
    // Rows 10 and 11 swapped, row 20 repeated: the reader sorts and merges.
    ;[lines[11], lines[12]] = [lines[12]!, lines[11]!]
    lines.push(lines[21]!)
    const a = readActivity(bytesOf(lines.join('\r\n')), 'unitless.csv')
    const s = a.samples
    expect(s.t.length).toBe(60)
    expect(s.t[10]).toBe(10)
    expect(s.speed[10]).toBe(8 + (10 % 3))
    expect(s.airspeed![0]).toBe(9)
    expect(a.laps.map((l) => l.startT)).toEqual([0, 30])
    expect(a.warnings.join(' | ')).toMatch(/speed: no units in the header, read as m\/s/)
    expect(a.warnings.join(' | ')).toMatch(/sorted by time/)
    expect(a.warnings.join(' | ')).toMatch(/1 sample with a repeated timestamp merged/)
  })

  it('a second header line of units; Unix times in milliseconds give the absolute start', () => {
    const lines = ['timestamp,speed,power,altitude', 'ms,km/h,W,ft']
    for (let i = 0; i < 20; i++) lines.push(`${T0.getTime() + i * 1000},36,250,${100 + i}`)
    const a = readActivity(bytesOf(lines.join('\n')), 'units-row.csv')
    expect(a.samples.t.length).toBe(20)
    expect(a.startEpochS).toBe(T0.getTime() / 1000)
    expect(a.samples.t[19]).toBe(19)
    expect(a.samples.speed[0]).toBeCloseTo(10, 12)
    expect(a.samples.altitude![1]).toBeCloseTo(101 * 0.3048, 12)
    expect(a.warnings).toEqual([])
  })

  it('GoldenCheetah CSV export: secs, km, kph, watts, alt, headwind (km/h), interval, no GPS', () => {
    const lines = [
      'secs, cad, hr, km, kph, nm, watts, alt, lon, lat, headwind, slope, temp, interval',
    ]
    for (let i = 0; i < 40; i++)
      lines.push(
        `${i}, 90, 140, ${(i * 10) / 1000}, 36, 0, 220, 12, 0, 0, 39.6, 0, 18, ${i < 20 ? 0 : 1}`,
      )
    const a = readActivity(bytesOf(lines.join('\n')), 'gc.csv')
    const s = a.samples
    expect(s.speed[5]).toBeCloseTo(10, 12)
    expect(s.distance![39]).toBeCloseTo(390, 9)
    expect(s.airspeed![5]).toBeCloseTo(11, 12)
    expect(s.temperature![0]).toBe(18)
    expect(s.lat).toBeNull()
    expect(a.laps.map((l) => l.startT)).toEqual([0, 20])
  })

  it('date-times without a zone are UTC, whatever the machine zone', () => {
    const lines = ['time,speed,power']
    for (let i = 0; i < 5; i++) lines.push(`2024-05-01 10:00:0${i},30,200`)
    const zone = process.env.TZ
    process.env.TZ = 'America/New_York' // Node applies a changed TZ at once
    try {
      expect(readActivity(bytesOf(lines.join('\n')), 'local.csv').startEpochS).toBe(
        T0.getTime() / 1000,
      )
    } finally {
      if (zone === undefined) delete process.env.TZ
      else process.env.TZ = zone
    }
  })

  it('mph and miles from the header; ISO date-times give the absolute start', () => {
    const lines = ['timestamp,speed (mph),power (watts),distance (miles)']
    for (let i = 0; i < 20; i++)
      lines.push(`2024-05-01T10:00:${String(i).padStart(2, '0')}Z,20,210,${i * 0.0055}`)
    const a = readActivity(bytesOf(lines.join('\n')), 'imperial.csv')
    expect(a.startEpochS).toBe(T0.getTime() / 1000)
    expect(a.samples.speed[0]).toBeCloseTo(8.9408, 9)
    expect(a.samples.distance![10]).toBeCloseTo(0.055 * 1609.344, 9)
  })
})

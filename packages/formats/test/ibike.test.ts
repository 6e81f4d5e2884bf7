// The Velocomp iBike CSV reader on a self-made export (the layout GoldenCheetah's CsvRideFile
// reads: `iBike,11,english`, the local start, a settings line whose fifth field is the recording
// interval, then the column header), written from known per-second values in imperial units:
// the reader returns them in SI units, with the laps at the markers and the wind the unit measured.
import { describe, expect, it } from 'vitest'
import { readActivity } from '../src/index.ts'

const MPH = 0.44704
const MILE = 1609.344
const FOOT = 0.3048

/** n rows at `interval` s: speed, wind, power, distance, elevation, temperature; laps at 0 and 40. */
function ibike(n: number, interval: number, units: 'english' | 'metric' = 'english'): string {
  const rows = [
    `iBike,11,${units}`,
    '2024,5,1,8,30,0',
    '',
    `220.000000,626.895141,0.167400,7.891000,${interval.toFixed(6)},28.000000,992.153333`,
    'Speed (mph),Wind Speed (mph),Power (W),Distance (miles),Cadence (RPM),Heartrate (BPM),Elevation (feet),Hill slope (%),Temperature (degF),Lap Marker,Annotation,DFPM Power,Latitude,Longitude,Timestamp',
  ]
  for (let i = 0; i < n; i++) {
    const speed = 20 + (i % 7) * 0.5
    rows.push(
      [
        speed.toFixed(1),
        (5 + (i % 3)).toFixed(1),
        (200 + (i % 11) * 3).toFixed(1),
        ((i * interval * 20) / 3600).toFixed(4),
        90,
        140,
        (300 + i * 0.5).toFixed(1),
        0.5,
        68,
        i === 0 || i === 40 ? 1 : 0,
        '',
        0,
        0,
        0,
        '',
      ].join(','),
    )
  }
  return rows.join('\r\n') + '\r\n'
}

const mean = (a: ArrayLike<number>) => Array.from(a).reduce((s, x) => s + x, 0) / a.length

describe('iBike CSV (self-made, imperial)', () => {
  const n = 90
  const a = readActivity(new TextEncoder().encode(ibike(n, 1)), 'ibike.csv')
  const s = a.samples

  it('every row a sample at the recording interval, from the stated start', () => {
    expect(a.format).toBe('ibike_csv')
    expect(s.t.length).toBe(n)
    expect(s.t[n - 1]).toBe(n - 1)
    expect(a.startEpochS).toBe(Date.UTC(2024, 4, 1, 8, 30, 0) / 1000)
  })

  it('mph, miles, feet and °F in SI units; the measured wind; no GPS at 0,0', () => {
    const speeds = Array.from({ length: n }, (_, i) => (20 + (i % 7) * 0.5) * MPH)
    expect(mean(s.speed)).toBeCloseTo(mean(speeds), 9)
    expect(mean(s.power)).toBeCloseTo(
      mean(Array.from({ length: n }, (_, i) => 200 + (i % 11) * 3)),
      9,
    )
    expect(mean(s.windSpeed!)).toBeCloseTo(
      mean(Array.from({ length: n }, (_, i) => (5 + (i % 3)) * MPH)),
      9,
    )
    expect(s.distance![n - 1]).toBeCloseTo(Number((((n - 1) * 20) / 3600).toFixed(4)) * MILE, 6)
    expect(s.altitude![10]).toBeCloseTo(305 * FOOT, 9)
    expect(s.temperature![0]).toBeCloseTo(20, 9)
    expect(s.lat).toBeNull()
  })

  it('a lap at each marker', () => {
    expect(a.laps.length).toBe(2)
    expect(s.lap[39]).toBe(0)
    expect(s.lap[40]).toBe(1)
  })

  it('a 2 s recording interval spaces the samples 2 s apart', () => {
    const b = readActivity(new TextEncoder().encode(ibike(30, 2)), 'ibike2.csv')
    expect(b.samples.t[29]).toBe(58)
  })
})

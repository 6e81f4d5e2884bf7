import { describe, expect, it } from 'vitest'
import {
  densitySeries,
  headingSeries,
  localPositions,
  positionAveragedElevation,
  prepareVe,
} from './series.ts'
import { syntheticRide } from './synthetic-ride.ts'

const base = () => syntheticRide({ cda: 0.25, crr: 0.004, massKg: 80, laps: 1, seed: 1 }).samples

describe('prepareVe', () => {
  it('air density from the environment: 22 °C, 750 mmHg, 50 % → 1.17433 kg/m³ (rouleur docstring, docs/engine/science.md §10 #9)', () => {
    const s = base()
    const { rho, source } = densitySeries(s, {
      environment: { temperatureC: 22, pressurePa: 750 * 133.322, humidity: 0.5 },
    })
    expect(source).toBe('environment')
    expect(rho[0]).toBeCloseTo(1.17433, 4)
  })

  it('air density from the channels in order: sensor, temperature + pressure, altitude (ISA: 1000 m → 1.111)', () => {
    const s = base()
    const n = s.t.length
    expect(densitySeries({ ...s, airDensity: new Float64Array(n).fill(1.15) }, {})).toMatchObject({
      source: 'sensor',
    })
    const tp = densitySeries(
      {
        ...s,
        temperature: new Float64Array(n).fill(15),
        pressure: new Float64Array(n).fill(101325),
      },
      {},
    )
    expect(tp.source).toBe('temperature_pressure')
    expect(tp.rho[5]).toBeCloseTo(1.225, 3)
    const alt = densitySeries({ ...s, altitude: new Float64Array(n).fill(1000) }, {})
    expect(alt.source).toBe('altitude')
    expect(Math.abs(alt.rho[5]! / 1.111 - 1)).toBeLessThan(0.001)
    expect(densitySeries({ ...s, altitude: null }, {}).source).toBe('default')
    expect(densitySeries(s, { airDensity: 1.2 }).rho[7]).toBe(1.2)
  })

  it('headings from GPS positions: a clockwise circle turns through every compass direction', () => {
    const s = base()
    const h = headingSeries(localPositions(s), s.t.length)
    const known = Array.from(h).filter(Number.isFinite)
    expect(known.length).toBe(s.t.length)
    const quadrants = new Set(
      known.map((x) =>
        Math.floor((((x % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI)) / (Math.PI / 2)),
      ),
    )
    expect(quadrants.size).toBe(4)
  })

  it('marks stopped, NaN and gap samples unusable, and scales air speed by √cal', () => {
    const s = base()
    s.speed[10] = 0.2
    s.power[20] = NaN
    const t = Float64Array.from(s.t)
    for (let i = 30; i < t.length; i++) t[i]! += 10
    const airspeed = new Float64Array(t.length).fill(10)
    const v = prepareVe({ ...s, t, airspeed }, { useAirspeed: true, calibrationFactor: 1.44 })
    expect(v.valid[10]).toBe(0)
    expect(v.valid[20]).toBe(0)
    expect(v.valid[30]).toBe(0)
    expect(v.valid[31]).toBe(1)
    expect(v.airspeed![0]).toBeCloseTo(12, 12)
  })
})

describe('positionAveragedElevation', () => {
  // Four passes (out, back, out, back) over a straight 600 m road due north climbing 1 %, at
  // 10 m/s, with an altitude channel drifting 2 cm/s (4.8 m over the ride): averaged by position,
  // every pass sees the same profile, and its slope is the road's.
  const n = 240
  const road = (y: number) => 0.01 * y
  const y = Float64Array.from({ length: n }, (_, i) => {
    const leg = Math.floor(i / 60)
    const k = (i % 60) * 10
    return leg % 2 === 0 ? k : 600 - k
  })
  const s = {
    ...base(),
    t: Float64Array.from({ length: n }, (_, i) => i),
    speed: new Float64Array(n).fill(10),
    power: new Float64Array(n).fill(200),
    lap: new Int32Array(n),
    distance: null,
    lat: Float64Array.from(y, (v) => 45 + v / 111_132),
    lon: new Float64Array(n).fill(7),
    altitude: Float64Array.from(y, (v, i) => 100 + road(v) + 0.02 * i),
    airspeed: null,
    temperature: null,
    pressure: null,
    airDensity: null,
  }

  it('gives every pass through a spot the same elevation and keeps the road’s 1 % slope', () => {
    const r = positionAveragedElevation(s, 20)!
    expect(r.revisited).toBe(1)
    // Sample 15 (150 m, first pass) and sample 105 (150 m on the way back): 4.8 m of drift apart
    // in the channel, equal after averaging.
    expect(y[15]).toBe(150)
    expect(y[105]).toBe(150)
    expect(Math.abs(s.altitude[105]! - s.altitude[15]!)).toBeGreaterThan(1.7)
    expect(r.elevation[105]).toBe(r.elevation[15])
    // Slope between 100 m and 500 m (cells centred on the samples): 4 m over 400 m.
    expect(r.elevation[50]! - r.elevation[10]!).toBeCloseTo(4, 1)
    // prepareVe uses it only when asked.
    expect(prepareVe(s, { elevationCellM: 20 }).elevation![105]).toBe(r.elevation[105])
    expect(prepareVe(s, {}).elevation![105]).toBe(s.altitude[105])
  })

  it('a ride that never comes back: nothing revisited; no GPS: null', () => {
    const once = { ...s, lat: s.lat.map((_, i) => 45 + (i * 10) / 111_132) }
    expect(positionAveragedElevation(once, 20)!.revisited).toBe(0)
    expect(positionAveragedElevation({ ...s, lat: null, lon: null }, 20)).toBeNull()
  })
})

import { describe, expect, it } from 'vitest'
import { densitySeries, headingSeries, localPositions, prepareVe } from './series.ts'
import { syntheticRide } from './synthetic-ride.ts'

const base = () => syntheticRide({ cda: 0.25, crr: 0.004, massKg: 80, laps: 1, seed: 1 }).samples

describe('prepareVe', () => {
  it('air density from the environment: 22 °C, 750 mmHg, 50 % → 1.17433 kg/m³ (rouleur docstring, science.md §10 #9)', () => {
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

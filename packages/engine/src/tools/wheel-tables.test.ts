import { describe, expect, it } from 'vitest'
import {
  dragAreaFromForce,
  FRONT_WHEELS,
  gramsToNewtons,
  interpolateYawTable,
  pairDeltaCda,
  powerFromDragForce,
  REAR_WHEELS,
  sideForceArea,
  WHEELS,
  windAveragedCda,
} from './wheel-tables.ts'
import { frontStability, rearStability, type StabilityConditions } from './stability.ts'

describe('published drag conversions (docs/engine/science.md §10 row 25, djconnel.blogspot.com)', () => {
  it('100 g of drag at 30 mph = 13.2 W and ΔCdA 0.0089 m² (ρ 1.225), within 2 %', () => {
    const v = (30 * 1609.344) / 3600
    const f = gramsToNewtons(100)
    expect(Math.abs(powerFromDragForce(f, v) / 13.2 - 1)).toBeLessThan(0.02)
    expect(Math.abs(dragAreaFromForce(f, v) / 0.0089 - 1)).toBeLessThan(0.02)
  })
})

describe('drag tables against their anchors (docs/decisions/0004)', () => {
  it('front spread 30→80 mm at 12° is within the Silverstone seven-wheel spread (≈0.018 m²)', () => {
    // 15 W at 12° and 40 km/h: ΔCdA = 2P/(ρv³).
    const spread = (2 * 15) / (1.225 * (40 / 3.6) ** 3)
    expect(spread).toBeCloseTo(0.018, 3)
    const d = -interpolateYawTable(WHEELS['80'].frontDeltaCda!, 12)
    expect(d).toBeGreaterThan(0.4 * spread)
    expect(d).toBeLessThan(spread)
  })
  it('at 0° deep fronts differ by less than 50 g at 30 mph (≈0.0045 m²)', () => {
    const g50 = dragAreaFromForce(gramsToNewtons(50), 13.4112)
    for (const w of FRONT_WHEELS) {
      expect(-interpolateYawTable(WHEELS[w].frontDeltaCda!, 0)).toBeLessThan(g50)
    }
  })
  it('deeper never draggier at any yaw, the disc is the fastest rear at every yaw (Parcours)', () => {
    for (let b = 0; b <= 25; b += 0.5) {
      for (let i = 1; i < FRONT_WHEELS.length; i++) {
        expect(pairDeltaCda(FRONT_WHEELS[i]!, '30', b)).toBeLessThanOrEqual(
          pairDeltaCda(FRONT_WHEELS[i - 1]!, '30', b),
        )
      }
      for (const r of REAR_WHEELS) {
        if (r !== 'disc')
          expect(pairDeltaCda('30', 'disc', b)).toBeLessThan(pairDeltaCda('30', r, b) + 1e-12)
      }
      expect(pairDeltaCda('80', '80', b)).toBe(pairDeltaCda('80', '80', -b))
    }
  })
  it('side force grows with depth but less than proportionally', () => {
    const s30 = sideForceArea('30', 15)
    const s80 = sideForceArea('80', 15)
    expect(s80).toBeGreaterThan(s30)
    expect(s80 / s30).toBeLessThan(80 / 30)
  })
})

describe('wind-averaged drag (Barry 2018)', () => {
  it('no wind → the 0° value; constant CdA in wind → CdA·(1 + w²/v²)', () => {
    expect(windAveragedCda(() => 0.3, 10, 0)).toBeCloseTo(0.3, 10)
    // (1/π)∫(v² + w² + 2vw cosφ)/v² dφ over 0…π = 1 + w²/v².
    expect(windAveragedCda(() => 0.3, 10, 4)).toBeCloseTo(0.3 * (1 + 16 / 100), 8)
  })
  it('a deep wheel gains more in wind than in still air (yaw opens the gap)', () => {
    const d = (w: number) =>
      windAveragedCda((b) => pairDeltaCda('80', '30', b), 10, w) / windAveragedCda(() => 1, 10, w)
    expect(d(5)).toBeLessThan(d(0))
  })
})

describe('crosswind stability', () => {
  const light: StabilityConditions = {
    systemMassKg: 63,
    speedMps: 9,
    windSpeedMps: 0,
    handling: 'medium',
  }
  it('no wind → every wheel stable; stronger wind → worse ratio', () => {
    for (const w of FRONT_WHEELS) expect(frontStability(w, light).rating).toBe('stable')
    const a = frontStability('80', { ...light, windSpeedMps: 4 })
    const b = frontStability('80', { ...light, windSpeedMps: 10 })
    expect(b.ratio).toBeGreaterThan(a.ratio)
  })
  it('a light rider on an 80 mm front in 40 km/h wind is unstable; a heavy rider less so', () => {
    const windy = { ...light, windSpeedMps: 40 / 3.6 }
    expect(frontStability('80', windy).rating).toBe('unstable')
    const heavy = frontStability('80', { ...windy, systemMassKg: 100 })
    expect(heavy.ratio).toBeLessThan(frontStability('80', windy).ratio)
  })
  it('a disc rear is never rated unstable, even in a gale with a light rider', () => {
    for (const wind of [0, 5, 10, 20, 30]) {
      const r = rearStability('disc', {
        ...light,
        systemMassKg: 50,
        windSpeedMps: wind,
        handling: 'low',
      })
      expect(r.rating).not.toBe('unstable')
    }
    expect(frontStability('30', { ...light, windSpeedMps: 30 }).rating).toBe('unstable')
  })
})

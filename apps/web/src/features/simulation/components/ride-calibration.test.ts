import { importCourse } from '@veloptima/formats'
import { describe, expect, it } from 'vitest'
import { needs } from '../../../../../../scripts/test-data.ts'
import { itWith } from '../../../../../../scripts/test-data-vitest.ts'
import { crrBySurface } from './ride-calibration.tsx'
import { RIDE_WEATHER_PLACES, rideWeatherQuery } from './ride-calibration-weather.ts'

describe('crrBySurface: the fitted Crr is the normal-road value, the others keep their ratio', () => {
  it('race butyl preset 0.0032 / 0.004 / 0.0055 with a fitted 0.005', () => {
    const by = crrBySurface(0.005, { smooth: 0.0032, normal: 0.004, rough: 0.0055 })
    expect(by.normal).toBe(0.005)
    expect(by.smooth).toBeCloseTo(0.004, 12)
    expect(by.rough).toBeCloseTo(0.006875, 12)
  })
  it('empty or invalid current values fall back to the presets’ typical ratios (0.8, 1.375)', () => {
    const by = crrBySurface(0.004, { smooth: NaN, normal: 0, rough: 0.005 })
    expect(by.smooth).toBeCloseTo(0.0032, 12)
    expect(by.rough).toBeCloseTo(0.0055, 12)
  })
})

describe('rideWeatherQuery: the places and hours of a recorded ride for its historical weather', () => {
  const f = 'rides/elemnt-devfields.fit'
  itWith(
    [f],
    'the ELEMNT ride: five places evenly along it, its first and last recorded times',
    () => {
      const imported = importCourse(needs(f).read(f), f)
      const q = rideWeatherQuery(imported.track, imported.pointDistanceM)
      expect(q.ok).toBe(true)
      if (!q.ok) return
      // The file's own first and last timestamps, by a plain scan.
      const times = Array.from(imported.track.time).filter(Number.isFinite)
      expect(q.query.from).toBe(new Date(Math.min(...times) * 1000).toISOString())
      expect(q.query.to).toBe(new Date(Math.max(...times) * 1000).toISOString())
      expect(q.query.from).toBe('2019-02-17T06:26:44.000Z')
      const d = q.query.points.map((p) => p.distance_m)
      expect(d).toHaveLength(RIDE_WEATHER_PLACES)
      expect(d[0]).toBe(0)
      const total = imported.course.start[imported.course.n]!
      d.forEach((x, k) => expect(Math.abs(x - (total * k) / 4)).toBeLessThan(100))
      // Shanghai: every place within the city.
      for (const p of q.query.points) {
        expect(p.lat).toBeGreaterThan(31)
        expect(p.lat).toBeLessThan(31.4)
        expect(p.lon).toBeGreaterThan(121.3)
        expect(p.lon).toBeLessThan(121.6)
      }
    },
  )
  it('no positions or no times: the reason, to keep the manual air', () => {
    const nan = new Float64Array(3).fill(NaN)
    const d = Float64Array.from([0, 10, 20])
    expect(rideWeatherQuery({ lat: nan, lon: nan, time: d }, d)).toEqual({
      ok: false,
      reason: 'the file has no GPS positions',
    })
    const pos = Float64Array.from([45, 45.001, 45.002])
    expect(rideWeatherQuery({ lat: pos, lon: pos, time: nan }, d)).toEqual({
      ok: false,
      reason: 'the file has no times',
    })
  })
})

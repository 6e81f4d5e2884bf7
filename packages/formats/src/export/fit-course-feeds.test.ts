// The fuel plan's feeds in the FIT course: a real plan and fuel plan from the engine (a 48 km
// course of flats, a climb and a descent, the rider's CP given so the run carries its fuel plan,
// as a stored run does), written with the route and decoded back with Garmin's FIT SDK, which
// shares no code with the writer's choice of course points.
import { Decoder, Stream } from '@garmin/fitsdk'
import { describe, expect, it } from 'vitest'
import { courseFromSegments, optimizePacing, pacingOutput } from '@veloptima/engine'
import { coursePoints, writePlanFitCourse } from './fit-course.ts'
import { planTargets, targetStarts } from './targets.ts'
import { exportFeeds, exportSections, type ExportPoint, type PlanExport } from './types.ts'

const legs: [number, number][] = [
  [8000, 0],
  [5000, 0.05],
  [5000, -0.04],
  [20000, 0.005],
  [10000, 0],
]
const course = courseFromSegments(
  legs.flatMap(([m, grade]) => Array.from({ length: m / 500 }, () => ({ lengthM: 500, grade }))),
)
const length = course.start[course.n]!
const CP = 300
const result = optimizePacing({
  course,
  rider: {
    massKg: 72,
    bikeMassKg: 8,
    cdaM2: 0.25,
    crr: 0.004,
    drivetrainEfficiency: 0.976,
    cpW: CP,
    wPrimeJ: 20000,
    maxPowerW: 800,
  },
  pacing: { constraint: { type: 'w_prime_balance' }, maxTargets: 5 },
})
const output = pacingOutput(result, course, { cpW: CP, fuel: { gutToleranceGPerH: 90 } })
const sections = exportSections(output.plan, output.targets)
const feeds = exportFeeds(output.fuel, length)

// A route due north along the course: one position every 250 m (1° of latitude ≈ 111.2 km).
const points: ExportPoint[] = Array.from({ length: length / 250 + 1 }, (_, i) => ({
  lat: 45 + (i * 250) / 111_195,
  lon: 6,
  ele: course.altitude[Math.min(course.n, Math.floor((i * 250) / 500))]!,
  distanceM: i * 250,
}))
const plan: PlanExport = { name: 'Feeds', sections, points, feeds }

type Decoded = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  messages: Record<'coursePointMesgs' | 'recordMesgs', any[]>
  errors: unknown[]
}
const decode = (bytes: Uint8Array) =>
  new Decoder(Stream.fromByteArray(bytes)).read() as unknown as Decoded

describe('FIT course with the fuel plan’s feeds', () => {
  const bytes = writePlanFitCourse(plan)
  const { messages, errors } = decode(bytes)
  const read = messages.coursePointMesgs

  it('has a fuel plan with feeds to carry', () => {
    expect(output.fuel).toBeDefined()
    expect(feeds.length).toBeGreaterThanOrEqual(2)
    expect(feeds.length).toBe(output.fuel!.feeds.length)
  })

  it('decodes without errors with a course point per target start and per feed', () => {
    expect(new Decoder(Stream.fromByteArray(bytes)).checkIntegrity()).toBe(true)
    expect(errors).toEqual([])
    expect(read.length).toBe(targetStarts(planTargets(sections)).length + feeds.length)
  })

  it('marks each feed where the fuel plan puts it, typed food (or water) and named by it', () => {
    const food = read.filter((p) => p.type === 'food' || p.type === 'water')
    expect(food.length).toBe(feeds.length)
    food.forEach((p, i) => {
      const f = feeds[i]!
      expect(p.type).toBe(f.carbohydrateG > 0 ? 'food' : 'water')
      expect(p.name).toBe(f.label)
      expect(p.name).toMatch(/\d+ ml/)
      expect(p.distance).toBeCloseTo(f.distanceM, 1)
      // on the route, at the latitude of its distance
      expect(p.positionLat / (2 ** 31 / 180)).toBeCloseTo(45 + f.distanceM / 111_195, 5)
    })
    // the feed's time is the fuel plan's own elapsed time, the ride's (to the second it rounds
    // to); the sections' times, linear within a section, put the feed in the first section,
    // with its standing start, about 3 s early
    for (const [i, p] of food.entries()) {
      const stored = output.fuel!.feeds[i]!
      const offset = (p.timestamp.getTime() - messages.recordMesgs[0]!.timestamp.getTime()) / 1000
      expect(Math.abs(offset - stored.elapsed_s)).toBeLessThanOrEqual(0.001)
    }
  })

  it('keeps the target points as they were, all in order of distance', () => {
    const generic = read.filter((p) => p.type === 'generic')
    const starts = targetStarts(planTargets(sections))
    expect(generic.map((p) => p.name)).toEqual(
      starts.map((s) => `${Math.round(s.target.powerW)} W`),
    )
    for (let i = 1; i < read.length; i++)
      expect(read[i].distance).toBeGreaterThanOrEqual(read[i - 1].distance)
    expect(read.map((p) => p.messageIndex)).toEqual(read.map((_, i) => i))
  })

  it('types a drink without carbohydrate as water, and leaves out feeds off the course', () => {
    const kept = exportFeeds(
      {
        feeds: [
          { distance_m: 1000, elapsed_s: 100, carbohydrate_g: 0, fluid_ml: 250, label: 'water' },
          { distance_m: length + 10, elapsed_s: 9e3, carbohydrate_g: 30, fluid_ml: 0, label: 'x' },
          { distance_m: 2000, elapsed_s: 200, carbohydrate_g: 0, fluid_ml: 0, label: 'nothing' },
        ],
      },
      length,
    )
    expect(kept.map((f) => f.label)).toEqual(['water'])
    const types = coursePoints({ ...plan, feeds: kept }).filter((c) => c.type !== 'generic')
    expect(types).toEqual([{ distanceM: 1000, type: 'water', name: 'water', elapsedS: 100 }])
  })
})

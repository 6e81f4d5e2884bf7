// The trainer and head-unit files of the plan, read back by readers that share no code with the
// writers: Garmin's FIT SDK decodes the FIT workout, the XML parser the readers use reads the
// Zwift workout, and a plain line reader reads the ERG and MRC files. The plan is the engine's
// own (optimizePacing on a rolling course of explicit segments, stored as a run stores it), so
// the files are checked against the times and powers the simulation gave it; a hand-built plan
// with round times checks the exact rows.
import { Decoder, Profile, Stream } from '@garmin/fitsdk'
import { DOMParser } from '@xmldom/xmldom'
import { describe, expect, it } from 'vitest'
import { courseFromSegments, optimizePacing, pacingOutput } from '@veloptima/engine'
import { writePlanErg } from './erg.ts'
import { FIT_WATTS_OFFSET, writePlanFitWorkout } from './fit-workout.ts'
import { writePlanMrc } from './mrc.ts'
import { exportSections, ExportError, type ExportSection, type PlanExport } from './types.ts'
import { writePlanZwo } from './zwo.ts'

// 7.5 km in 50 m segments: flat, a 6 % climb, a descent, flat, a 4 % kicker.
const legs: [number, number][] = [
  [1000, 0],
  [1500, 0.06],
  [1000, -0.05],
  [1500, 0],
  [1000, 0.04],
  [1500, 0],
]
const course = courseFromSegments(
  legs.flatMap(([m, grade]) => Array.from({ length: m / 50 }, () => ({ lengthM: 50, grade }))),
)
const CP = 290
const result = optimizePacing({
  course,
  rider: {
    massKg: 68,
    bikeMassKg: 7.5,
    cdaM2: 0.27,
    crr: 0.0035,
    drivetrainEfficiency: 0.975,
    cpW: CP,
    wPrimeJ: 18000,
    maxPowerW: 800,
  },
  pacing: { constraint: { type: 'w_prime_balance' }, maxTargets: 6 },
})
const output = pacingOutput(result, course)
const sections = exportSections(output.plan, output.targets)
const plan: PlanExport = { name: 'Rolling TT <race> & "rehearsal"', sections }
const length = course.start[course.n]!

/** The plan's section ridden at elapsed time `t` (its own times, as the API stores them). */
const sectionAtTime = (t: number) =>
  output.plan.find((s) => s.elapsed_s - s.duration_s < t && t <= s.elapsed_s)!
/** Elapsed times where the target changes (rounded to the watt), with 0 and the finish. */
const changeTimes = [
  0,
  ...output.plan
    .filter(
      (s, i, all) =>
        i === all.length - 1 || Math.round(all[i + 1]!.power_w) !== Math.round(s.power_w),
    )
    .map((s) => s.elapsed_s),
]

/** A CompuTrainer course file as its readers see it: the header's lines and the data rows. */
function readCourseFile(text: string) {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '')
  const at = (tag: string) => lines.indexOf(tag)
  const header = lines.slice(at('[COURSE HEADER]') + 1, at('[END COURSE HEADER]'))
  const rows = lines
    .slice(at('[COURSE DATA]') + 1, at('[END COURSE DATA]'))
    .map((l) => l.split('\t').map(Number) as [number, number])
  return { header, rows }
}

/** Checks a course file's rows against the plan; `watts` turns a row's value into watts. */
function expectRowsFollowPlan(rows: [number, number][], watts: (v: number) => number) {
  expect(rows.length % 2).toBe(0)
  expect(rows[0]![0]).toBe(0)
  const times = rows.map(([m]) => m * 60)
  // the time axis: every row at one of the plan's elapsed times where the target changes
  // (minutes written to 0.01, i.e. within 0.3 s), and every such time has its rows
  for (const t of times)
    expect(Math.min(...changeTimes.map((c) => Math.abs(c - t)))).toBeLessThan(0.31)
  for (const c of changeTimes)
    expect(Math.min(...times.map((t) => Math.abs(c - t)))).toBeLessThan(0.31)
  expect(times.at(-1)!).toBeCloseTo(output.time_s, 0)
  for (let k = 0; k < rows.length; k += 2) {
    const [a, b] = [rows[k]!, rows[k + 1]!]
    expect(a[1]).toBe(b[1]) // a block holds its value
    if (k > 0) expect(a[0]).toBe(rows[k - 1]![0]) // a change is two rows at one minute
    const mid = ((a[0] + b[0]) / 2) * 60
    expect(Math.abs(watts(a[1]) - sectionAtTime(mid).power_w)).toBeLessThanOrEqual(0.5)
  }
}

describe('the plan the trainer files are written from', () => {
  it('is the engine’s: several targets, times that add up to the predicted time', () => {
    expect(output.status).toBe('optimal')
    expect(new Set(sections.map((s) => Math.round(s.powerW))).size).toBeGreaterThan(2)
    const sum = output.plan.reduce((t, s) => t + s.duration_s, 0)
    expect(Math.abs(sum - output.time_s)).toBeLessThan(0.1 * output.plan.length)
  })
})

describe('ERG and MRC (CompuTrainer course files)', () => {
  it('ERG: the header, then watts over the plan’s elapsed time, each change as two rows', () => {
    const { header, rows } = readCourseFile(writePlanErg(plan, { fileName: 'rolling.erg' }))
    expect(header).toEqual([
      'VERSION = 2',
      'UNITS = METRIC',
      'DESCRIPTION = Rolling TT <race> & "rehearsal"',
      'FILE NAME = rolling.erg',
      'MINUTES WATTS',
    ])
    expectRowsFollowPlan(rows, (w) => w)
  })

  it('MRC: the same time axis, targets in percent of the rider’s CP', () => {
    const { header, rows } = readCourseFile(writePlanMrc(plan, { cpW: CP }))
    expect(header).toContain('MINUTES PERCENT')
    expect(header).toContain(`FTP = ${CP}`)
    expectRowsFollowPlan(rows, (pct) => (pct * CP) / 100)
  })

  it('writes a hand-built plan’s round times exactly (minutes from the section durations)', () => {
    const hand: ExportSection[] = [
      { startM: 0, endM: 1000, powerW: 300, durationS: 120 },
      { startM: 1000, endM: 2000, powerW: 300.2, durationS: 150 },
      { startM: 2000, endM: 2500, powerW: 200, durationS: 90 },
    ]
    const { rows } = readCourseFile(writePlanErg({ name: 'hand', sections: hand }))
    expect(rows).toEqual([
      [0, 300],
      [4.5, 300],
      [4.5, 200],
      [6, 200],
    ])
    const mrc = readCourseFile(writePlanMrc({ name: 'hand', sections: hand }, { cpW: 250 }))
    expect(mrc.rows).toEqual([
      [0, 120],
      [4.5, 120],
      [4.5, 80],
      [6, 80],
    ])
  })
})

describe('Zwift workout (ZWO)', () => {
  const doc = new DOMParser().parseFromString(writePlanZwo(plan, { cpW: CP }), 'text/xml')
  const root = doc.documentElement!
  const blocks = Array.from(root.getElementsByTagName('SteadyState'))
  const text = (tag: string) => root.getElementsByTagName(tag)[0]?.textContent

  it('is a bike workout named after the plan', () => {
    expect(root.tagName).toBe('workout_file')
    expect(text('sportType')).toBe('bike')
    expect(text('name')).toBe(plan.name)
    expect(text('author')).toBe('Veloptima')
    expect(text('description')).toContain(`${CP} W`)
  })

  it('lasts the plan’s time, each block at the plan’s power (fraction × CP), equal neighbours merged', () => {
    const durations = blocks.map((b) => Number(b.getAttribute('Duration')))
    const powers = blocks.map((b) => Number(b.getAttribute('Power')) * CP)
    expect(durations.every((d) => Number.isInteger(d) && d > 0)).toBe(true)
    expect(Math.abs(durations.reduce((a, b) => a + b, 0) - output.time_s)).toBeLessThan(1)
    expect(blocks).toHaveLength(changeTimes.length - 1)
    let t = 0
    blocks.forEach((_, k) => {
      expect(Math.abs(powers[k]! - sectionAtTime(t + durations[k]! / 2).power_w)).toBeLessThan(1)
      if (k > 0) expect(Math.round(powers[k]!)).not.toBe(Math.round(powers[k - 1]!))
      t += durations[k]!
    })
  })
})

describe('FIT workout', () => {
  const bytes = writePlanFitWorkout(plan)
  const read = () => new Decoder(Stream.fromByteArray(bytes))
  type Mesgs = 'fileIdMesgs' | 'workoutMesgs' | 'workoutStepMesgs'
  const { messages, errors } = read().read() as unknown as {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    messages: Record<Mesgs, any[]>
    errors: unknown[]
  }
  // raw values, to hold them to the FIT profile's own numbers
  const raw = read().read({ convertTypesToStrings: false, expandSubFields: false }) as unknown as {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    messages: Record<Mesgs, any[]>
  }
  const steps = messages.workoutStepMesgs

  it('is a valid workout file that Garmin’s SDK decodes without errors', () => {
    expect(read().isFIT()).toBe(true)
    expect(read().checkIntegrity()).toBe(true)
    expect(errors).toEqual([])
    expect(messages.fileIdMesgs[0]!.type).toBe('workout')
    expect(messages.workoutMesgs[0]!.sport).toBe('cycling')
    expect(messages.workoutMesgs[0]!.numValidSteps).toBe(steps.length)
  })

  it('has one step per target range in course order, ended by distance (cm in the file)', () => {
    const ranges = output.targets.flatMap((t) => {
      const idx = [...t.sections].sort((a, b) => a - b)
      return idx
        .filter((i, k) => k === 0 || idx[k - 1] !== i - 1)
        .map((i) => output.plan[i]!.start_m)
    })
    expect(steps).toHaveLength(ranges.length)
    let along = 0
    steps.forEach((s, k) => {
      const r = raw.messages.workoutStepMesgs[k]!
      expect(r.durationType).toBe(1)
      expect(Profile.types.wktStepDuration![1]).toBe('distance')
      expect(r.durationValue).toBe(Math.round(s.durationDistance * 100))
      expect(s.durationType).toBe('distance')
      expect(Math.abs(along - [...ranges].sort((a, b) => a - b)[k]!)).toBeLessThan(0.02 * (k + 1))
      along += s.durationDistance
    })
    expect(Math.abs(along - length)).toBeLessThan(0.01 * steps.length)
  })

  it('targets each step’s power in watts (1000 + W), the band around the plan’s power', () => {
    expect(Profile.types.workoutPower![FIT_WATTS_OFFSET]).toBe('wattsOffset')
    let along = 0
    steps.forEach((s, k) => {
      const r = raw.messages.workoutStepMesgs[k]!
      expect(r.targetType).toBe(4)
      expect(Profile.types.wktStepTarget![4]).toBe('power')
      expect(r.targetValue).toBe(0)
      const low = r.customTargetValueLow - 1000
      const high = r.customTargetValueHigh - 1000
      const section = output.plan.find((p) => p.end_m > along + s.durationDistance / 2)!
      expect(low).toBeLessThanOrEqual(section.power_w)
      expect(high).toBeGreaterThanOrEqual(section.power_w)
      expect(Math.abs((low + high) / 2 - section.power_w)).toBeLessThanOrEqual(1)
      expect(s.wktStepName).toContain(`${Math.round(section.power_w)} W`)
      along += s.durationDistance
    })
  })
})

describe('bad input', () => {
  const timeless = sections.map(({ durationS: _d, timeS: _t, ...s }) => s)

  it('refuses a plan without times, naming the fields', () => {
    expect(() => writePlanErg({ name: 'x', sections: timeless })).toThrow(ExportError)
    expect(() => writePlanErg({ name: 'x', sections: timeless })).toThrow(
      /Section 1: .*durationS or timeS/,
    )
    expect(() => writePlanZwo({ name: 'x', sections: timeless }, { cpW: CP })).toThrow(
      /durationS or timeS/,
    )
  })

  it('refuses MRC and ZWO without a CP', () => {
    const none = undefined as unknown as number
    expect(() => writePlanMrc(plan, { cpW: none })).toThrow(/MRC .*cpW .*got nothing/)
    expect(() => writePlanZwo(plan, { cpW: 0 })).toThrow(/ZWO .*cpW .*got 0/)
  })

  it('refuses an empty plan in every format', () => {
    const empty = { name: 'x', sections: [] }
    const writers = [
      () => writePlanErg(empty),
      () => writePlanMrc(empty, { cpW: CP }),
      () => writePlanZwo(empty, { cpW: CP }),
      () => writePlanFitWorkout(empty),
    ]
    for (const write of writers) expect(write).toThrow(/no sections/)
  })
})

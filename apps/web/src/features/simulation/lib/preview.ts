// The pacing computation shared by the Web Worker (instant preview, recomputation of a stored
// snapshot): the engine's optimizer, then a summary small enough to post to the page.
import {
  courseFromSegments,
  optimizePacing,
  type Course,
  type PacingResult,
  type Rider,
} from '@veloptima/engine'
import { equipmentVariants, type EngineInputs, type OptimizationInputs } from './engine-input.ts'

export type PlanRow = {
  startM: number
  endM: number
  label: string
  grade: number
  powerW: number
  speedMps: number
  durationS: number
  /** elapsed time at the end of the section (s) */
  timeS: number
}

export type Series = {
  distanceM: number[]
  altitudeM: number[]
  powerW: number[]
  speedMps: number[]
  wPrimeJ: number[] | null
}

export type VariantResult = { name: string; timeS: number; deltaS: number; status: string }

export type PreviewSummary = {
  status: 'optimal' | 'infeasible'
  reason: string | null
  timeS: number
  baseline: { powerW: number; timeS: number } | null
  /** time saved by the rideable plan (≤ max targets) against the best constant power */
  timeSavedS: number | null
  /** time saved by the full-resolution optimum (one power per control segment) */
  optimumTimeSavedS: number | null
  normalizedPowerW: number | null
  averagePowerW: number | null
  sections: PlanRow[]
  series: Series | null
  variants: VariantResult[] | null
}

function planRows(course: Course, result: PacingResult): PlanRow[] {
  const plan = result.plan
  const sim = plan?.simulation ?? result.simulation
  if (!plan || !sim) return []
  const seg = sim.segments
  const rows: PlanRow[] = []
  let i = 0
  for (const s of plan.sections) {
    let rise = 0
    let run = 0
    let t = 0
    while (i < course.n && course.start[i]! < s.endM - 1e-6) {
      rise += course.length[i]! * course.grade[i]!
      run += course.length[i]!
      t += seg.duration[i]!
      i++
    }
    const length = s.endM - s.startM
    rows.push({
      startM: s.startM,
      endM: s.endM,
      label: s.label,
      grade: run > 0 ? rise / run : 0,
      powerW: s.powerW,
      speedMps: t > 0 ? length / t : 0,
      durationS: t,
      timeS: seg.time[Math.max(0, i - 1)]!,
    })
  }
  return rows
}

function seriesOf(course: Course, result: PacingResult, maxPoints = 800): Series | null {
  const sim = result.plan?.simulation ?? result.simulation
  if (!sim) return null
  const n = sim.segments.count
  const stride = Math.max(1, Math.ceil(n / maxPoints))
  const s: Series = { distanceM: [], altitudeM: [], powerW: [], speedMps: [], wPrimeJ: [] }
  const hasW = sim.minWPrimeBalanceJ !== null
  for (let i = 0; i < n; i += stride) {
    const last = Math.min(n, i + stride)
    let p = 0
    let v = 0
    let t = 0
    for (let k = i; k < last; k++) {
      const d = sim.segments.duration[k]!
      p += sim.segments.power[k]! * d
      v += course.length[k]! // horizontal distance over time: mean speed
      t += d
    }
    s.distanceM.push(course.start[last]!)
    s.altitudeM.push(course.altitude[last]!)
    s.powerW.push(t > 0 ? p / t : 0)
    s.speedMps.push(t > 0 ? v / t : 0)
    s.wPrimeJ!.push(sim.segments.wPrimeBalance[last - 1]!)
  }
  if (!hasW) s.wPrimeJ = null
  return s
}

function pace(course: Course, rider: Rider, inputs: EngineInputs): PacingResult {
  return optimizePacing({
    course,
    rider,
    environment: inputs.environment,
    pacing: {
      constraint: inputs.constraint,
      maxTargets: inputs.maxTargets,
      maxPowerW: inputs.maxPowerW,
    },
  })
}

/** Optimizes the pacing (and, for equipment, each option) and summarizes for the page. */
export function computePreview(
  inputs: EngineInputs,
  optimization: OptimizationInputs,
  type: 'pacing' | 'equipment',
): PreviewSummary {
  const course = courseFromSegments(inputs.segments, inputs.startAltitudeM)
  const result = pace(course, inputs.rider, inputs)
  const sim = result.plan?.simulation ?? result.simulation
  let variants: VariantResult[] | null = null
  if (type === 'equipment' && result.status === 'optimal') {
    const base = result.plan?.timeS ?? result.timeS
    variants = equipmentVariants(optimization).map((o, k) => {
      if (k === 0) return { name: o.name, timeS: base, deltaS: 0, status: 'optimal' }
      const rider: Rider = {
        ...inputs.rider,
        cdaM2: inputs.rider.cdaM2 + o.cda_delta,
        bikeMassKg: inputs.rider.bikeMassKg + o.mass_delta,
        crr: inputs.rider.crr * o.crr_factor,
      }
      const r = pace(course, rider, inputs)
      const t = r.plan?.timeS ?? r.timeS
      return { name: o.name, timeS: t, deltaS: t - base, status: r.status }
    })
    variants.sort((a, b) => a.timeS - b.timeS)
  }
  return {
    status: result.status,
    reason: result.reason,
    timeS: result.plan?.timeS ?? result.timeS,
    baseline: result.baseline,
    timeSavedS:
      result.baseline && result.plan
        ? result.baseline.timeS - result.plan.timeS
        : result.timeSavedS,
    optimumTimeSavedS: result.timeSavedS,
    normalizedPowerW: sim?.normalizedPowerW ?? null,
    averagePowerW: sim?.averagePowerW ?? null,
    sections: planRows(course, result),
    series: seriesOf(course, result),
    variants,
  }
}

import type { Course } from '../course/types.ts'
import { prepareModel, type Rider, type SimModel } from '../sim/model.ts'
import { createStepResult, step, STEP_STALLED } from '../sim/step.ts'
import { pairDeltaCda, pairExtraMassKg, type FrontWheel, type RearWheel } from './wheel-tables.ts'

/**
 * Time on a course for a wheel pair, through the engine's forward-simulation step with the yaw
 * of every segment. The wind's direction is unknown, so the time is the mean over `directions`
 * equally likely directions (or the one given). Per direction: the baseline (30/30) run gives
 * each segment's speed, hence its apparent-wind yaw β_i = atan2(w⊥, v_i + w∥); the pair's drag
 * area on that segment is CdA + ΔCdA_pair(β_i), and its extra mass rides on the bike. Quasi-steady
 * (each segment at its steady speed), constant power: what differs between wheels is drag and mass.
 */

type MutableModel = { -readonly [K in keyof SimModel]: SimModel[K] }

export type CourseTimeSetup = {
  course: Course
  rider: Rider
  powerW: number
  airDensityKgM3: number
  /** Wind at rider height (m/s). */
  windMps: number
  /** Direction the wind blows from (degrees); undefined = all directions equally likely. */
  windFromDeg?: number
  directions?: number
}

/** One run over the prepared model with a per-segment drag-area change; Infinity if stalled. */
function run(m: SimModel, powerW: number, deltaCda: Float64Array | null, speeds?: Float64Array) {
  const mi: MutableModel = { ...m }
  const out = createStepResult()
  let v = 0
  let t = 0
  for (let i = 0; i < m.n; i++) {
    mi.halfCda = deltaCda ? m.halfCda + 0.5 * deltaCda[i]! : m.halfCda
    step(mi, i, v, powerW, out)
    if (out.status === STEP_STALLED) return Infinity
    t += out.t
    v = out.v1
    if (speeds) speeds[i] = out.vMean
  }
  return t
}

export type Baseline = {
  /** Mean time over the wind directions with 30/30 wheels (s); Infinity when the rider stalls. */
  timeS: number
  /** Per direction: its wind angle and the per-segment yaw (degrees) on the baseline run. */
  directions: { fromDeg: number; yawDeg: Float64Array }[]
  /** Time-weighted mean |yaw| over the course and directions (degrees). */
  meanAbsYawDeg: number
  /** Average ground speed (m/s). */
  averageSpeedMps: number
}

function options() {
  // A steep ramp at low power crawls rather than stalls: the wheel comparison needs a time.
  return { cornering: false, kineticEnergy: false, minSpeedMps: 0.3 } as const
}

function modelFor(s: CourseTimeSetup, fromDeg: number, extraMassKg: number): SimModel {
  return prepareModel(
    s.course,
    { ...s.rider, bikeMassKg: s.rider.bikeMassKg + extraMassKg },
    { airDensityKgM3: s.airDensityKgM3, windSpeedMps: s.windMps, windFromDeg: fromDeg },
    options(),
  )
}

function windDirections(s: CourseTimeSetup): number[] {
  if (s.windFromDeg !== undefined) return [s.windFromDeg]
  if (s.windMps === 0) return [0]
  const k = s.directions ?? 8
  return Array.from({ length: k }, (_, j) => (360 * j) / k)
}

export function baselineTime(s: CourseTimeSetup): Baseline {
  const directions: Baseline['directions'] = []
  let total = 0
  let yawTime = 0
  let distance = 0
  for (let i = 0; i < s.course.n; i++) distance += s.course.length[i]!
  for (const fromDeg of windDirections(s)) {
    const m = modelFor(s, fromDeg, 0)
    const speeds = new Float64Array(m.n)
    const t = run(m, s.powerW, null, speeds)
    const yawDeg = new Float64Array(m.n)
    for (let i = 0; i < m.n; i++) {
      yawDeg[i] = (Math.atan2(m.wPerp[i]!, speeds[i]! + m.wPar[i]!) * 180) / Math.PI
      if (Number.isFinite(t)) yawTime += (Math.abs(yawDeg[i]!) * m.ds[i]!) / speeds[i]!
    }
    total += t
    directions.push({ fromDeg, yawDeg })
  }
  const timeS = total / directions.length
  return {
    timeS,
    directions,
    meanAbsYawDeg: Number.isFinite(timeS) ? yawTime / total : 0,
    averageSpeedMps: Number.isFinite(timeS) ? distance / timeS : 0,
  }
}

/** Mean time (s) over the baseline's wind directions with a front/rear pair. */
export function pairTime(
  s: CourseTimeSetup,
  base: Baseline,
  front: FrontWheel,
  rear: RearWheel,
): number {
  let total = 0
  const extra = pairExtraMassKg(front, rear)
  for (const d of base.directions) {
    const m = modelFor(s, d.fromDeg, extra)
    const delta = new Float64Array(m.n)
    for (let i = 0; i < m.n; i++) delta[i] = pairDeltaCda(front, rear, d.yawDeg[i]!)
    total += run(m, s.powerW, delta)
  }
  return total / base.directions.length
}

/** The same loop without wheel changes, for checking against `simulate()` in tests. */
export function quasiSteadyTime(s: CourseTimeSetup, fromDeg = 0): number {
  return run(modelFor(s, fromDeg, 0), s.powerW, null)
}

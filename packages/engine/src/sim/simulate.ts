// Forward simulation: a loop of `step` over the course, then totals, W′ balance and energy.
import type { Course } from '../course/types.ts'
import { G0 } from '../physics/constants.ts'
import type { Environment, ModelOptions, Rider, SimModel } from './model.ts'
import { prepareModel } from './model.ts'
import {
  assignPositions,
  POSITION_ROUNDS,
  positionDragFactor,
  positionsMatter,
  sameAssignment,
  scaleDrag,
} from './positions.ts'
import { normalizedPowerOfIntervals } from './metrics.ts'
import { createStepResult, powerForSpeeds, step, STEP_CAPPED, STEP_STALLED } from './step.ts'
import type { StepResult } from './step.ts'
import { replaySummary, SEGMENT_PINNED } from './recorded.ts'
import type { ReplaySummary } from './recorded.ts'
import { validateSimulationInput } from './validate.ts'
import { capacityVaries, type CapacitySummary, wPrimeBalanceAlong } from './capacity.ts'
import { wPrimeBalance } from './wbal.ts'
import type { WPrimeModel, WPrimeSummary } from './wbal.ts'

export type Pacing =
  | { type: 'constant'; powerW: number }
  | { type: 'plan'; powerW: ArrayLike<number> }
  | { type: 'speed'; speedMps: number }
  /**
   * A recording replayed (sim/replay.ts): its mean moving power and moving time per segment.
   * Where that power cannot keep the rider moving (a stall, or a mean speed under the minimum
   * speed), the segment is ridden at the recorded speed
   * (`segments.capped` = SEGMENT_PINNED); where the recording stopped (stationary time > 0),
   * the rider leaves the segment at 0 m/s as the recording did.
   */
  | {
      type: 'recorded'
      powerW: ArrayLike<number>
      movingTimeS: ArrayLike<number>
      stationaryTimeS?: ArrayLike<number>
    }

export interface SimulationOptions extends ModelOptions {
  /** Speed at the start line (m/s); default 0 for power pacing, the target for speed pacing. */
  startSpeedMps?: number
  /** Default 'skiba2015'. */
  wPrimeModel?: WPrimeModel
}

export interface SimulationInput {
  course: Course
  rider: Rider
  environment?: Environment
  options?: SimulationOptions
  pacing: Pacing
}

/** Per-segment series; arrays have `count` valid entries (fewer than the course if stalled). */
export interface SegmentSeries {
  count: number
  /** Mean ground speed over the segment (m/s). */
  speed: Float64Array
  /** Speed at the segment's end (m/s). */
  exitSpeed: Float64Array
  /** Crank power applied (W). */
  power: Float64Array
  airSpeed: Float64Array
  /** Apparent-wind yaw (degrees, + = wind from the right). */
  yawDeg: Float64Array
  /** Duration of the segment (s). */
  duration: Float64Array
  /** Elapsed time at the segment's end (s). */
  time: Float64Array
  /** W′ balance at the segment's end (J); NaN-free: zeros when CP/W′ are not given. */
  wPrimeBalance: Float64Array
  /** 0 free, 1 capped by cornering/braking or max power, 2 (SEGMENT_PINNED) ridden at the
   * recorded speed (pacing 'recorded'). */
  capped: Uint8Array
}

export interface EnergyBreakdown {
  crankJ: number
  drivetrainLossJ: number
  aeroJ: number
  rollingJ: number
  bearingJ: number
  potentialJ: number
  kineticJ: number
  brakingJ: number
}

export interface SimulationResult {
  status: 'ok' | 'stalled'
  /** Readable explanation when not ok. */
  message: string | null
  stalledAtM: number | null
  timeS: number
  distanceM: number
  averageSpeedMps: number
  averagePowerW: number
  normalizedPowerW: number
  workJ: number
  /** null when CP and W′ are not given. */
  minWPrimeBalanceJ: number | null
  finalWPrimeBalanceJ: number | null
  /** Time at which W′ balance first reached zero (s), or null. */
  wPrimeExhaustedAtS: number | null
  /**
   * CP at the finish (W) when it varies along the ride (durability, heat, altitude:
   * sim/capacity.ts); absent when CP is the rider's throughout
   */
  finishCpW?: number
  energy: EnergyBreakdown
  segments: SegmentSeries
  /** With rider positions: the index of the position ridden on each segment. */
  segmentPosition?: Uint8Array
  /** Pacing 'recorded': predicted vs recorded moving time, in total and per km. */
  replay?: ReplaySummary
}

function allocSeries(n: number): SegmentSeries {
  return {
    count: 0,
    speed: new Float64Array(n),
    exitSpeed: new Float64Array(n),
    power: new Float64Array(n),
    airSpeed: new Float64Array(n),
    yawDeg: new Float64Array(n),
    duration: new Float64Array(n),
    time: new Float64Array(n),
    wPrimeBalance: new Float64Array(n),
    capped: new Uint8Array(n),
  }
}

/** Validates the input once, prepares the model and runs the simulation. */
export function simulate(input: SimulationInput): SimulationResult {
  validateSimulationInput(input)
  const opts = input.options ?? {}
  const model = prepareModel(input.course, input.rider, input.environment ?? {}, opts)
  const first = simulatePrepared(model, input.course, input.rider, input.pacing, opts)
  if (!positionsMatter(input.rider)) return first
  // Positions by speed: a fixed point of ride → assign by mean speed → ride (sim/positions.ts).
  const positions = input.rider.positions!
  const n = model.n
  const speedsOf = (r: SimulationResult, prev?: Uint8Array) =>
    assignPositions(positions, r.segments.speed, r.segments.count, n, prev)
  let assignment = speedsOf(first)
  let ride = first
  for (let round = 0; round < POSITION_ROUNDS; round++) {
    const m = scaleDrag(model, positionDragFactor(input.rider, assignment))
    ride = simulatePrepared(m, input.course, input.rider, input.pacing, opts)
    const next = speedsOf(ride, assignment)
    if (sameAssignment(next, assignment) || round === POSITION_ROUNDS - 1) break
    assignment = next
  }
  ride.segmentPosition = assignment
  return ride
}

/**
 * The simulation loop on a prepared model (no validation: inputs are trusted). Allocates its
 * result arrays once; the loop itself allocates nothing.
 */
export function simulatePrepared(
  m: SimModel,
  course: Course,
  rider: Rider,
  pacing: Pacing,
  opts: SimulationOptions = {},
  scratch: StepResult = createStepResult(),
): SimulationResult {
  const n = m.n
  const seg = allocSeries(n)
  const out = scratch
  const maxP = rider.maxPowerW ?? Infinity
  const ke = m.mKE > 0
  const speedTarget = pacing.type === 'speed' ? pacing.speedMps : 0
  let v = opts.startSpeedMps ?? (pacing.type === 'speed' ? speedTarget : 0)
  if (v > m.vEnv[0]!) v = m.vEnv[0]!
  const vStart = v
  let clock = 0
  let aeroJ = 0
  let rollingJ = 0
  let bearingJ = 0
  let brakingJ = 0
  let crankJ = 0
  let done = 0
  let stalledAt = -1
  for (let i = 0; i < n; i++) {
    let capped = 0
    if (pacing.type === 'speed') {
      const cap = ke ? m.vEnv[i + 1]! : Math.min(m.vEnv[i]!, m.vEnv[i + 1]!)
      const target = speedTarget < cap ? speedTarget : cap
      const need = powerForSpeeds(m, i, v, target)
      if (need > maxP) {
        step(m, i, v, maxP, out)
        capped = 1
      } else {
        holdExit(m, i, v, target, out)
        if (target < speedTarget) capped = 1
      }
    } else if (pacing.type === 'recorded') {
      const p = Math.min(pacing.powerW[i]!, maxP)
      const stopped = pacing.stationaryTimeS !== undefined && pacing.stationaryTimeS[i]! > 0
      step(m, i, v, p, out)
      if (out.status === STEP_CAPPED) capped = 1
      // Crawling slower than the minimum speed (e.g. 1 W from a standstill after a stop) is a
      // stall too: the recording says the rider rode on.
      if (out.status === STEP_STALLED || out.vMean < m.minSpeed || stopped) {
        pinToRecording(m, i, v, p, pacing.movingTimeS[i]!, stopped, out)
        capped = SEGMENT_PINNED
      }
    } else {
      let p = pacing.type === 'constant' ? pacing.powerW : pacing.powerW[i]!
      if (p > maxP) {
        p = maxP
        capped = 1
      }
      step(m, i, v, p, out)
      if (out.status === STEP_CAPPED) capped = 1
    }
    if (out.status === STEP_STALLED) {
      stalledAt = i
      break
    }
    const u = out.vMean
    const ds = m.ds[i]!
    const a = u + m.wPar[i]!
    const c = m.wPerp[i]!
    const va = Math.sqrt(a * a + c * c)
    clock += out.t
    seg.speed[i] = u
    seg.exitSpeed[i] = out.v1
    seg.power[i] = out.power
    seg.airSpeed[i] = va
    seg.yawDeg[i] = (Math.atan2(c, a) * 180) / Math.PI
    seg.duration[i] = out.t
    seg.time[i] = clock
    seg.capped[i] = capped
    aeroJ += m.halfCda * m.rho[i]! * va * a * ds
    rollingJ += m.mass * G0 * m.crr[i]! * m.cosT[i]! * ds
    bearingJ += (m.bA + m.bB * u) * ds
    brakingJ += out.brakeJ
    crankJ += out.power * out.t
    v = out.v1
    done = i + 1
  }
  seg.count = done
  let potentialJ = 0
  for (let i = 0; i < done; i++) potentialJ += m.mass * G0 * m.sinT[i]! * m.ds[i]!
  const distanceM = course.start[done]!
  const wb = wPrimeOf(m, rider, seg, done, opts)
  let message: string | null = null
  let stalledAtM: number | null = null
  if (stalledAt >= 0) {
    stalledAtM = course.start[stalledAt]!
    const g = course.grade[stalledAt]! * 100
    message =
      `rider cannot keep moving at ${stalledAtM.toFixed(0)} m (grade ${g.toFixed(1)} %): ` +
      `${out.power.toFixed(0)} W does not hold ${m.minSpeed} m/s`
  }
  return {
    status: stalledAt >= 0 ? 'stalled' : 'ok',
    message,
    stalledAtM,
    timeS: clock,
    distanceM,
    averageSpeedMps: clock > 0 ? distanceM / clock : 0,
    averagePowerW: clock > 0 ? crankJ / clock : 0,
    normalizedPowerW: normalizedPowerOfIntervals(seg.power, seg.duration, done),
    workJ: crankJ,
    minWPrimeBalanceJ: wb?.minJ ?? null,
    finalWPrimeBalanceJ: wb?.finalJ ?? null,
    wPrimeExhaustedAtS: wb?.exhaustedAtS ?? null,
    ...(wb && 'finalCpW' in wb ? { finishCpW: wb.finalCpW } : {}),
    energy: {
      crankJ,
      drivetrainLossJ: crankJ * (1 - m.eta),
      aeroJ,
      rollingJ,
      bearingJ,
      potentialJ,
      kineticJ: ke ? 0.5 * m.mKE * (v * v - vStart * vStart) : 0,
      brakingJ,
    },
    segments: seg,
    ...(pacing.type === 'recorded' ? { replay: replaySummary(course, pacing, seg) } : {}),
  }
}

/**
 * The ride's W′ balance (into `seg.wPrimeBalance`): with CP along the ride (sim/capacity.ts) when
 * it varies, else the chosen model; null without CP and W′.
 */
function wPrimeOf(
  m: SimModel,
  rider: Rider,
  seg: SegmentSeries,
  done: number,
  opts: SimulationOptions,
): WPrimeSummary | CapacitySummary | null {
  if (rider.cpW === undefined || rider.wPrimeJ === undefined) return null
  if (capacityVaries(m)) {
    return wPrimeBalanceAlong(
      m,
      seg.power,
      seg.duration,
      done,
      rider.cpW,
      rider.wPrimeJ,
      seg.wPrimeBalance,
    )
  }
  const model = opts.wPrimeModel ?? 'skiba2015'
  return wPrimeBalance(
    seg.power,
    seg.duration,
    done,
    rider.cpW,
    rider.wPrimeJ,
    model,
    seg.wPrimeBalance,
  )
}

/**
 * A replayed segment ridden as recorded: in the recorded moving time (at the recorded mean speed;
 * with none recorded, at the entry speed or the minimum speed), leaving at that speed, or at
 * 0 m/s where the recording stopped. The energy balance does not hold on such a segment: the
 * recording's brakes, stops and dropouts are outside the model.
 */
function pinToRecording(
  m: SimModel,
  i: number,
  v0: number,
  power: number,
  recordedS: number,
  stopped: boolean,
  out: StepResult,
): void {
  const ds = m.ds[i]!
  const u = recordedS > 0 ? ds / recordedS : Math.max(v0, m.minSpeed, MIN_PIN_SPEED)
  out.vMean = u
  out.t = ds / u
  out.v1 = stopped ? 0 : Math.min(u, m.vEnv[i + 1]!)
  out.power = power
  out.brakeJ = 0
  out.status = STEP_CAPPED
}

/** Speed (m/s) of a pinned segment with no recorded moving time and no minimum speed. */
const MIN_PIN_SPEED = 1

/** Exit at exactly `v1` (speed pacing): power from the energy balance, brakes if it is negative. */
function holdExit(m: SimModel, i: number, v0: number, v1: number, out: StepResult): void {
  const ds = m.ds[i]!
  const u = m.mKE > 0 ? 0.5 * (v0 + v1) : v1
  const p = powerForSpeeds(m, i, v0, v1)
  out.v1 = v1
  out.vMean = u
  out.t = ds / u
  out.status = 0
  if (p >= 0) {
    out.power = p
    out.brakeJ = 0
  } else {
    out.power = 0
    out.brakeJ = -p * m.eta * out.t
  }
}

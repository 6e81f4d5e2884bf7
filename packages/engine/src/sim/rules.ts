// Rules a rider follows, whatever the plan asks (docs/engine/science.md §3.5): an easy start, coasting
// on steep descents and into braking points, a power cap on descents, and stretches with a power
// cap, a fixed power or a speed limit (feed zones, a neutral start, a climb ridden at a set power).
// They are part of the physics of the ride: the step applies them to the power the plan asks
// (sim/step.ts), so the simulation, the W′ balance and every search of the optimizer honour them,
// and the optimizer plans the rest of the course around them.
import type { Course } from '../course/types.ts'
import { G0 } from '../physics/constants.ts'
import type { SimModel } from './model.ts'
import { createStepResult, step } from './step.ts'
import { EngineInputError } from './validate.ts'

export interface RuleStretch {
  startM: number
  endM: number
  /** the most power the rider gives over the stretch (W) */
  maxPowerW?: number
  /** the power the rider holds over the stretch (W), whatever the plan */
  powerW?: number
  /** the speed the rider does not exceed over the stretch (m/s) */
  maxSpeedMps?: number
  label?: string
}

export interface RideRules {
  /** at most `maxCpFraction` of CP for the first `durationS` seconds */
  easyStart?: { durationS: number; maxCpFraction: number }
  /** no pedalling where the grade is steeper down than `descentGrade` (< 0), nor into braking */
  coast?: { descentGrade?: number; beforeBraking?: boolean }
  /** at most `powerW` where the grade is steeper down than `grade` (< 0) */
  descentCap?: { grade: number; powerW: number }
  stretches?: RuleStretch[]
}

/**
 * What the step applies: per segment the most power given (Infinity: no cap) and the power held
 * (NaN: the plan's). The coasting of a braking run-in is resolved against the speed envelope.
 */
export interface PowerRule {
  readonly cap: Float64Array
  readonly fixed: Float64Array
}

const inRange = (field: string, v: number | undefined, lo: number, hi: number): void => {
  if (v !== undefined && !(Number.isFinite(v) && v >= lo && v <= hi)) {
    throw new EngineInputError(field, `expected ${lo} to ${hi}, got ${v}`)
  }
}

/** Checks the rules' physical ranges; throws EngineInputError naming `rules.<field>`. */
export function validateRules(r: RideRules, courseM: number): void {
  if (r.easyStart) {
    inRange('rules.easy_start.duration_s', r.easyStart.durationS, 0, 14_400)
    inRange('rules.easy_start.max_cp_fraction', r.easyStart.maxCpFraction, 0.3, 1.2)
  }
  inRange('rules.coast.descent_grade', r.coast?.descentGrade, -0.3, 0)
  if (r.descentCap) {
    inRange('rules.descent_cap.grade', r.descentCap.grade, -0.3, 0)
    inRange('rules.descent_cap.power_w', r.descentCap.powerW, 0, 3000)
  }
  ;(r.stretches ?? []).forEach((s, k) => {
    const at = `rules.stretches[${k}]`
    inRange(`${at}.start_m`, s.startM, 0, courseM)
    inRange(`${at}.end_m`, s.endM, 0, courseM)
    if (!(s.endM > s.startM)) {
      throw new EngineInputError(
        `${at}.end_m`,
        `expected more than start_m ${s.startM}, got ${s.endM}`,
      )
    }
    inRange(`${at}.max_power_w`, s.maxPowerW, 0, 3000)
    inRange(`${at}.power_w`, s.powerW, 0, 3000)
    inRange(`${at}.max_speed_mps`, s.maxSpeedMps, 0.5, 30)
  })
}

const overlaps = (course: Course, i: number, s: RuleStretch): boolean => {
  const a = course.start[i]!
  const b = a + course.length[i]!
  // a segment belongs to the stretch when its middle lies inside
  const mid = 0.5 * (a + b)
  return mid >= s.startM && mid < s.endM
}

/**
 * The steady speed on segment i at crank power `powerW` (m/s; 0 where the rider would not move):
 * the force balance of sim/step.ts without acceleration, solved by bisection.
 */
export function steadySpeed(m: SimModel, i: number, powerW: number): number {
  const need = (u: number) => {
    const a = u + m.wPar[i]!
    const c = m.wPerp[i]!
    const va = Math.sqrt(a * a + c * c)
    const f =
      m.mass * G0 * (m.sinT[i]! + m.crr[i]! * m.cosT[i]!) +
      m.bA +
      m.bB * u +
      m.halfCda * m.rho[i]! * va * a
    return f * u - m.eta * powerW
  }
  let lo = 0
  let hi = 200
  if (need(1e-6) > 0) return 0
  for (let k = 0; k < 50; k++) {
    const mid = 0.5 * (lo + hi)
    if (need(mid) > 0) hi = mid
    else lo = mid
  }
  return lo
}

/** Speed limits of the stretches, folded into the envelope before its braking pass. */
export function applyRuleSpeeds(course: Course, rules: RideRules, vEnv: Float64Array): void {
  for (const s of rules.stretches ?? []) {
    if (s.maxSpeedMps === undefined) continue
    for (let i = 0; i < course.n; i++) {
      if (!overlaps(course, i, s)) continue
      if (s.maxSpeedMps < vEnv[i]!) vEnv[i] = s.maxSpeedMps
      if (s.maxSpeedMps < vEnv[i + 1]!) vEnv[i + 1] = s.maxSpeedMps
    }
  }
}

/**
 * The per-segment caps and held powers of the rules. `easyEndM`: where the easy start ends (the
 * distance its duration covers at its cap, see `easyStartEnd`); `model`: the ride without rules.
 */
export function powerRule(
  course: Course,
  rules: RideRules,
  cpW: number | undefined,
  easyEndM: number,
  model: SimModel,
): PowerRule | null {
  const vEnv = model.vEnv
  const n = course.n
  const cap = new Float64Array(n).fill(Infinity)
  const fixed = new Float64Array(n).fill(NaN)
  let any = false
  const capAt = (i: number, w: number) => {
    if (w < cap[i]!) cap[i] = w
    any = true
  }
  if (rules.easyStart && rules.easyStart.durationS > 0) {
    if (!(cpW && cpW > 0)) {
      throw new EngineInputError(
        'rules.easy_start',
        "expected the rider's CP (rider.cp_w), got none",
      )
    }
    const w = rules.easyStart.maxCpFraction * cpW
    for (let i = 0; i < n && course.start[i]! < easyEndM; i++) capAt(i, w)
  }
  const descentGrade = rules.coast?.descentGrade
  for (let i = 0; i < n; i++) {
    const g = course.grade[i]!
    if (rules.descentCap && g <= rules.descentCap.grade) capAt(i, rules.descentCap.powerW)
    if (descentGrade !== undefined && g <= descentGrade) capAt(i, 0)
    // the braking run-in: level or downhill road where the envelope falls toward a corner or a
    // speed limit below the steady speed of the segment at CP (or coasting, without a CP): a
    // rider riding there would brake, and what they pedal into it is braked away (uphill the
    // rider slows by itself, and stopping pedalling there costs more than it saves)
    if (
      rules.coast?.beforeBraking &&
      g <= 0 &&
      vEnv[i + 1]! < vEnv[i]! - 1e-9 &&
      steadySpeed(model, i, cpW ?? 0) > vEnv[i + 1]!
    ) {
      capAt(i, 0)
    }
  }
  for (const s of rules.stretches ?? []) {
    for (let i = 0; i < n; i++) {
      if (!overlaps(course, i, s)) continue
      if (s.maxPowerW !== undefined) capAt(i, s.maxPowerW)
      if (s.powerW !== undefined) {
        fixed[i] = s.powerW
        any = true
      }
    }
  }
  return any ? { cap, fixed } : null
}

/**
 * Where an easy start of `durationS` at `powerW` ends: the distance a ride at that power from
 * `v0` covers in that time (the plan rides at the cap there, or below it downhill, so the
 * stretch is the first `durationS` of the ride as planned). The model has no rules yet.
 */
export function easyStartEnd(
  model: SimModel,
  course: Course,
  powerW: number,
  durationS: number,
  v0: number,
): number {
  const out = createStepResult()
  let t = 0
  let v = v0
  for (let i = 0; i < model.n; i++) {
    step(model, i, v, powerW, out)
    if (!Number.isFinite(out.t)) return course.start[i]!
    if (t + out.t >= durationS)
      return course.start[i]! + course.length[i]! * ((durationS - t) / out.t)
    t += out.t
    v = out.v1
  }
  return Infinity
}

export type RuleStretchKind = 'coast' | 'cap' | 'fixed'

/**
 * The stretches where a rule holds the power, consecutive segments of one kind and power merged:
 * what the race sheet lists beside the targets ("coast km 12.3–12.4").
 */
export function ruleStretches(
  course: Course,
  rule: PowerRule | null,
): { startM: number; endM: number; kind: RuleStretchKind; powerW: number }[] {
  const out: { startM: number; endM: number; kind: RuleStretchKind; powerW: number }[] = []
  if (!rule) return out
  for (let i = 0; i < course.n; i++) {
    const f = rule.fixed[i]!
    const c = rule.cap[i]!
    if (!(f >= 0) && c === Infinity) continue
    const kind: RuleStretchKind = f >= 0 ? 'fixed' : c === 0 ? 'coast' : 'cap'
    const powerW = f >= 0 ? f : c
    const last = out.at(-1)
    const a = course.start[i]!
    const b = a + course.length[i]!
    if (last && last.kind === kind && last.powerW === powerW && Math.abs(last.endM - a) < 1e-6) {
      last.endM = b
    } else out.push({ startM: a, endM: b, kind, powerW })
  }
  return out
}

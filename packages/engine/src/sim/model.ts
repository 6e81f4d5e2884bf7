// Model inputs (rider, environment, options) and their preparation into per-segment arrays that
// the step function reads. Preparation runs once per (course, rider, environment, options); the
// optimizer then calls `step` many times on the same prepared model.
import { stretchCover } from '../course/stretches.ts'
import type { Course } from '../course/types.ts'
import { airDensityAtAltitude, isaDensity, isaPressurePa } from '../physics/air.ts'
import { AASHTO_BRAKING_MPS2, DEFAULT_LATERAL_MU, MARTIN } from '../physics/constants.ts'
import { brakingDeceleration, corneringSpeedLimit } from '../physics/cornering.ts'
import { applyAirSegments, validateAirSegments } from '../weather/air-segments.ts'
import type { AirSegment } from '../weather/air-segments.ts'
import { staticCapacity, type RiderLevel } from './capacity.ts'
import { applyRuleSpeeds, easyStartEnd, powerRule, validateRules } from './rules.ts'
import type { PowerRule, RideRules } from './rules.ts'
import type { RiderPosition } from './positions.ts'

export interface Rider {
  /** Rider mass with kit (kg). */
  massKg: number
  bikeMassKg: number
  cdaM2: number
  crr: number
  drivetrainEfficiency: number
  /** Both wheels (kg·m²); default 0.14 (Martin 1998). */
  wheelInertiaKgM2?: number
  /** Default 0.311 m. */
  wheelRadiusM?: number
  /** Incremental drag area of the wheels' rotation (m²); default 0.0044. */
  spokeDragAreaM2?: number
  cpW?: number
  wPrimeJ?: number
  /**
   * Fraction of CP and W′ lost per 1,000 kJ of work done (e.g. 0.06); absent or 0: none
   * (sim/capacity.ts)
   */
  durability?: number
  /** Set when `durability` is the default for the rider's level (durabilityByLevel). */
  durabilityLevel?: RiderLevel
  /** Acclimatised to heat: a smaller loss of CP per degree above 17 °C (sim/capacity.ts) */
  heatAcclimatised?: boolean
  maxPowerW?: number
  /**
   * Riding positions with the speed ranges where each is ridden; each segment's drag area is the
   * position's CdA instead of `cdaM2` (sim/positions.ts). Absent: `cdaM2` everywhere.
   */
  positions?: RiderPosition[]
}

export interface Environment {
  /** Constant density; when given, temperature/pressure are ignored. */
  airDensityKgM3?: number
  temperatureC?: number
  /** Station pressure at `pressureAltitudeM` (default: the course start altitude). */
  pressurePa?: number
  /** 0..1 */
  relativeHumidity?: number
  pressureAltitudeM?: number
  windSpeedMps?: number
  /** Direction the wind blows FROM, degrees clockwise from north. */
  windFromDeg?: number
  /**
   * Wind on stretches of the course (distance from the start, m), replacing the course-wide wind
   * there; sorted and not overlapping. Applied by distance, so any segmentation of the same course
   * (the optimizer's coarse copy too) sees the same wind.
   */
  windSegments?: WindSegment[]
  /**
   * Air (temperature, station pressure at an altitude, humidity) on stretches of the course, e.g.
   * from a forecast (weather/): the density there follows from it instead of the course-wide air.
   */
  airSegments?: AirSegment[]
}

export interface WindSegment {
  startM: number
  endM: number
  speedMps: number
  /** Direction the wind blows FROM, degrees clockwise from north. */
  fromDeg: number
}

/** Switches for each Martin term and the limits of the forward simulation. */
export interface ModelOptions {
  aero?: boolean
  rolling?: boolean
  gravity?: boolean
  bearingLosses?: boolean
  /** Kinetic energy with wheel inertia; off = quasi-steady (speed jumps to each segment's steady speed). */
  kineticEnergy?: boolean
  /** Cornering speed caps and braking before them. */
  cornering?: boolean
  /** Lateral friction limit for cornering (default 0.6). */
  lateralMu?: number
  /** Level braking deceleration (m/s², default 3.4 AASHTO). */
  brakingDecelMps2?: number
  /** Rider's own speed cap, e.g. on descents (m/s, default none). */
  maxSpeedMps?: number
  /** Below this speed while slowing down, the rider is said to stall (m/s, default 1). */
  minSpeedMps?: number
  /** CP lowered by the air temperature along the course (sim/capacity.ts; default off). */
  heat?: boolean
  /** CP lowered by the altitude along the course (sim/capacity.ts; default off). */
  altitude?: boolean
  /** Rules the rider follows whatever the plan asks (sim/rules.ts). */
  rules?: RideRules
}

/**
 * Everything the step function needs, as flat arrays indexed by segment plus scalars.
 * Switched-off terms are folded in here (zero coefficients), so the hot loop has no branches.
 */
export interface SimModel {
  readonly n: number
  /** Along-road length (m) = length·√(1+G²): the distance the rider integrates over. */
  readonly ds: Float64Array
  /** sin θ and cos θ of the road angle (sin is 0 when gravity is off). */
  readonly sinT: Float64Array
  readonly cosT: Float64Array
  /** Air density at the segment's mid altitude (kg/m³). */
  readonly rho: Float64Array
  /** Wind along travel (+ = headwind) and across (+ = from the right), m/s. */
  readonly wPar: Float64Array
  readonly wPerp: Float64Array
  /** Absolute Crr of each segment (0 when rolling is off). */
  readonly crr: Float64Array
  /** n + 1 boundary speed caps (m/s) from cornering and braking; Infinity where free. */
  readonly vEnv: Float64Array
  /** Total mass m (kg), used by gravity and rolling. */
  readonly mass: number
  /** m + I/r² when kinetic energy is on, 0 when off (quasi-steady). */
  readonly mKE: number
  /** ½·(CdA + Fw), multiplied by ρ per segment (0 when aero is off). */
  readonly halfCda: number
  /** Bearing force F = bA + bB·v (N); zeros when off. */
  readonly bA: number
  readonly bB: number
  readonly eta: number
  readonly minSpeed: number
  /** CP factor of each segment from heat and altitude (sim/capacity.ts), null: 1 everywhere */
  readonly capacity: Float64Array | null
  /** fraction of CP and W′ lost per 10⁶ J of work (0: none) */
  readonly durability: number
  /**
   * The optimizer's frozen estimate of the work done before each segment (J), so durability is a
   * fixed factor per segment in its searches; null: the work actually done (the simulation)
   */
  readonly workBefore: Float64Array | null
  /** Caps and held powers of the rider's rules (sim/rules.ts), applied by the step; null: none */
  readonly rule: PowerRule | null
}

const positive = (v: number | undefined, d: number): number => (v === undefined ? d : v)

/** Air density at an altitude for the given environment. */
export function densityAt(
  env: Environment,
  altitudeM: number,
  courseStartAltitudeM: number,
): number {
  if (env.airDensityKgM3 !== undefined) return env.airDensityKgM3
  if (env.temperatureC === undefined) return isaDensity(altitudeM)
  const refAlt = env.pressureAltitudeM ?? courseStartAltitudeM
  return airDensityAtAltitude(
    {
      temperatureC: env.temperatureC,
      pressurePa: env.pressurePa ?? isaPressurePa(refAlt),
      relativeHumidity: env.relativeHumidity ?? 0,
      referenceAltitudeM: refAlt,
    },
    altitudeM,
  )
}

/**
 * Density as a function of altitude for one environment: exact values on a 1 m grid over the
 * course's altitude range, interpolated linearly (relative error < 1e-9; ρ changes by ~1e-4 per
 * metre), so long courses do not pay three powers per segment.
 */
function densityTable(
  env: Environment,
  course: Course,
  startAlt: number,
): (altitudeM: number) => number {
  if (env.airDensityKgM3 !== undefined) {
    const rho = env.airDensityKgM3
    return () => rho
  }
  let lo = Infinity
  let hi = -Infinity
  for (let i = 0; i <= course.n; i++) {
    const a = course.altitude[i]!
    if (a < lo) lo = a
    if (a > hi) hi = a
  }
  const base = Math.floor(lo)
  const size = Math.ceil(hi) - base + 2
  const table = new Float64Array(size)
  for (let k = 0; k < size; k++) table[k] = densityAt(env, base + k, startAlt)
  return (a: number): number => {
    const x = a - base
    const k = Math.min(size - 2, Math.max(0, Math.floor(x)))
    const f = x - k
    return table[k]! + f * (table[k + 1]! - table[k]!)
  }
}

/**
 * Wind per stretch: each segment gets the length-weighted mean of the along/across components
 * over the parts of it that each stretch (or the course-wide wind) covers. A segment inside one
 * stretch gets that stretch's wind exactly; one straddling a boundary gets the mix, which is what
 * a coarser copy of the course must see for its drag to match the fine course's.
 */
function applyWindSegments(
  course: Course,
  stretches: readonly WindSegment[],
  baseSpeed: number,
  baseFrom: number,
  wPar: Float64Array,
  wPerp: Float64Array,
): void {
  for (const { i, len, parts } of stretchCover(course, stretches)) {
    const h = course.heading[i]!
    let covered = 0
    let par = 0
    let perp = 0
    for (const [w, part] of parts) {
      const d = (w.fromDeg * Math.PI) / 180 - h
      par += part * w.speedMps * Math.cos(d)
      perp += part * w.speedMps * Math.sin(d)
      covered += part
    }
    const rest = Math.max(0, len - covered)
    const d = baseFrom - h
    wPar[i] = (par + rest * baseSpeed * Math.cos(d)) / len
    wPerp[i] = (perp + rest * baseSpeed * Math.sin(d)) / len
  }
}

export function prepareModel(
  course: Course,
  rider: Rider,
  env: Environment = {},
  opts: ModelOptions = {},
): SimModel {
  const n = course.n
  const ds = new Float64Array(n)
  const sinT = new Float64Array(n)
  const cosT = new Float64Array(n)
  const rho = new Float64Array(n)
  const wPar = new Float64Array(n)
  const wPerp = new Float64Array(n)
  const crr = new Float64Array(n)
  const vEnv = new Float64Array(n + 1)
  const gravityOn = opts.gravity !== false
  const rollingOn = opts.rolling !== false
  const windSpeed = env.windSpeedMps ?? 0
  const windFrom = ((env.windFromDeg ?? 0) * Math.PI) / 180
  const startAlt = course.altitude[0] ?? 0
  const rhoAt = densityTable(env, course, startAlt)
  for (let i = 0; i < n; i++) {
    const g = course.grade[i]!
    const sec = Math.sqrt(1 + g * g)
    ds[i] = course.length[i]! * sec
    sinT[i] = gravityOn ? g / sec : 0
    cosT[i] = 1 / sec
    rho[i] = rhoAt(0.5 * (course.altitude[i]! + course.altitude[i + 1]!))
    const d = windFrom - course.heading[i]!
    wPar[i] = windSpeed * Math.cos(d)
    wPerp[i] = windSpeed * Math.sin(d)
    crr[i] = rollingOn ? rider.crr * course.crrFactor[i]! : 0
  }
  if (env.windSegments && env.windSegments.length > 0) {
    applyWindSegments(course, env.windSegments, windSpeed, windFrom, wPar, wPerp)
  }
  if (env.airSegments && env.airSegments.length > 0) {
    validateAirSegments(env.airSegments)
    applyAirSegments(course, env.airSegments, rho)
  }
  // Speed envelope: per-segment caps, then a backward pass so the rider can brake in time.
  const corner = opts.cornering !== false
  const mu = opts.lateralMu ?? DEFAULT_LATERAL_MU
  const aLevel = opts.brakingDecelMps2 ?? AASHTO_BRAKING_MPS2
  const vUser = opts.maxSpeedMps ?? Infinity
  vEnv.fill(vUser)
  for (let i = 0; i < n; i++) {
    const cap = Math.min(vUser, corner ? corneringSpeedLimit(course.radius[i]!, mu) : Infinity)
    if (cap < vEnv[i]!) vEnv[i] = cap
    if (cap < vEnv[i + 1]!) vEnv[i + 1] = cap
  }
  if (opts.rules) {
    validateRules(opts.rules, course.start[n] ?? Infinity)
    applyRuleSpeeds(course, opts.rules, vEnv)
  }
  for (let i = n - 1; i >= 0; i--) {
    const next = vEnv[i + 1]!
    if (next === Infinity) continue
    const a = brakingDeceleration(aLevel, course.grade[i]!)
    const reach = Math.sqrt(next * next + 2 * a * ds[i]!)
    if (reach < vEnv[i]!) vEnv[i] = reach
  }
  const mass = rider.massKg + rider.bikeMassKg
  const inertia = positive(rider.wheelInertiaKgM2, MARTIN.wheelInertiaKgM2)
  const radius = positive(rider.wheelRadiusM, MARTIN.wheelRadiusM)
  const spoke = positive(rider.spokeDragAreaM2, MARTIN.spokeDragAreaM2)
  const bearings = opts.bearingLosses !== false
  const model: SimModel = {
    n,
    ds,
    sinT,
    cosT,
    rho,
    wPar,
    wPerp,
    crr,
    vEnv,
    mass,
    mKE: opts.kineticEnergy === false ? 0 : mass + inertia / (radius * radius),
    halfCda: opts.aero === false ? 0 : 0.5 * (rider.cdaM2 + spoke),
    bA: bearings ? MARTIN.bearingA : 0,
    bB: bearings ? MARTIN.bearingB : 0,
    eta: rider.drivetrainEfficiency,
    minSpeed: opts.minSpeedMps ?? 1,
    capacity: staticCapacity(course, rider, env, opts),
    durability: rider.durability ?? 0,
    workBefore: null,
    rule: null,
  }
  return opts.rules ? { ...model, rule: ruleOf(model, course, rider, opts) } : model
}

/** The rules' per-segment caps on a model without them (the easy start is ridden on it). */
function ruleOf(
  model: SimModel,
  course: Course,
  rider: Rider,
  opts: ModelOptions & { startSpeedMps?: number },
): PowerRule | null {
  const rules = opts.rules!
  const easy = rules.easyStart
  const easyEnd =
    easy && rider.cpW
      ? easyStartEnd(
          model,
          course,
          easy.maxCpFraction * rider.cpW,
          easy.durationS,
          Math.min(opts.startSpeedMps ?? 0, model.vEnv[0]!),
        )
      : 0
  return powerRule(course, rules, rider.cpW, easyEnd, model)
}

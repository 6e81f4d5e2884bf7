// Input validation, once at the entry: every message names the field, what was expected and
// what was given ("expected X, got Y").
import type { WindSegment } from './model.ts'
import type { RiderPosition } from './positions.ts'
import type { SimulationInput } from './simulate.ts'

export class EngineInputError extends Error {
  readonly code = 'invalid_input'
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`)
    this.name = 'EngineInputError'
  }
}

type Json = Record<string, unknown>

/** Reads a number field: `required` throws when it is absent. */
export type NumberAt = {
  (o: Json, key: string, path: string, required: true): number
  (o: Json, key: string, path: string, required?: boolean): number | undefined
}

/**
 * Readers of a JSON object's fields that name the field in their errors; `describe` says what a
 * wrong value was (the reader of each JSON form has its own way of showing it).
 */
export function jsonFields(describe: (v: unknown) => string): {
  obj: (v: unknown, field: string) => Json
  numberAt: NumberAt
  only: (o: Json, path: string, keys: readonly string[]) => void
} {
  function obj(v: unknown, field: string): Json {
    if (!v || typeof v !== 'object' || Array.isArray(v)) {
      throw new EngineInputError(field, `expected an object, got ${describe(v)}`)
    }
    return v as Json
  }
  function numberAt(o: Json, key: string, path: string, required = false): number | undefined {
    const v = o[key]
    if (v === undefined) {
      if (required) throw new EngineInputError(`${path}.${key}`, 'expected a number, got nothing')
      return undefined
    }
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      throw new EngineInputError(`${path}.${key}`, `expected a number, got ${describe(v)}`)
    }
    return v
  }
  function only(o: Json, path: string, keys: readonly string[]): void {
    for (const k of Object.keys(o)) {
      if (!keys.includes(k)) {
        throw new EngineInputError(
          `${path}.${k}`,
          `expected one of ${keys.join(', ')}, got an unknown field`,
        )
      }
    }
  }
  return { obj, numberAt: numberAt as NumberAt, only }
}

/**
 * A position's speed range at `at`: each bound, when given, a speed of 0–100 m/s checked by
 * `check` (the reader's own number check), the upper at least the lower (absent lower: 0).
 */
export function checkSpeedRange(
  at: string,
  [minName, maxName]: readonly [string, string],
  min: unknown,
  max: unknown,
  check: (field: string, v: unknown, lo: number, hi: number) => number,
): void {
  const lo = min === undefined ? 0 : check(`${at}.${minName}`, min, 0, 100)
  if (max !== undefined) {
    const hi = check(`${at}.${maxName}`, max, 0, 100)
    if (hi < lo) {
      throw new EngineInputError(
        `${at}.${maxName}`,
        `expected at least ${minName} (${lo}), got ${hi}`,
      )
    }
  }
}

const show = (v: unknown): string =>
  typeof v === 'number' ? String(v) : v === undefined ? 'nothing' : (JSON.stringify(v) ?? String(v))

export function requireNumber(
  field: string,
  v: unknown,
  min: number,
  max: number,
  minOpen = false,
): number {
  if (
    typeof v !== 'number' ||
    !Number.isFinite(v) ||
    v < min ||
    v > max ||
    (minOpen && v === min)
  ) {
    const lower = minOpen ? `> ${min}` : `≥ ${min}`
    throw new EngineInputError(field, `expected a number ${lower} and ≤ ${max}, got ${show(v)}`)
  }
  return v
}

function optionalNumber(
  field: string,
  v: unknown,
  min: number,
  max: number,
  minOpen = false,
): void {
  if (v !== undefined) requireNumber(field, v, min, max, minOpen)
}

/** Positions: 1–8, each a CdA and a speed range (min ≤ max). */
export function validatePositions(list: unknown): void {
  const path = 'rider.positions'
  if (!Array.isArray(list) || list.length === 0 || list.length > 8) {
    throw new EngineInputError(path, `expected 1 to 8 positions, got ${show(list)}`)
  }
  list.forEach((p: Partial<RiderPosition> | null, i) => {
    const at = `${path}[${i}]`
    if (!p || typeof p !== 'object') {
      throw new EngineInputError(
        at,
        `expected {cda_m2, min_speed_mps, max_speed_mps}, got ${show(p)}`,
      )
    }
    requireNumber(`${at}.cda_m2`, p.cdaM2, 0, 5)
    checkSpeedRange(
      at,
      ['min_speed_mps', 'max_speed_mps'],
      p.minSpeedMps,
      p.maxSpeedMps,
      requireNumber,
    )
    if (p.name !== undefined && typeof p.name !== 'string') {
      throw new EngineInputError(`${at}.name`, `expected a text, got ${show(p.name)}`)
    }
  })
}

/**
 * A stretch's `start_m` and `end_m` at `at`: the end after the start, the start at or after the
 * previous stretch's end. Returns the end.
 */
export function requireStretch(
  at: string,
  s: { startM?: unknown; endM?: unknown },
  prevEnd: number,
): number {
  const start = requireNumber(`${at}.start_m`, s.startM, 0, 1e7)
  const end = requireNumber(`${at}.end_m`, s.endM, 0, 1e7)
  if (!(end > start)) {
    throw new EngineInputError(`${at}.end_m`, `expected more than start_m (${start}), got ${end}`)
  }
  if (start < prevEnd) {
    throw new EngineInputError(
      `${at}.start_m`,
      `expected stretches sorted and not overlapping (≥ the previous end_m ${prevEnd}), got ${start}`,
    )
  }
  return end
}

/** Wind stretches: each end after its start, sorted, not overlapping, speed ≥ 0, 0–360°. */
export function validateWindSegments(list: unknown): void {
  const path = 'environment.wind_segments'
  if (!Array.isArray(list)) {
    throw new EngineInputError(path, `expected a list of stretches, got ${show(list)}`)
  }
  let prevEnd = -Infinity
  list.forEach((w: Partial<WindSegment> | null, i) => {
    const at = `${path}[${i}]`
    if (!w || typeof w !== 'object') {
      throw new EngineInputError(
        at,
        `expected {start_m, end_m, wind_speed_mps, wind_from_deg}, got ${show(w)}`,
      )
    }
    prevEnd = requireStretch(at, w, prevEnd)
    requireNumber(`${at}.wind_speed_mps`, w.speedMps, 0, 60)
    requireNumber(`${at}.wind_from_deg`, w.fromDeg, 0, 360)
  })
}

export function validateSimulationInput(input: SimulationInput): void {
  const { course, rider, environment: env, options: opts, pacing } = input
  if (!course || !(course.n > 0)) {
    throw new EngineInputError(
      'course',
      `expected at least one segment, got ${course ? course.n : 'nothing'}`,
    )
  }
  for (let i = 0; i < course.n; i++) {
    requireNumber(`course.segments[${i}].length_m`, course.length[i], 0, 1e6, true)
    requireNumber(`course.segments[${i}].grade`, course.grade[i], -1, 1)
    const r = course.radius[i]!
    if (!(r > 0))
      throw new EngineInputError(`course.segments[${i}].radius_m`, `expected > 0, got ${r}`)
    requireNumber(`course.segments[${i}].crr_factor`, course.crrFactor[i], 0, 100)
  }
  requireNumber('rider.mass_kg', rider.massKg, 0, 500, true)
  requireNumber('rider.bike_mass_kg', rider.bikeMassKg, 0, 200)
  requireNumber('rider.cda_m2', rider.cdaM2, 0, 5)
  requireNumber('rider.crr', rider.crr, 0, 0.5)
  requireNumber('rider.drivetrain_efficiency', rider.drivetrainEfficiency, 0, 1, true)
  optionalNumber('rider.wheel_inertia_kg_m2', rider.wheelInertiaKgM2, 0, 10)
  optionalNumber('rider.wheel_radius_m', rider.wheelRadiusM, 0, 2, true)
  optionalNumber('rider.spoke_drag_area_m2', rider.spokeDragAreaM2, 0, 1)
  optionalNumber('rider.cp_w', rider.cpW, 0, 3000, true)
  optionalNumber('rider.w_prime_j', rider.wPrimeJ, 0, 1e6, true)
  optionalNumber('rider.max_power_w', rider.maxPowerW, 0, 5000)
  // the study behind durability measured −10 ± 6.5 % per 1,000 kJ; 0.5 is far beyond any rider
  optionalNumber('rider.durability', rider.durability, 0, 0.5)
  if (rider.positions !== undefined) validatePositions(rider.positions)
  if ((rider.cpW === undefined) !== (rider.wPrimeJ === undefined)) {
    throw new EngineInputError(
      'rider.w_prime_j',
      'expected cp_w and w_prime_j together, got only one',
    )
  }
  if (env) {
    optionalNumber('environment.air_density_kg_m3', env.airDensityKgM3, 0, 3, true)
    optionalNumber('environment.temperature_c', env.temperatureC, -60, 60)
    optionalNumber('environment.pressure_pa', env.pressurePa, 30000, 120000)
    optionalNumber('environment.relative_humidity', env.relativeHumidity, 0, 1)
    optionalNumber('environment.pressure_altitude_m', env.pressureAltitudeM, -500, 9000)
    optionalNumber('environment.wind_speed_mps', env.windSpeedMps, 0, 60)
    optionalNumber('environment.wind_from_deg', env.windFromDeg, -360, 360)
    if (env.windSegments !== undefined) validateWindSegments(env.windSegments)
    if (
      env.pressurePa !== undefined &&
      env.temperatureC === undefined &&
      env.airDensityKgM3 === undefined
    ) {
      throw new EngineInputError(
        'environment.temperature_c',
        'expected a temperature with pressure_pa, got nothing',
      )
    }
  }
  if (opts) {
    optionalNumber('options.start_speed_mps', opts.startSpeedMps, 0, 40)
    optionalNumber('options.lateral_mu', opts.lateralMu, 0, 2, true)
    optionalNumber('options.braking_decel_mps2', opts.brakingDecelMps2, 0, 15, true)
    optionalNumber('options.max_speed_mps', opts.maxSpeedMps, 0, 100, true)
    optionalNumber('options.min_speed_mps', opts.minSpeedMps, 0, 10)
    const varies = (rider.durability ?? 0) > 0 || opts.heat === true || opts.altitude === true
    if (varies && opts.wPrimeModel === 'skiba2012') {
      throw new EngineInputError(
        'options.w_prime_model',
        'durability, heat and altitude change CP along the ride: expected "skiba2015", got "skiba2012"',
      )
    }
  }
  switch (pacing?.type) {
    case 'constant':
      requireNumber('pacing.power_w', pacing.powerW, 0, 5000)
      break
    case 'plan': {
      const p = pacing.powerW
      if (!p || p.length !== course.n) {
        throw new EngineInputError(
          'pacing.power_w',
          `expected one power per course segment (${course.n}), got ${p ? p.length : 'nothing'}`,
        )
      }
      for (let i = 0; i < p.length; i++) requireNumber(`pacing.power_w[${i}]`, p[i], 0, 5000)
      break
    }
    case 'speed':
      requireNumber('pacing.speed_mps', pacing.speedMps, 0, 40, true)
      break
    case 'recorded': {
      const series: [string, ArrayLike<number> | undefined, number][] = [
        ['pacing.power_w', pacing.powerW, 5000],
        ['pacing.moving_time_s', pacing.movingTimeS, 1e6],
        ['pacing.stationary_time_s', pacing.stationaryTimeS, 1e6],
      ]
      for (const [field, a, max] of series) {
        if (a === undefined && field === 'pacing.stationary_time_s') continue
        if (!a || a.length !== course.n) {
          throw new EngineInputError(
            field,
            `expected one value per course segment (${course.n}), got ${a ? a.length : 'nothing'}`,
          )
        }
        for (let i = 0; i < a.length; i++) requireNumber(`${field}[${i}]`, a[i], 0, max)
      }
      break
    }
    default:
      throw new EngineInputError(
        'pacing.type',
        `expected "constant", "plan", "speed" or "recorded", got ${show((pacing as { type?: unknown } | undefined)?.type)}`,
      )
  }
}

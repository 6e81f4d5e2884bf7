// The scenario JSON (snake_case, SI units in the names) ↔ the engine's simulation input and result.
// Pure: a `course.file` is loaded by the caller through the `loadCourse` callback.
import type { Course } from './course/types.ts'
import { courseFromSegments, SURFACE_CRR_FACTOR } from './course/types.ts'
import type { Environment, Rider, WindSegment } from './sim/model.ts'
import type {
  Pacing,
  SimulationInput,
  SimulationOptions,
  SimulationResult,
} from './sim/simulate.ts'
import type { RiderPosition } from './sim/positions.ts'
import type { RecordedSegments, ReplaySummary } from './sim/recorded.ts'
import {
  EngineInputError,
  jsonFields,
  validatePositions,
  validateWindSegments,
} from './sim/validate.ts'
import { validateAirSegments } from './weather/air-segments.ts'
import { parseRules } from './scenario-rules.ts'
import { durabilityByLevel } from './sim/capacity.ts'
import type { AirSegment } from './weather/air-segments.ts'

type Json = Record<string, unknown>

const kind = (v: unknown): string =>
  v === null
    ? 'null'
    : Array.isArray(v)
      ? 'an array'
      : typeof v === 'object'
        ? 'an object'
        : JSON.stringify(v)

const { obj, numberAt, only } = jsonFields((v) => (v === undefined ? 'nothing' : kind(v)))

function boolAt(o: Json, key: string, path: string): boolean | undefined {
  const v = o[key]
  if (v === undefined) return undefined
  if (typeof v !== 'boolean')
    throw new EngineInputError(`${path}.${key}`, `expected true or false, got ${kind(v)}`)
  return v
}

const RIDER_KEYS = [
  'mass_kg',
  'bike_mass_kg',
  'cda_m2',
  'crr',
  'drivetrain_efficiency',
  'wheel_inertia_kg_m2',
  'wheel_radius_m',
  'spoke_drag_area_m2',
  'cp_w',
  'w_prime_j',
  'max_power_w',
  'positions',
  'durability',
  'heat_acclimatised',
] as const
const POSITION_KEYS = ['name', 'cda_m2', 'min_speed_mps', 'max_speed_mps'] as const
const ENV_KEYS = [
  'air_density_kg_m3',
  'temperature_c',
  'pressure_pa',
  'relative_humidity',
  'pressure_altitude_m',
  'wind_speed_mps',
  'wind_from_deg',
  'wind_segments',
  'air_segments',
] as const
const AIR_SEGMENT_KEYS = [
  'start_m',
  'end_m',
  'temperature_c',
  'pressure_pa',
  'relative_humidity',
  'altitude_m',
] as const
const WIND_SEGMENT_KEYS = ['start_m', 'end_m', 'wind_speed_mps', 'wind_from_deg'] as const
const OPTION_KEYS = [
  'kinetic_energy',
  'bearing_losses',
  'cornering',
  'aero',
  'rolling',
  'gravity',
  'start_speed_mps',
  'lateral_mu',
  'braking_decel_mps2',
  'max_speed_mps',
  'min_speed_mps',
  'w_prime_model',
  'heat',
  'altitude',
] as const

/** Course from the scenario's `segments` form. */
function segmentsCourse(c: Json): Course {
  const segs = c.segments
  if (!Array.isArray(segs) || segs.length === 0) {
    throw new EngineInputError('course.segments', `expected a non-empty array, got ${kind(segs)}`)
  }
  const start = numberAt(c, 'start_altitude_m', 'course') ?? 0
  return courseFromSegments(
    segs.map((s: unknown, i) => {
      const path = `course.segments[${i}]`
      const o = obj(s, path)
      only(o, path, ['length_m', 'grade', 'heading_deg', 'surface', 'radius_m'])
      const surface = o.surface
      let crrFactor = 1
      if (surface !== undefined) {
        const f = typeof surface === 'string' ? SURFACE_CRR_FACTOR[surface] : undefined
        if (f === undefined) {
          throw new EngineInputError(
            `${path}.surface`,
            `expected one of ${Object.keys(SURFACE_CRR_FACTOR).join(', ')}, got ${kind(surface)}`,
          )
        }
        crrFactor = f
      }
      return {
        lengthM: numberAt(o, 'length_m', path, true),
        grade: numberAt(o, 'grade', path, true),
        headingDeg: numberAt(o, 'heading_deg', path),
        radiusM: numberAt(o, 'radius_m', path),
        crrFactor,
      }
    }),
    start,
  )
}

/** The list at `path`: each item an object with only `keys`, read by `read` (given its path). */
function objectsOf<T>(
  v: unknown,
  path: string,
  keys: readonly string[],
  read: (o: Json, at: string) => T,
): T[] {
  if (!Array.isArray(v)) throw new EngineInputError(path, `expected an array, got ${kind(v)}`)
  return v.map((item: unknown, i) => {
    const at = `${path}[${i}]`
    const o = obj(item, at)
    only(o, at, keys)
    return read(o, at)
  })
}

/** `rider.positions`: [{name?, cda_m2, min_speed_mps?, max_speed_mps?}]. */
function positionsOf(v: unknown): RiderPosition[] {
  return objectsOf(v, 'rider.positions', POSITION_KEYS, (o, at) => {
    if (o.name !== undefined && typeof o.name !== 'string') {
      throw new EngineInputError(`${at}.name`, `expected a text, got ${kind(o.name)}`)
    }
    const p: RiderPosition = { cdaM2: numberAt(o, 'cda_m2', at, true) }
    if (o.name !== undefined) p.name = o.name as string
    const lo = numberAt(o, 'min_speed_mps', at)
    const hi = numberAt(o, 'max_speed_mps', at)
    if (lo !== undefined) p.minSpeedMps = lo
    if (hi !== undefined) p.maxSpeedMps = hi
    return p
  })
}

/** `environment.wind_segments`: [{start_m, end_m, wind_speed_mps, wind_from_deg}]. */
function windSegmentsOf(v: unknown): WindSegment[] {
  return objectsOf(v, 'environment.wind_segments', WIND_SEGMENT_KEYS, (o, at) => ({
    startM: numberAt(o, 'start_m', at, true),
    endM: numberAt(o, 'end_m', at, true),
    speedMps: numberAt(o, 'wind_speed_mps', at, true),
    fromDeg: numberAt(o, 'wind_from_deg', at, true),
  }))
}

/** `environment.air_segments`: [{start_m, end_m, temperature_c, pressure_pa, relative_humidity, altitude_m}]. */
function airSegmentsOf(v: unknown): AirSegment[] {
  return objectsOf(v, 'environment.air_segments', AIR_SEGMENT_KEYS, (o, at) => ({
    startM: numberAt(o, 'start_m', at, true),
    endM: numberAt(o, 'end_m', at, true),
    temperatureC: numberAt(o, 'temperature_c', at, true),
    pressurePa: numberAt(o, 'pressure_pa', at, true),
    relativeHumidity: numberAt(o, 'relative_humidity', at, true),
    altitudeM: numberAt(o, 'altitude_m', at, true),
  }))
}

/** What `loadCourse` may return for a recorded ride: the course and, when the file records
 * power, the recording cut into its segments (needed by `pacing: {type: "recorded"}`). */
export interface LoadedCourse {
  course: Course
  recorded?: RecordedSegments | null
}

export interface ParsedScenario {
  input: SimulationInput
  /** True when the course came from explicit segments (one output segment per input segment). */
  explicitSegments: boolean
}

/**
 * Scenario JSON → simulation input. `loadCourse(file)` resolves `course.file` (the CLI reads it
 * relative to the scenario). Throws EngineInputError naming the field.
 */
/** `rider.durability`: a number, or "by_level" for the default of the rider's level. */
function durabilityOf(r: Json): Pick<Rider, 'durability' | 'durabilityLevel'> {
  if (r.durability !== 'by_level') return { durability: numberAt(r, 'durability', 'rider') }
  const cp = numberAt(r, 'cp_w', 'rider')
  const mass = numberAt(r, 'mass_kg', 'rider', true)
  if (cp === undefined) {
    throw new EngineInputError('rider.durability', 'expected cp_w to read the level from, got none')
  }
  const d = durabilityByLevel(cp, mass)
  return { durability: d.durability, durabilityLevel: d.level }
}

export function parseScenario(
  json: unknown,
  loadCourse?: (file: string) => Course | LoadedCourse,
): ParsedScenario {
  const root = obj(json, 'scenario')
  only(root, 'scenario', [
    'course',
    'rider',
    'environment',
    'options',
    'pacing',
    'rules',
    'name',
    'description',
  ])
  const c = obj(root.course, 'course')
  let course: Course
  let recorded: RecordedSegments | null = null
  let explicitSegments = false
  if (c.file !== undefined) {
    only(c, 'course', ['file'])
    if (typeof c.file !== 'string' || c.file === '') {
      throw new EngineInputError('course.file', `expected a file path, got ${kind(c.file)}`)
    }
    if (!loadCourse)
      throw new EngineInputError('course.file', 'expected segments here: files cannot be read')
    const loaded = loadCourse(c.file)
    if ('course' in loaded) {
      course = loaded.course
      recorded = loaded.recorded ?? null
    } else {
      course = loaded
    }
  } else {
    only(c, 'course', ['segments', 'start_altitude_m'])
    course = segmentsCourse(c)
    explicitSegments = true
  }
  const r = obj(root.rider, 'rider')
  only(r, 'rider', RIDER_KEYS)
  const rider: Rider = {
    massKg: numberAt(r, 'mass_kg', 'rider', true),
    bikeMassKg: numberAt(r, 'bike_mass_kg', 'rider', true),
    cdaM2: numberAt(r, 'cda_m2', 'rider', true),
    crr: numberAt(r, 'crr', 'rider', true),
    drivetrainEfficiency: numberAt(r, 'drivetrain_efficiency', 'rider', true),
    wheelInertiaKgM2: numberAt(r, 'wheel_inertia_kg_m2', 'rider'),
    wheelRadiusM: numberAt(r, 'wheel_radius_m', 'rider'),
    spokeDragAreaM2: numberAt(r, 'spoke_drag_area_m2', 'rider'),
    cpW: numberAt(r, 'cp_w', 'rider'),
    wPrimeJ: numberAt(r, 'w_prime_j', 'rider'),
    maxPowerW: numberAt(r, 'max_power_w', 'rider'),
    ...durabilityOf(r),
    heatAcclimatised: boolAt(r, 'heat_acclimatised', 'rider'),
  }
  if (r.positions !== undefined) {
    rider.positions = positionsOf(r.positions)
    validatePositions(rider.positions)
  }
  const e = root.environment === undefined ? {} : obj(root.environment, 'environment')
  only(e, 'environment', ENV_KEYS)
  const environment: Environment = {
    airDensityKgM3: numberAt(e, 'air_density_kg_m3', 'environment'),
    temperatureC: numberAt(e, 'temperature_c', 'environment'),
    pressurePa: numberAt(e, 'pressure_pa', 'environment'),
    relativeHumidity: numberAt(e, 'relative_humidity', 'environment'),
    pressureAltitudeM: numberAt(e, 'pressure_altitude_m', 'environment'),
    windSpeedMps: numberAt(e, 'wind_speed_mps', 'environment'),
    windFromDeg: numberAt(e, 'wind_from_deg', 'environment'),
  }
  if (e.wind_segments !== undefined) {
    environment.windSegments = windSegmentsOf(e.wind_segments)
    validateWindSegments(environment.windSegments)
  }
  if (e.air_segments !== undefined) {
    environment.airSegments = airSegmentsOf(e.air_segments)
    validateAirSegments(environment.airSegments)
  }
  if (environment.airDensityKgM3 === undefined && environment.temperatureC === undefined) {
    throw new EngineInputError(
      'environment',
      'expected air_density_kg_m3 or temperature_c (+ pressure_pa, relative_humidity), got neither',
    )
  }
  const o = root.options === undefined ? {} : obj(root.options, 'options')
  only(o, 'options', OPTION_KEYS)
  const model = o.w_prime_model
  if (model !== undefined && model !== 'skiba2015' && model !== 'skiba2012') {
    throw new EngineInputError(
      'options.w_prime_model',
      `expected "skiba2015" or "skiba2012", got ${kind(model)}`,
    )
  }
  const options: SimulationOptions = {
    kineticEnergy: boolAt(o, 'kinetic_energy', 'options'),
    bearingLosses: boolAt(o, 'bearing_losses', 'options'),
    cornering: boolAt(o, 'cornering', 'options'),
    aero: boolAt(o, 'aero', 'options'),
    rolling: boolAt(o, 'rolling', 'options'),
    gravity: boolAt(o, 'gravity', 'options'),
    startSpeedMps: numberAt(o, 'start_speed_mps', 'options'),
    lateralMu: numberAt(o, 'lateral_mu', 'options'),
    brakingDecelMps2: numberAt(o, 'braking_decel_mps2', 'options'),
    maxSpeedMps: numberAt(o, 'max_speed_mps', 'options'),
    minSpeedMps: numberAt(o, 'min_speed_mps', 'options'),
    wPrimeModel: model as SimulationOptions['wPrimeModel'],
    heat: boolAt(o, 'heat', 'options'),
    altitude: boolAt(o, 'altitude', 'options'),
  }
  const rules = parseRules(root.rules)
  if (rules) options.rules = rules
  const p = obj(root.pacing, 'pacing')
  let pacing: Pacing
  switch (p.type) {
    case 'constant':
      only(p, 'pacing', ['type', 'power_w'])
      pacing = { type: 'constant', powerW: numberAt(p, 'power_w', 'pacing', true) }
      break
    case 'plan': {
      only(p, 'pacing', ['type', 'power_w'])
      const list = p.power_w
      if (!Array.isArray(list))
        throw new EngineInputError('pacing.power_w', `expected an array, got ${kind(list)}`)
      pacing = { type: 'plan', powerW: list as number[] }
      break
    }
    case 'speed':
      only(p, 'pacing', ['type', 'speed_mps'])
      pacing = { type: 'speed', speedMps: numberAt(p, 'speed_mps', 'pacing', true) }
      break
    case 'recorded':
      // The course file's own power, segment by segment (sim/recorded.ts).
      only(p, 'pacing', ['type'])
      if (!recorded) {
        throw new EngineInputError(
          'pacing.type',
          `expected a course file that records power for "recorded", got ${
            c.file === undefined ? 'explicit segments' : `${JSON.stringify(c.file)} without power`
          }`,
        )
      }
      pacing = { type: 'recorded', ...recorded }
      break
    default:
      throw new EngineInputError(
        'pacing.type',
        `expected "constant", "plan", "speed" or "recorded", got ${kind(p.type)}`,
      )
  }
  return { input: { course, rider, environment, options, pacing }, explicitSegments }
}

const round = (v: number, digits: number): number => {
  const f = 10 ** digits
  return Math.round(v * f) / f
}

/** Simulation result → the scenario output JSON (snake_case). */
export function resultToJson(result: SimulationResult, course: Course): Json {
  const s = result.segments
  const segments: Json[] = []
  for (let i = 0; i < s.count; i++) {
    segments.push({
      start_m: round(course.start[i]!, 3),
      end_m: round(course.start[i + 1]!, 3),
      grade: round(course.grade[i]!, 6),
      power_w: round(s.power[i]!, 2),
      speed_mps: round(s.speed[i]!, 4),
      air_speed_mps: round(s.airSpeed[i]!, 4),
      yaw_deg: round(s.yawDeg[i]!, 3),
      time_s: round(s.time[i]!, 3),
      w_prime_balance_j: result.minWPrimeBalanceJ === null ? null : round(s.wPrimeBalance[i]!, 1),
    })
  }
  const opt = (v: number | null, d: number): number | null => (v === null ? null : round(v, d))
  const positions = result.segmentPosition
    ? { segment_position: Array.from(result.segmentPosition.subarray(0, s.count)) }
    : {}
  const replay = result.replay ? { replay: replayToJson(result.replay) } : {}
  return {
    status: result.status,
    message: result.message,
    stalled_at_m: result.stalledAtM,
    time_s: round(result.timeS, 3),
    distance_m: round(result.distanceM, 3),
    average_speed_mps: round(result.averageSpeedMps, 4),
    average_power_w: round(result.averagePowerW, 2),
    normalized_power_w: round(result.normalizedPowerW, 2),
    work_j: round(result.workJ, 1),
    min_w_prime_balance_j: opt(result.minWPrimeBalanceJ, 1),
    final_w_prime_balance_j: opt(result.finalWPrimeBalanceJ, 1),
    w_prime_exhausted_at_s: opt(result.wPrimeExhaustedAtS, 2),
    ...(result.finishCpW !== undefined ? { finish_cp_w: round(result.finishCpW, 1) } : {}),
    energy_j: {
      crank: round(result.energy.crankJ, 1),
      drivetrain_loss: round(result.energy.drivetrainLossJ, 1),
      aero: round(result.energy.aeroJ, 1),
      rolling: round(result.energy.rollingJ, 1),
      bearings: round(result.energy.bearingJ, 1),
      potential: round(result.energy.potentialJ, 1),
      kinetic: round(result.energy.kineticJ, 1),
      braking: round(result.energy.brakingJ, 1),
    },
    segments,
    ...positions,
    ...replay,
  }
}

/** Predicted vs recorded moving time (pacing 'recorded') → snake_case JSON. */
function replayToJson(r: ReplaySummary): Json {
  const pct = (v: number | null): number | null => (v === null ? null : round(v, 2))
  return {
    predicted_moving_time_s: round(r.predictedMovingTimeS, 1),
    recorded_moving_time_s: round(r.recordedMovingTimeS, 1),
    stationary_time_s: round(r.stationaryTimeS, 1),
    error_pct: round(r.errorPct, 2),
    pinned_segments: r.pinnedSegments,
    pinned_distance_m: round(r.pinnedDistanceM, 1),
    pinned_time_s: round(r.pinnedTimeS, 1),
    average_power_w: round(r.averagePowerW, 1),
    per_km: r.perKm.map((k) => ({
      start_m: round(k.startM, 1),
      end_m: round(k.endM, 1),
      predicted_s: round(k.predictedS, 1),
      recorded_s: round(k.recordedS, 1),
      error_pct: pct(k.errorPct),
    })),
  }
}

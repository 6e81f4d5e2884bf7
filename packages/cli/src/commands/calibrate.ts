// `veloptima calibrate SCENARIO.json`: the rider's effective CdA and Crr (and a constant wind where
// the route allows) from a recorded ride with power. The scenario (snake_case) names the ride
// (relative to the scenario), the rider and bike masses, the drivetrain efficiency and the air as
// in `simulate`; the command prints the fitted values with 95 % intervals, the samples used and
// left out (by reason) and the replay of the ride with them (predicted vs recorded moving time).
// `weather` names a JSON file with the ride's historical weather (the answer of POST
// /api/weather/history, or a bare Forecast): the fit and the replay then use its wind and air.
// The replay rides the course with the elevation drift the energy fit finds taken out
// (`closure_elevation`: "energy", the default; "recorded" replays the recorded elevation).
// A file without power exits with 2, naming the file.
import { dirname, resolve } from 'node:path'
import {
  calibrateRecordedRide,
  calibrateRide,
  compareReplay,
  EngineInputError,
  validateForecast,
} from '@veloptima/engine'
import type {
  Environment,
  Forecast,
  RecordedRide,
  RideCalibration,
  RideCalibrationInput,
  RideCalibrationReport,
} from '@veloptima/engine'
import { importCourse, readActivity, recordedRide } from '@veloptima/formats'
import { printJson, UsageError } from '../args.ts'
import { readScenarioFile } from '../scenario-file.ts'
import { readBytes } from './course.ts'

const KEYS = [
  'file',
  'mass_kg',
  'bike_mass_kg',
  'drivetrain_efficiency',
  'environment',
  'crr',
  'fit_wind',
  'fit_from_m',
  'fit_to_m',
  'closure',
  'closure_elevation',
  'resamples',
  'seed',
  'chart',
  'weather',
] as const
const ENV_KEYS = [
  'air_density_kg_m3',
  'temperature_c',
  'pressure_pa',
  'relative_humidity',
  'pressure_altitude_m',
] as const

type Json = Record<string, unknown>

const show = (v: unknown): string =>
  v === undefined ? 'nothing' : typeof v === 'number' ? String(v) : JSON.stringify(v)

export interface CalibrateScenario {
  file: string
  input: RideCalibrationInput
  chart: boolean
  /** The ride's historical weather file (relative to the scenario), when given. */
  weather?: string
}

/** Reads and checks the scenario; every message names the file and the snake_case field. */
export function parseCalibrateScenario(source: string, raw: unknown): CalibrateScenario {
  const fail = (field: string, expected: string, got: unknown): never => {
    throw new UsageError(`${source}: ${field}: expected ${expected}, got ${show(got)}`)
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) fail('scenario', 'an object', raw)
  const o = raw as Json
  for (const k of Object.keys(o)) {
    if (!(KEYS as readonly string[]).includes(k))
      fail(k, `no such field (known: ${KEYS.join(', ')})`, o[k])
  }
  const num = (obj: Json, key: string, path: string, min: number, max: number) => {
    const v = obj[key]
    if (v === undefined) return undefined
    if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max)
      fail(path, `a number from ${min} to ${max}`, v)
    return v as number
  }
  const bool = (key: string) => {
    const v = o[key]
    if (v === undefined) return undefined
    if (typeof v !== 'boolean') fail(key, 'true or false', v)
    return v as boolean
  }
  if (typeof o.file !== 'string' || o.file.trim() === '')
    fail('file', 'the ride file (FIT, TCX, GPX, GoldenCheetah JSON or CSV with power)', o.file)
  const massKg = num(o, 'mass_kg', 'mass_kg', 20, 250)
  if (massKg === undefined) fail('mass_kg', 'the rider mass with kit in kg', undefined)
  const bikeMassKg = num(o, 'bike_mass_kg', 'bike_mass_kg', 0, 60)
  if (bikeMassKg === undefined) fail('bike_mass_kg', 'the bike mass in kg', undefined)
  const input: RideCalibrationInput = { massKg: massKg!, bikeMassKg: bikeMassKg! }
  const eta = num(o, 'drivetrain_efficiency', 'drivetrain_efficiency', 0.5, 1)
  if (eta !== undefined) input.drivetrainEfficiency = eta
  if (o.environment !== undefined) {
    const e = o.environment as Json
    if (!e || typeof e !== 'object' || Array.isArray(e))
      fail('environment', '{air_density_kg_m3} or {temperature_c, pressure_pa?, …}', e)
    for (const k of Object.keys(e)) {
      if (!(ENV_KEYS as readonly string[]).includes(k))
        fail(`environment.${k}`, `no such field (known: ${ENV_KEYS.join(', ')})`, e[k])
    }
    const env: Environment = {}
    const rho = num(e, 'air_density_kg_m3', 'environment.air_density_kg_m3', 0.5, 1.6)
    if (rho !== undefined) env.airDensityKgM3 = rho
    const t = num(e, 'temperature_c', 'environment.temperature_c', -40, 55)
    if (t !== undefined) env.temperatureC = t
    const p = num(e, 'pressure_pa', 'environment.pressure_pa', 30_000, 110_000)
    if (p !== undefined) env.pressurePa = p
    const rh = num(e, 'relative_humidity', 'environment.relative_humidity', 0, 1)
    if (rh !== undefined) env.relativeHumidity = rh
    const pa = num(e, 'pressure_altitude_m', 'environment.pressure_altitude_m', -500, 9000)
    if (pa !== undefined) env.pressureAltitudeM = pa
    input.environment = env
  }
  const crr = num(o, 'crr', 'crr', 0, 0.05)
  if (crr !== undefined) input.crr = crr
  const fitWind = bool('fit_wind')
  if (fitWind !== undefined) input.fitWind = fitWind
  const from = num(o, 'fit_from_m', 'fit_from_m', 0, 1e7)
  if (from !== undefined) input.fromM = from
  const to = num(o, 'fit_to_m', 'fit_to_m', 0, 1e7)
  if (to !== undefined) {
    if (!(to > (from ?? 0))) fail('fit_to_m', `more than fit_from_m (${from ?? 0})`, to)
    input.toM = to
  }
  const closure = bool('closure')
  if (closure !== undefined) input.closure = closure
  if (o.closure_elevation !== undefined) {
    if (o.closure_elevation !== 'recorded' && o.closure_elevation !== 'energy')
      fail('closure_elevation', '"recorded" or "energy"', o.closure_elevation)
    input.closureElevation = o.closure_elevation as 'recorded' | 'energy'
  }
  const resamples = num(o, 'resamples', 'resamples', 0, 2000)
  if (resamples !== undefined) {
    if (!Number.isInteger(resamples)) fail('resamples', 'a whole number 0–2000', resamples)
    input.resamples = resamples
  }
  const seed = num(o, 'seed', 'seed', -1e15, 1e15)
  if (seed !== undefined) input.seed = seed
  if (o.weather !== undefined && (typeof o.weather !== 'string' || o.weather.trim() === ''))
    fail('weather', "the ride's weather file (the answer of POST /api/weather/history)", o.weather)
  return {
    file: o.file as string,
    input,
    chart: bool('chart') ?? false,
    ...(o.weather !== undefined ? { weather: o.weather as string } : {}),
  }
}

/**
 * The ride's historical weather from a JSON file: the answer of POST /api/weather/history
 * (`{status: "used", label, forecast}`) or a bare Forecast (`{points: [...]}`); every message
 * names the file.
 */
export function readWeatherFile(path: string, name: string): RideCalibrationInput['weather'] {
  let json: unknown
  try {
    json = JSON.parse(new TextDecoder().decode(readBytes(path)))
  } catch (e) {
    throw new UsageError(`${name}: not valid JSON (${(e as Error).message})`)
  }
  const o = (json ?? {}) as { status?: unknown; label?: unknown; forecast?: unknown }
  if (o.status !== undefined && o.status !== 'used')
    throw new UsageError(
      `${name}: expected weather that was had (status "used"), got ${show(o.status)}`,
    )
  const forecast = (o.forecast ?? json) as Forecast
  try {
    validateForecast(forecast)
  } catch (e) {
    if (e instanceof EngineInputError) throw new UsageError(`${name}: ${e.message}`)
    throw e
  }
  return {
    forecast,
    label: typeof o.label === 'string' ? o.label : (forecast.source ?? name),
  }
}

const round = (v: number, digits: number): number | null =>
  Number.isFinite(v) ? Math.round(v * 10 ** digits) / 10 ** digits : null
const pair = (p: [number, number], digits: number) => [round(p[0], digits), round(p[1], digits)]

function comparisonJson(r: {
  predictedTimeS: number
  recordedTimeS: number
  errorPct: number
  fromM: number
  toM: number
}) {
  return {
    predicted_time_s: round(r.predictedTimeS, 1),
    recorded_time_s: round(r.recordedTimeS, 1),
    error_pct: round(r.errorPct, 2),
    from_m: round(r.fromM, 0),
    to_m: round(r.toM, 0),
  }
}

/** The printed result (snake_case, SI). */
export function calibrationJson(
  file: string,
  c: RideCalibration | RideCalibrationReport,
  heldOut: ReturnType<typeof compareReplay> | null,
  chart: boolean,
) {
  const report = 'replay' in c ? c : null
  return {
    file,
    cda_m2: round(c.cdaM2.value, 4),
    cda_m2_ci95: pair(c.cdaM2.ci95, 4),
    crr: round(c.crr.value, 5),
    crr_ci95: pair(c.crr.ci95, 5),
    crr_fixed: c.crrFixed,
    ...(c.wind
      ? {
          wind_mps: round(c.wind.speedMps.value, 2),
          wind_mps_ci95: pair(c.wind.speedMps.ci95, 2),
          wind_from_deg: round(c.wind.fromDeg, 0),
        }
      : {}),
    samples_used: c.samplesUsed,
    excluded: c.excluded,
    replay: report ? comparisonJson(report.replay) : null,
    ...(heldOut ? { held_out: comparisonJson(heldOut) } : {}),
    energy_fit: report
      ? { cda_m2: round(report.energyFit.cdaM2, 4), crr: round(report.energyFit.crr, 5) }
      : { cda_m2: round(c.cdaM2.value, 4), crr: round(c.crr.value, 5) },
    closure_factor: report ? round(report.closureFactor, 4) : 1,
    elevation_drift_m: report ? round(report.elevationDriftM, 1) : null,
    ve_rmse_m: round(c.rmseM, 3),
    air_density_kg_m3: round(c.airDensity, 4),
    weather: c.weather
      ? {
          label: c.weather.label,
          wind_mps: round(c.weather.windSpeedMps, 2),
          wind_from_deg: round(c.weather.windFromDeg, 0),
          temperature_c: round(c.weather.temperatureC, 1),
          pressure_pa: round(c.weather.pressurePa, 0),
          relative_humidity: round(c.weather.relativeHumidity, 2),
        }
      : null,
    ...(chart
      ? {
          chart: {
            t_s: c.chart.t,
            elevation_m: c.chart.elevationM,
            virtual_elevation_m: c.chart.virtualM.map((v) => round(v, 3)),
            residual_m: c.chart.residualM.map((v) => round(v, 3)),
          },
        }
      : {}),
    warnings: c.warnings,
  }
}

/**
 * Calibrates on the ride named by the scenario: on its own course when the file has positions
 * (FIT, TCX, GPX: the replay rides that course), else on the raw samples without a replay.
 */
export function runCalibration(scenarioPath: string, raw: unknown) {
  const { file, input, chart, weather } = parseCalibrateScenario(scenarioPath, raw)
  const dir = scenarioPath === '-' ? '.' : dirname(scenarioPath)
  const path = resolve(dir, file)
  if (weather) input.weather = readWeatherFile(resolve(dir, weather), weather)
  const bytes = readBytes(path)
  // The activity reader refuses a ride without power or speed, naming the file.
  const activity = readActivity(bytes, file)
  if (
    activity.format === 'gc_json' ||
    activity.format === 'csv' ||
    activity.format === 'ibike_csv'
  ) {
    const { fromM, toM, closure: _c, ...fitInput } = input
    const c = calibrateRide(activity.samples, distanceRange(activity.samples, fromM, toM, fitInput))
    c.warnings.push(`${activity.format} files carry no course to replay: no replay`)
    return calibrationJson(file, c, null, chart)
  }
  const imported = importCourse(bytes, file)
  const recorded = recordedRide(imported)
  if (!recorded) throw new UsageError(`${file}: expected a ride with power and time, got none`)
  const ride: RecordedRide = {
    course: imported.course,
    recorded,
    points: {
      timeS: imported.track.time,
      distanceM: imported.pointDistanceM,
      powerW: imported.track.power!,
    },
  }
  const report = calibrateRecordedRide(ride, input)
  const partial = input.fromM !== undefined || input.toM !== undefined
  const heldOut = partial ? heldOutComparison(ride, report, input) : null
  return calibrationJson(file, report, heldOut, chart)
}

/**
 * The replay over the part of the ride the fit did not see (before fit_from_m, after fit_to_m),
 * as a prediction of another ride: the calibrated rider in the scenario's air, without the wind
 * fitted on the other hours (a wind belongs to its day and hours, not to the rider: on an
 * out-and-back the first half's wind says nothing of the second's).
 */
function heldOutComparison(
  ride: RecordedRide,
  report: RideCalibrationReport,
  input: RideCalibrationInput,
) {
  const total = ride.course.start[ride.course.n]!
  const env = { ...report.environment }
  if (report.wind) {
    delete env.windSpeedMps
    delete env.windFromDeg
  }
  const before = compareReplay(ride, report.rider, env, 0, input.fromM ?? 0)
  const after = compareReplay(ride, report.rider, env, input.toM ?? total)
  const predicted = before.predictedTimeS + after.predictedTimeS
  const recorded = before.recordedTimeS + after.recordedTimeS
  return {
    predictedTimeS: predicted,
    recordedTimeS: recorded,
    errorPct: recorded > 0 ? ((predicted - recorded) / recorded) * 100 : NaN,
    fromM: (input.fromM ?? 0) > 0 ? 0 : (input.toM ?? total),
    toM: (input.fromM ?? 0) > 0 ? (input.fromM ?? 0) : total,
  }
}

/** A distance range on raw samples (their own distance channel) as a time range. */
function distanceRange(
  samples: { t: Float64Array; distance: Float64Array | null },
  fromM: number | undefined,
  toM: number | undefined,
  input: Omit<RideCalibrationInput, 'fromM' | 'toM' | 'closure'>,
) {
  if ((fromM === undefined && toM === undefined) || !samples.distance) return input
  let startS = Infinity
  let endS = -Infinity
  for (let i = 0; i < samples.t.length; i++) {
    const d = samples.distance[i]!
    if (d >= (fromM ?? 0) && d < (toM ?? Infinity)) {
      startS = Math.min(startS, samples.t[i]!)
      endS = Math.max(endS, samples.t[i]!)
    }
  }
  return { ...input, startS, endS: endS + 1e-6 }
}

export async function calibrateCommand(args: string[]): Promise<number> {
  const { file, json } = readScenarioFile(args)
  printJson(runCalibration(file, json))
  return 0
}

// `veloptima aero SCENARIO.json`: the aero analysis of one field-test file. The scenario (snake_case,
// like every Veloptima JSON) names the activity file (relative to the scenario), the system mass
// and the air; the command reads the file (FIT, TCX, GPX, GoldenCheetah JSON, CSV, iBike CSV),
// runs the engine's analysis and prints the runs (CdA and Crr with 95 % intervals, the method,
// the VE fit's RMSE) and the baseline comparison as JSON. Bad input exits with 2, naming the field
// (or the file, when it lacks power or speed).
import { dirname, resolve } from 'node:path'
import { analyzeAero, EngineInputError } from '@veloptima/engine'
import type {
  AeroAnalysis,
  AeroAnalysisInput,
  AeroEnvironment,
  AeroRun,
  RunSpec,
  TrackGeometry,
} from '@veloptima/engine'
import { readActivity } from '@veloptima/formats'
import type { ImportedActivity } from '@veloptima/formats'
import { printJson, UsageError } from '../args.ts'
import { readScenarioFile } from '../scenario-file.ts'
import { readBytes } from './course.ts'

const KEYS = [
  'file',
  'mass_kg',
  'crr',
  'drivetrain_efficiency',
  'air_density_kg_m3',
  'environment',
  'method',
  'runs',
  'baseline',
  'calibration_factor',
  'reference_speed_kmh',
  'reference_power_w',
  'device_serial',
  'fit_wind',
  'wind_speed_mps',
  'wind_from_deg',
  'resolve_delta_cda_m2',
  'track',
  'resamples',
  'seed',
] as const
const ENV_KEYS = ['air_density_kg_m3', 'temperature_c', 'pressure_pa', 'relative_humidity']
const RUN_KEYS = ['lap', 'start_s', 'end_s', 'label', 'configuration', 'tyre']
const TRACK_KEYS = ['lap_length_m', 'bend_radius_m', 'com_height_m']

type Json = Record<string, unknown>

const show = (v: unknown): string =>
  v === undefined ? 'nothing' : typeof v === 'number' ? String(v) : JSON.stringify(v)

/** Reads and checks the scenario; every message names the snake_case field. */
export class AeroScenario {
  private readonly o: Json

  constructor(
    private readonly source: string,
    json: unknown,
  ) {
    this.o = this.object(json, 'scenario', 'a JSON object with file, mass_kg, …')
  }

  fail(field: string, expected: string, got: unknown): never {
    throw new UsageError(`${this.source}: ${field}: expected ${expected}, got ${show(got)}`)
  }

  number(o: Json, field: string, path: string, min: number, max: number): number | undefined {
    const v = o[field]
    if (v === undefined) return undefined
    if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max)
      this.fail(path, `a number from ${min} to ${max}`, v)
    return v
  }

  /**
   * The optional numbers of `o` named in `fields` (field, property of `into`, min, max), each
   * checked as `number` does and copied to `into` when present.
   */
  numbers<T extends object>(
    o: Json,
    prefix: string,
    into: T,
    fields: readonly (readonly [string, keyof T, number, number])[],
  ): void {
    for (const [field, property, min, max] of fields) {
      const v = this.number(o, field, prefix + field, min, max)
      if (v !== undefined) into[property] = v as T[keyof T]
    }
  }

  text(o: Json, field: string, path: string): string | undefined {
    const v = o[field]
    if (v === undefined) return undefined
    if (typeof v !== 'string' || v.trim() === '') this.fail(path, 'a text', v)
    return v
  }

  only(o: Json, keys: readonly string[], path: string): void {
    for (const k of Object.keys(o)) {
      if (!keys.includes(k))
        this.fail(`${path}${k}`, `no such field (known: ${keys.join(', ')})`, o[k])
    }
  }

  object(v: unknown, path: string, what: string): Json {
    if (!v || typeof v !== 'object' || Array.isArray(v)) this.fail(path, what, v)
    return v as Json
  }

  /** The activity file's path as written, and the analysis input. */
  parse(): { file: string; deviceSerial?: string; input: AeroAnalysisInput } {
    const o = this.o
    this.only(o, KEYS, '')
    const file =
      this.text(o, 'file', 'file') ?? this.fail('file', 'the activity file (path)', undefined)
    const massKg = this.number(o, 'mass_kg', 'mass_kg', 20, 300)
    if (massKg === undefined)
      this.fail('mass_kg', 'the system mass (rider + bike + kit) in kg', undefined)
    const input: AeroAnalysisInput = { massKg }
    this.numbers(o, '', input, [
      ['crr', 'crr', 0, 0.05],
      ['drivetrain_efficiency', 'drivetrainEfficiency', 0.5, 1],
      ['air_density_kg_m3', 'airDensity', 0.5, 1.6],
    ])
    const rho = input.airDensity
    if (o.environment !== undefined) {
      const e = this.object(
        o.environment,
        'environment',
        '{temperature_c, pressure_pa, relative_humidity?} or {air_density_kg_m3}',
      )
      this.only(e, ENV_KEYS, 'environment.')
      const envRho = this.number(e, 'air_density_kg_m3', 'environment.air_density_kg_m3', 0.5, 1.6)
      const temperatureC = this.number(e, 'temperature_c', 'environment.temperature_c', -40, 55)
      const pressurePa = this.number(e, 'pressure_pa', 'environment.pressure_pa', 30_000, 110_000)
      const humidity = this.number(e, 'relative_humidity', 'environment.relative_humidity', 0, 1)
      if (rho !== undefined && (envRho !== undefined || temperatureC !== undefined)) {
        this.fail('environment', 'nothing when air_density_kg_m3 is given', o.environment)
      }
      if (envRho !== undefined) input.airDensity = envRho
      else {
        if (temperatureC === undefined)
          this.fail(
            'environment.temperature_c',
            'the air temperature in °C (or environment.air_density_kg_m3)',
            undefined,
          )
        if (pressurePa === undefined)
          this.fail(
            'environment.pressure_pa',
            'the station pressure in Pa (not sea-level QNH)',
            undefined,
          )
        const env: AeroEnvironment = { temperatureC, pressurePa }
        if (humidity !== undefined) env.humidity = humidity
        input.environment = env
      }
    }
    if (o.method !== undefined) {
      if (!['auto', 've', 'direct'].includes(o.method as string))
        this.fail('method', '"auto", "ve" or "direct"', o.method)
      input.method = o.method as AeroAnalysisInput['method']
    }
    if (o.runs !== undefined) {
      if (!Array.isArray(o.runs) || o.runs.length === 0)
        this.fail('runs', 'a list of runs ({lap} or {start_s, end_s})', o.runs)
      input.runs = o.runs.map((r: unknown, i) => this.run(r, `runs[${i}]`))
    }
    const baseline = this.text(o, 'baseline', 'baseline')
    if (baseline !== undefined) input.baseline = baseline
    const cal = this.number(o, 'calibration_factor', 'calibration_factor', 0.2, 5)
    if (cal !== undefined) input.calibrationFactor = cal
    const kmh = this.number(o, 'reference_speed_kmh', 'reference_speed_kmh', 5, 100)
    if (kmh !== undefined) input.referenceSpeedMps = kmh / 3.6
    const watts = this.number(o, 'reference_power_w', 'reference_power_w', 1, 2000)
    if (watts !== undefined) input.referencePowerW = watts
    if (o.fit_wind !== undefined) {
      if (typeof o.fit_wind !== 'boolean') this.fail('fit_wind', 'true or false', o.fit_wind)
      input.fitWind = o.fit_wind
    }
    const windMps = this.number(o, 'wind_speed_mps', 'wind_speed_mps', 0, 30)
    const windFrom = this.number(o, 'wind_from_deg', 'wind_from_deg', 0, 360)
    if ((windMps === undefined) !== (windFrom === undefined))
      this.fail(
        windMps === undefined ? 'wind_speed_mps' : 'wind_from_deg',
        'the stated wind as both wind_speed_mps and wind_from_deg',
        undefined,
      )
    if (windMps !== undefined && windFrom !== undefined)
      input.statedWind = { speedMps: windMps, fromDeg: windFrom }
    if (o.track !== undefined) input.track = this.track(o.track)
    const resolve = this.number(o, 'resolve_delta_cda_m2', 'resolve_delta_cda_m2', 0.0005, 0.1)
    if (resolve !== undefined) input.resolveCda = resolve
    const resamples = this.number(o, 'resamples', 'resamples', 0, 10_000)
    if (resamples !== undefined) {
      if (!Number.isInteger(resamples)) this.fail('resamples', 'a whole number 0–10000', resamples)
      input.resamples = resamples
    }
    const seed = this.number(o, 'seed', 'seed', -1e15, 1e15)
    if (seed !== undefined) input.seed = seed
    const deviceSerial = o.device_serial === undefined ? undefined : String(o.device_serial)
    return { file, ...(deviceSerial !== undefined ? { deviceSerial } : {}), input }
  }

  /**
   * `track`: true (the engine's velodrome defaults), false (the road model even on a flat file
   * without GPS), or the geometry `{lap_length_m?, bend_radius_m?, com_height_m?}`.
   */
  track(v: unknown): TrackGeometry | boolean {
    if (typeof v === 'boolean') return v
    const t = this.object(v, 'track', 'true, false or {lap_length_m, bend_radius_m, com_height_m}')
    this.only(t, TRACK_KEYS, 'track.')
    const geometry: TrackGeometry = {}
    this.numbers(t, 'track.', geometry, [
      ['lap_length_m', 'lapLengthM', 100, 1000],
      ['bend_radius_m', 'bendRadiusM', 10, 100],
      ['com_height_m', 'comHeightM', 0.3, 1.5],
    ])
    return geometry
  }

  /** `{lap: 1-based lap number}` or `{start_s, end_s}` (seconds from the file's first sample). */
  run(v: unknown, path: string): RunSpec {
    const r = this.object(v, path, '{lap} or {start_s, end_s}, with label and configuration')
    this.only(r, RUN_KEYS, `${path}.`)
    const spec: RunSpec = {}
    if (r.lap !== undefined) {
      if (!Number.isInteger(r.lap) || (r.lap as number) < 1)
        this.fail(`${path}.lap`, 'a lap number from 1 (the first lap)', r.lap)
      if (r.start_s !== undefined || r.end_s !== undefined)
        this.fail(path, 'either lap or start_s/end_s, not both', v)
      spec.lap = (r.lap as number) - 1
    } else {
      const a = this.number(r, 'start_s', `${path}.start_s`, 0, 1e7)
      const b = this.number(r, 'end_s', `${path}.end_s`, 0, 1e7)
      if (a === undefined)
        this.fail(`${path}.start_s`, 'seconds from the start of the file (or lap)', undefined)
      if (b === undefined)
        this.fail(`${path}.end_s`, 'seconds from the start of the file', undefined)
      if (!(b > a)) this.fail(`${path}.end_s`, `more than start_s (${a})`, b)
      spec.startT = a
      spec.endT = b
    }
    const label = this.text(r, 'label', `${path}.label`)
    if (label !== undefined) spec.label = label
    const configuration = this.text(r, 'configuration', `${path}.configuration`)
    if (configuration !== undefined) spec.configuration = configuration
    const tyre = this.text(r, 'tyre', `${path}.tyre`)
    if (tyre !== undefined) spec.tyre = tyre
    return spec
  }
}

const round = (v: number, digits: number): number | null =>
  Number.isFinite(v) ? Math.round(v * 10 ** digits) / 10 ** digits : null
/** An interval, or null when the analysis withheld it (the run's `withheld` says why). */
const pair = (p: [number, number], digits: number) =>
  Number.isFinite(p[0]) && Number.isFinite(p[1]) ? [round(p[0], digits), round(p[1], digits)] : null

function runJson(r: AeroRun) {
  return {
    index: r.index,
    label: r.label,
    configuration: r.configuration,
    source: r.source,
    start_s: round(r.startT, 1),
    end_s: round(r.endT, 1),
    duration_s: round(r.endT - r.startT, 1),
    method: r.method,
    cda_m2: round(r.cda, 4),
    cda_ci95_m2: pair(r.cdaCi95, 4),
    crr: round(r.crr, 5),
    crr_ci95: pair(r.crrCi95, 5),
    ve_rmse_m: round(r.veRmseM, 3),
    elevation_offset_m: round(r.elevationOffsetM, 2),
    ...(r.windMps !== undefined
      ? { wind_mps: round(r.windMps, 2), wind_from_deg: round(r.windFromDeg ?? NaN, 0) }
      : {}),
    ...(r.calibrationFactor !== undefined
      ? { calibration_factor: round(r.calibrationFactor, 4) }
      : {}),
    mean_speed_kmh: round(r.meanSpeedMps * 3.6, 2),
    mean_power_w: round(r.meanPowerW, 1),
    air_density_kg_m3: round(r.airDensity, 4),
    samples_used: r.samplesUsed,
    excluded_samples: r.excludedSamples,
    flags: r.flags,
    withheld: r.withheld,
  }
}

/** The printed result: the file, the runs, the comparison (snake_case, SI except km/h). */
export function aeroResultJson(file: string, activity: ImportedActivity, a: AeroAnalysis) {
  const s = activity.samples
  const c = a.comparison
  return {
    file,
    format: activity.format,
    start_time: Number.isFinite(activity.startEpochS)
      ? new Date(activity.startEpochS * 1000).toISOString()
      : null,
    samples: s.t.length,
    duration_s: round(s.t[s.t.length - 1]!, 1),
    laps: activity.laps.length,
    ve_model: a.veModel,
    crr: round(a.crr, 5),
    crr_by_tyre: a.crrByTyre.map((t) => ({
      tyre: t.tyre,
      crr: round(t.crr, 5),
      crr_ci95: pair(t.crrCi95, 5),
      delta_crr: round(t.deltaCrr, 5),
      delta_crr_ci95: pair(t.deltaCrrCi95, 5),
    })),
    fitted_calibration_factor:
      a.fittedCalibrationFactor === null ? null : round(a.fittedCalibrationFactor, 4),
    runs: a.runs.map(runJson),
    skipped_laps: a.skippedLaps.map((l) => ({
      lap: l.lap + 1,
      start_s: round(l.startT, 1),
      end_s: round(l.endT, 1),
      kind: l.kind,
      reason: l.reason,
    })),
    comparison: c && {
      baseline: c.baseline,
      baseline_cda_m2: round(c.baselineCda, 4),
      drift_m2_per_hour: round(c.driftPerHour, 5),
      drift_note: c.driftNote,
      reference_speed_kmh: round(c.referenceSpeedMps * 3.6, 2),
      reference_power_w: round(c.referencePowerW, 1),
      corrected_cda_m2: c.correctedCda.map((v) => round(v, 4)),
      configurations: c.configurations.map((k) => ({
        configuration: k.configuration,
        runs: k.runs,
        cda_m2: round(k.cda, 4),
        delta_cda_m2: round(k.deltaCda, 4),
        delta_cda_ci95_m2: pair(k.deltaCdaCi95, 4),
        delta_percent: round(k.deltaPercent, 2),
        watts_saved: round(k.wattsSaved, 1),
        seconds_per_40km: round(k.secondsPer40km, 1),
        verdict: k.verdict,
        basis: k.basis,
        ...(k.interval ? { interval: k.interval } : {}),
        withheld: k.withheld,
        notes: k.notes,
      })),
    },
    power_analysis: {
      resolve_delta_cda_m2: a.plan.delta,
      power: a.plan.power,
      run_sd_m2: round(a.plan.runSd, 4),
      run_sd_source: a.plan.runSdSource,
      runs_per_configuration: a.plan.runsPerConfiguration,
      configurations: a.plan.answers.map((p) => ({
        configuration: p.configuration,
        status: p.status,
        baseline_runs: p.baselineRuns,
        configuration_runs: p.configurationRuns,
        more_runs_each: p.moreConfigurationRuns,
        answer: p.text,
      })),
    },
    warnings: [...activity.warnings, ...a.warnings],
  }
}

/** Engine field names (camelCase) in a message, as the scenario's snake_case. */
const SNAKE: Record<string, string> = {
  massKg: 'mass_kg',
  drivetrainEfficiency: 'drivetrain_efficiency',
  airDensity: 'air_density_kg_m3',
  calibrationFactor: 'calibration_factor',
  referenceSpeedMps: 'reference_speed_kmh',
  referencePowerW: 'reference_power_w',
  fitWind: 'fit_wind',
  resolveCda: 'resolve_delta_cda_m2',
  temperatureC: 'temperature_c',
  pressurePa: 'pressure_pa',
  humidity: 'relative_humidity',
  startT: 'start_s',
  endT: 'end_s',
  lapLengthM: 'lap_length_m',
  bendRadiusM: 'bend_radius_m',
  comHeightM: 'com_height_m',
}

/** Runs must fall inside the file: a lap it has, a time range that overlaps it. */
function checkRunsAgainst(path: string, runs: RunSpec[] | undefined, a: ImportedActivity): void {
  const end = a.samples.t[a.samples.t.length - 1]!
  runs?.forEach((r, i) => {
    if (r.lap !== undefined && r.lap >= a.laps.length) {
      throw new UsageError(
        `${path}: runs[${i}].lap: expected a lap number from 1 to ${a.laps.length} (the file's laps), got ${r.lap + 1}`,
      )
    }
    if (r.startT !== undefined && r.startT >= end) {
      throw new UsageError(
        `${path}: runs[${i}].start_s: expected less than the file's duration (${Math.round(end)} s), got ${r.startT}`,
      )
    }
  })
}

export async function aeroCommand(args: string[]): Promise<number> {
  const { file: path, json } = readScenarioFile(args, 'one scenario file (JSON)')
  const { file, deviceSerial, input } = new AeroScenario(path, json).parse()
  const activityPath = resolve(path === '-' ? '.' : dirname(path), file)
  const activity = readActivity(readBytes(activityPath), file, deviceSerial ? { deviceSerial } : {})
  checkRunsAgainst(path, input.runs, activity)
  let analysis: AeroAnalysis
  try {
    analysis = analyzeAero(activity.samples, input)
  } catch (e) {
    if (e instanceof EngineInputError) {
      const message = e.message.replace(
        /\b[a-z]+(?:[A-Z][a-z0-9]*)+\b|\bhumidity\b/g,
        (w) => SNAKE[w] ?? w,
      )
      throw new UsageError(`${path}: ${message}`)
    }
    throw e
  }
  printJson(aeroResultJson(file, activity, analysis))
  return 0
}

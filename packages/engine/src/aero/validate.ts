// Validation of the aero analysis' inputs, once at the entry: messages name the field, what was
// expected and what was given (EngineInputError, as the simulation's validation).
import { EngineInputError, requireNumber } from '../sim/validate.ts'
import {
  OPTIONAL_SAMPLE_CHANNELS,
  type ActivitySamples,
  type AeroAnalysisInput,
  type RunSpec,
} from './types.ts'

const show = (v: unknown): string =>
  typeof v === 'number' ? String(v) : v === undefined ? 'nothing' : (JSON.stringify(v) ?? String(v))

function optional(field: string, v: unknown, min: number, max: number, minOpen = false): void {
  if (v !== undefined) requireNumber(field, v, min, max, minOpen)
}

function channel(field: string, v: unknown, n: number, required: boolean): void {
  if (v === null || v === undefined) {
    if (required)
      throw new EngineInputError(field, `expected a channel of ${n} samples, got ${show(v)}`)
    return
  }
  const ok = v instanceof Float64Array || v instanceof Int32Array || Array.isArray(v)
  const len = ok ? (v as ArrayLike<number>).length : -1
  if (!ok || len !== n) {
    throw new EngineInputError(
      field,
      `expected ${n} samples (the length of t), got ${ok ? `${len} samples` : show(v)}`,
    )
  }
}

/** Checks the samples' shape: t strictly increasing, channels as long as t, power and speed present with data. */
export function validateSamples(s: ActivitySamples): void {
  if (!s || typeof s !== 'object')
    throw new EngineInputError('samples', `expected activity samples, got ${show(s)}`)
  const t = s.t as unknown
  if (!(t instanceof Float64Array) || t.length < 2) {
    throw new EngineInputError(
      'samples.t',
      `expected at least 2 sample times, got ${t instanceof Float64Array ? t.length : show(t)}`,
    )
  }
  const n = t.length
  for (let i = 0; i < n; i++) {
    if (!Number.isFinite(t[i]))
      throw new EngineInputError(`samples.t[${i}]`, `expected a finite time, got ${t[i]}`)
    if (i > 0 && !(t[i]! > t[i - 1]!)) {
      throw new EngineInputError(
        `samples.t[${i}]`,
        `expected times strictly increasing, got ${t[i]} after ${t[i - 1]}`,
      )
    }
  }
  channel('samples.speed', s.speed, n, true)
  channel('samples.power', s.power, n, true)
  channel('samples.lap', s.lap, n, true)
  for (const k of OPTIONAL_SAMPLE_CHANNELS) {
    channel(`samples.${k}`, s[k], n, false)
  }
  const any = (a: Float64Array): boolean => a.some((x) => Number.isFinite(x) && x > 0)
  if (!any(s.power))
    throw new EngineInputError('samples.power', 'expected power values above 0 W, got none')
  if (!any(s.speed))
    throw new EngineInputError('samples.speed', 'expected speed values above 0 m/s, got none')
}

function validateRun(r: RunSpec, i: number): void {
  const at = `runs[${i}]`
  if (!r || typeof r !== 'object')
    throw new EngineInputError(at, `expected {lap} or {startT, endT}, got ${show(r)}`)
  if (r.lap !== undefined) {
    if (!Number.isInteger(r.lap) || r.lap < 0)
      throw new EngineInputError(`${at}.lap`, `expected a lap index ≥ 0, got ${show(r.lap)}`)
  } else {
    requireNumber(`${at}.startT`, r.startT, -1e9, 1e9)
    const end = requireNumber(`${at}.endT`, r.endT, -1e9, 1e9)
    if (!(end > r.startT!))
      throw new EngineInputError(
        `${at}.endT`,
        `expected more than startT (${r.startT}), got ${end}`,
      )
  }
  if (r.pieces !== undefined) {
    if (!Array.isArray(r.pieces))
      throw new EngineInputError(
        `${at}.pieces`,
        `expected a list of [startT, endT], got ${show(r.pieces)}`,
      )
    r.pieces.forEach((p, k) => {
      if (!Array.isArray(p) || p.length !== 2 || !(p[1] > p[0])) {
        throw new EngineInputError(
          `${at}.pieces[${k}]`,
          `expected [startT, endT] with endT > startT, got ${show(p)}`,
        )
      }
    })
  }
  for (const k of ['label', 'configuration'] as const) {
    if (r[k] !== undefined && typeof r[k] !== 'string')
      throw new EngineInputError(`${at}.${k}`, `expected a text, got ${show(r[k])}`)
  }
}

export function validateAeroInput(input: AeroAnalysisInput): void {
  if (!input || typeof input !== 'object')
    throw new EngineInputError('input', `expected an object, got ${show(input)}`)
  requireNumber('massKg', input.massKg, 20, 300)
  optional('crr', input.crr, 0, 0.05)
  optional('drivetrainEfficiency', input.drivetrainEfficiency, 0.5, 1, true)
  optional('airDensity', input.airDensity, 0.5, 1.6)
  optional('resolveCda', input.resolveCda, 0.0005, 0.1)
  if (input.environment !== undefined) {
    const e = input.environment
    if (!e || typeof e !== 'object')
      throw new EngineInputError(
        'environment',
        `expected {temperatureC, pressurePa, humidity?}, got ${show(e)}`,
      )
    requireNumber('environment.temperatureC', e.temperatureC, -40, 55)
    requireNumber('environment.pressurePa', e.pressurePa, 30000, 110000)
    optional('environment.humidity', e.humidity, 0, 1)
  }
  if (input.method !== undefined && !['auto', 've', 'direct'].includes(input.method)) {
    throw new EngineInputError(
      'method',
      `expected "auto", "ve" or "direct", got ${show(input.method)}`,
    )
  }
  if (input.runs !== undefined) {
    if (!Array.isArray(input.runs))
      throw new EngineInputError('runs', `expected a list of runs, got ${show(input.runs)}`)
    input.runs.forEach(validateRun)
  }
  if (input.baseline !== undefined && typeof input.baseline !== 'string') {
    throw new EngineInputError(
      'baseline',
      `expected a configuration label, got ${show(input.baseline)}`,
    )
  }
  optional('calibrationFactor', input.calibrationFactor, 0.2, 5, true)
  optional('referenceSpeedMps', input.referenceSpeedMps, 1, 30)
  optional('referencePowerW', input.referencePowerW, 1, 2000)
  if (
    input.resamples !== undefined &&
    (!Number.isInteger(input.resamples) || input.resamples < 0 || input.resamples > 10000)
  ) {
    throw new EngineInputError(
      'resamples',
      `expected a whole number 0–10000, got ${show(input.resamples)}`,
    )
  }
  optional('seed', input.seed, -1e15, 1e15)
  if (input.fitWind !== undefined && typeof input.fitWind !== 'boolean') {
    throw new EngineInputError('fitWind', `expected true or false, got ${show(input.fitWind)}`)
  }
  const track = input.track
  if (track !== undefined && typeof track !== 'boolean') {
    if (track === null || typeof track !== 'object' || Array.isArray(track)) {
      throw new EngineInputError(
        'track',
        `expected true, false or the track geometry, got ${show(track)}`,
      )
    }
    optional('track.lapLengthM', track.lapLengthM, 100, 1000)
    optional('track.bendRadiusM', track.bendRadiusM, 10, 100)
    optional('track.comHeightM', track.comHeightM, 0.3, 1.5)
    if (Math.PI * (track.bendRadiusM ?? 22) > (track.lapLengthM ?? 250) / 2) {
      throw new EngineInputError(
        'track.bendRadiusM',
        `expected two bends that fit in the lap (π·R ≤ lap/2), got ${show(track.bendRadiusM)}`,
      )
    }
  }
}

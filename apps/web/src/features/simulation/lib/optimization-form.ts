// The optimization form (text in the user's units) ⇄ the optimization's `inputs` (SI), and the
// form's schema: its own checks and messages, then the contracts' optimization body.
import { z } from 'zod'
import { optimizationCreateSchema } from '@veloptima/contracts'
import { fromDisplay, toDisplay, unitLabel, type UnitSystem } from '../../../lib/units.ts'
import type {
  ConstraintInput,
  EquipmentOptionInput,
  OptimizationInputs,
  SetupLike,
  WindSegmentInput,
} from './engine-input.ts'
import { parseEventStart } from './format.ts'
import {
  presetMassDeltaKg,
  presetOfTable,
  presetYawTable,
  type WheelPreset,
} from './wheel-presets.ts'
import { racePlanFieldsOf, readRacePlan, type RacePlanFields } from './race-plan-form.ts'
import {
  overrideTextsOf,
  readOverride,
  type OverrideTexts,
  type SetupOverride,
} from './setup-override.ts'

export type OptionForm = {
  name: string
  cdaDelta: string
  massDelta: string
  crr: string
  /** Power the rider can hold with this option, % of the setup's (empty: 100 %). */
  powerPct: string
  /** A wheel preset: its ΔCdA by yaw replaces the constant ΔCdA. */
  wheel: WheelPreset | ''
  /** A ΔCdA-by-yaw table of the user's own (not a preset), kept as stored. */
  yawTable?: [number, number][]
}

export const newOption = (): OptionForm => ({
  name: '',
  cdaDelta: '0',
  massDelta: '0',
  crr: '',
  powerPct: '',
  wheel: '',
})
export type GroupForm = { name: string; options: OptionForm[] }
/** A stretch of the course with its own wind: distances and speed in the user's units. */
export type WindRowForm = { start: string; end: string; speed: string; from: string }

/** The constraints a "fastest" plan rides within (a target time is the goal `target_time`). */
export type LimitType = Exclude<ConstraintInput['type'], 'target_time'>

export type OptimizationForm = RacePlanFields & {
  name: string
  courseId: string
  setupId: string
  temperature: string
  airMode: 'altitude' | 'pressure'
  altitude: string
  pressureHpa: string
  windSpeed: string
  windFrom: string
  /** "YYYY-MM-DDTHH:mm", local time at the course; empty: no clock times. */
  eventStart: string
  windRows: WindRowForm[]
  /** The rider setup tweaked for this optimization only (texts of the changed fields). */
  override: OverrideTexts
  /** The override as stored (keeps its exact numbers while their texts are untouched). */
  storedOverride: SetupOverride | undefined
  constraint: LimitType
  power: string
  maxTargets: string
  groups: GroupForm[]
}

export const CONSTRAINTS = [
  { value: 'w_prime_balance', label: 'W′ balance never below zero (needs CP and W′)' },
  { value: 'normalized_power', label: 'Normalized power' },
  { value: 'average_power', label: 'Average power' },
] as const

const toF = (c: number) => (c * 9) / 5 + 32
const fromF = (f: number) => ((f - 32) * 5) / 9
export const temperatureUnit = (system: UnitSystem) => (system === 'metric' ? '°C' : '°F')
const trim = (x: number, d = 1) => String(Number(x.toFixed(d)))

export function defaultWheelGroup(): GroupForm {
  return {
    name: 'Wheels',
    options: [
      { ...newOption(), name: 'Shallow alloy' },
      { ...newOption(), name: 'Deep carbon', cdaDelta: '-0.012', massDelta: '0.3' },
    ],
  }
}

export function optimizationFormOf(
  o: {
    name: string
    course_id: string | null
    rider_setup_id: string | null
    inputs: OptimizationInputs
  },
  type: 'pacing' | 'equipment',
  system: UnitSystem,
): OptimizationForm {
  const env = o.inputs.environment ?? {}
  const c = o.inputs.constraint ?? { type: 'w_prime_balance' }
  const t = env.temperature_c ?? 20
  const eq = o.inputs.equipment
  const groups = eq
    ? Object.entries(eq.groups).map(([name, options]) => {
        // The baseline option is shown first.
        const base = eq.baseline?.[name]
        const sorted = [...options].sort(
          (a, b) => Number(b.name === base) - Number(a.name === base),
        )
        return {
          name,
          options: sorted.map((x): OptionForm => {
            const wheel = x.cda_delta_by_yaw ? presetOfTable(x.cda_delta_by_yaw) : null
            return {
              name: x.name,
              cdaDelta: String(x.cda_delta_m2 ?? 0),
              massDelta: trim(toDisplay('mass', x.mass_delta_kg ?? 0, system), 2),
              crr: x.crr === undefined ? '' : String(x.crr),
              powerPct: x.power_factor === undefined ? '' : trim(x.power_factor * 100, 1),
              wheel: wheel ?? '',
              ...(x.cda_delta_by_yaw && !wheel ? { yawTable: x.cda_delta_by_yaw } : {}),
            }
          }),
        }
      })
    : undefined
  return {
    name: o.name,
    courseId: o.course_id ?? '',
    setupId: o.rider_setup_id ?? '',
    temperature: trim(system === 'metric' ? t : toF(t)),
    airMode: env.pressure_pa !== undefined ? 'pressure' : 'altitude',
    altitude:
      env.pressure_altitude_m !== undefined
        ? trim(toDisplay('elevation', env.pressure_altitude_m, system), 0)
        : '',
    pressureHpa: env.pressure_pa !== undefined ? trim(env.pressure_pa / 100) : '',
    windSpeed: trim(toDisplay('speed', env.wind_speed_mps ?? 0, system), 2),
    windFrom: String(env.wind_from_deg ?? 0),
    eventStart: env.event_start ?? '',
    windRows: (env.wind_segments ?? []).map((w) => windRowOf(w, system)),
    override: overrideTextsOf(o.inputs.rider_override, system),
    storedOverride: o.inputs.rider_override,
    ...racePlanFieldsOf(o.inputs, system),
    constraint: c.type === 'target_time' ? 'w_prime_balance' : c.type,
    power: 'power_w' in c ? String(c.power_w) : '',
    maxTargets: String(o.inputs.max_targets ?? 12),
    groups: groups ?? (type === 'equipment' ? [defaultWheelGroup()] : []),
  }
}

export function windRowOf(w: WindSegmentInput, system: UnitSystem): WindRowForm {
  return {
    start: trim(toDisplay('distance', w.start_m, system), 3),
    end: trim(toDisplay('distance', w.end_m, system), 3),
    speed: trim(toDisplay('speed', w.wind_speed_mps, system), 2),
    from: String(w.wind_from_deg),
  }
}

/** One wind row per course section, each with the course-wide wind as its starting value. */
export function windRowsFromSections(
  sections: readonly { start_m: number; end_m: number }[],
  speed: string,
  from: string,
  system: UnitSystem,
): WindRowForm[] {
  return sections.map((s) => ({
    start: trim(toDisplay('distance', s.start_m, system), 3),
    end: trim(toDisplay('distance', s.end_m, system), 3),
    speed,
    from,
  }))
}

/** What reading the form needs to know beyond it. */
export type FormContext = {
  /** The selected rider setup (the override keeps only what differs from it). */
  setup?: SetupLike | undefined
  /** The course's length in metres (wind stretches must lie inside it). */
  courseLengthM?: number | undefined
}

/**
 * The wind rows in SI. Each message names the row and the field; rows must have end > start,
 * lie inside the course and not overlap (in any order: they are checked sorted by start).
 */
export function readWindRows(
  rows: readonly WindRowForm[],
  system: UnitSystem,
  courseLengthM: number | undefined,
  errors: Record<string, string>,
): WindSegmentInput[] {
  const dUnit = unitLabel('distance', system)
  const sUnit = unitLabel('speed', system)
  const km = (m: number) => toDisplay('distance', m, system).toFixed(2)
  const maxShown = courseLengthM !== undefined ? toDisplay('distance', courseLengthM, system) : null
  const out = rows.map((r, i) => {
    const name = `Wind stretch ${i + 1}`
    const num = (key: string, label: string, text: string) => {
      const v = Number(text.trim().replace(',', '.'))
      if (text.trim() === '' || !Number.isFinite(v)) {
        errors[`wind${i}.${key}`] =
          `${name} ${label}: enter a number${text.trim() ? ` (got “${text}”)` : ''}.`
        return null
      }
      return v
    }
    const start = num('start', 'start', r.start)
    const end = num('end', 'end', r.end)
    const speed = num('speed', 'wind speed', r.speed)
    const from = num('from', 'wind from', r.from)
    if (start !== null && start < 0)
      errors[`wind${i}.start`] = `${name} start must be 0 ${dUnit} or more (got ${start}).`
    if (start !== null && end !== null && end <= start)
      errors[`wind${i}.end`] =
        `${name} end must be after its start (${start} ${dUnit}), got ${end} ${dUnit}.`
    else if (end !== null && maxShown !== null && end > maxShown + 0.0005)
      errors[`wind${i}.end`] =
        `${name} end must be inside the course (at most ${maxShown.toFixed(2)} ${dUnit}), got ${end} ${dUnit}.`
    const speedMax = Math.round(toDisplay('speed', 40, system))
    if (speed !== null && (speed < 0 || speed > speedMax))
      errors[`wind${i}.speed`] =
        `${name} wind speed must be between 0 and ${speedMax} ${sUnit} (got ${speed}).`
    if (from !== null && (from < 0 || from > 360))
      errors[`wind${i}.from`] = `${name} wind from must be between 0 and 360 ° (got ${from}).`
    return {
      start_m: fromDisplay('distance', start ?? 0, system),
      end_m: fromDisplay('distance', end ?? 0, system),
      wind_speed_mps: fromDisplay('speed', speed ?? 0, system),
      wind_from_deg: from ?? 0,
      ok: start !== null && end !== null && end > start,
      i,
    }
  })
  const sorted = out.filter((w) => w.ok).sort((a, b) => a.start_m - b.start_m)
  sorted.forEach((w, k) => {
    const prev = sorted[k - 1]
    if (prev && w.start_m < prev.end_m - 1e-6 && !errors[`wind${w.i}.start`])
      errors[`wind${w.i}.start`] =
        `Wind stretch ${w.i + 1} (${km(w.start_m)}–${km(w.end_m)} ${dUnit}) overlaps wind stretch ${prev.i + 1} (${km(prev.start_m)}–${km(prev.end_m)} ${dUnit}): start it at ${km(prev.end_m)} ${dUnit} or later.`
  })
  return out.map(({ start_m, end_m, wind_speed_mps, wind_from_deg }) => ({
    start_m,
    end_m,
    wind_speed_mps,
    wind_from_deg,
  }))
}

export type OptimizationBody = {
  name: string
  course_id: string | null
  rider_setup_id: string | null
  inputs: OptimizationInputs
}

export function readOptimizationForm(
  f: OptimizationForm,
  type: 'pacing' | 'equipment',
  system: UnitSystem,
  context: FormContext = {},
): { body: OptimizationBody | null; errors: Record<string, string> } {
  const errors: Record<string, string> = {}
  const num = (key: string, label: string, text: string, lo: number, hi: number, unit: string) => {
    const v = Number(text.trim().replace(',', '.'))
    if (text.trim() === '' || !Number.isFinite(v)) {
      errors[key] = `${label}: enter a number${text.trim() ? ` (got “${text}”)` : ''}.`
      return 0
    }
    if (v < lo || v > hi)
      errors[key] = `${label} must be between ${lo} and ${hi} ${unit} (got ${v}).`
    return v
  }
  if (!f.name.trim()) errors.name = 'Optimization name: enter a name.'
  const tUnit = temperatureUnit(system)
  const t = num(
    'temperature',
    'Temperature',
    f.temperature,
    system === 'metric' ? -30 : -22,
    system === 'metric' ? 50 : 122,
    tUnit,
  )
  const environment: NonNullable<OptimizationInputs['environment']> = {
    temperature_c: system === 'metric' ? t : fromF(t),
  }
  if (f.airMode === 'pressure') {
    environment.pressure_pa =
      num('pressureHpa', 'Air pressure', f.pressureHpa, 500, 1100, 'hPa') * 100
  } else if (f.altitude.trim() !== '') {
    const elev = unitLabel('elevation', system)
    const hi = Math.round(toDisplay('elevation', 5000, system))
    const lo = Math.round(toDisplay('elevation', -500, system))
    environment.pressure_altitude_m = fromDisplay(
      'elevation',
      num('altitude', 'Altitude', f.altitude, lo, hi, elev),
      system,
    )
  }
  const sUnit = unitLabel('speed', system)
  const windShown = num(
    'windSpeed',
    'Wind speed',
    f.windSpeed,
    0,
    Math.round(toDisplay('speed', 40, system)),
    sUnit,
  )
  environment.wind_speed_mps = fromDisplay('speed', windShown, system)
  environment.wind_from_deg = num('windFrom', 'Wind direction', f.windFrom, 0, 360, '°')
  if (f.windRows.length > 0)
    environment.wind_segments = readWindRows(f.windRows, system, context.courseLengthM, errors)
  if (f.eventStart.trim() !== '') {
    if (parseEventStart(f.eventStart)) environment.event_start = f.eventStart.trim()
    else
      errors.eventStart = `Event date and time: expected a date and time like 2026-06-14T09:30, got “${f.eventStart}”.`
  }
  const adjusted = readOverride(f.override, context.setup, f.storedOverride, system)
  Object.assign(errors, adjusted.errors)
  const { targetTimeS, ...race } = readRacePlan(f, type, num, errors, {
    system,
    courseLengthM: context.courseLengthM,
  })
  let constraint: ConstraintInput = { type: 'w_prime_balance' }
  if (f.goal === 'target_time') {
    constraint = { type: 'target_time', time_s: targetTimeS ?? 0 }
  } else if (f.constraint !== 'w_prime_balance') {
    const label = f.constraint === 'normalized_power' ? 'Normalized power' : 'Average power'
    constraint = { type: f.constraint, power_w: num('power', label, f.power, 30, 1500, 'W') }
  }
  const maxTargets = num('maxTargets', 'Number of targets', f.maxTargets, 1, 20, 'targets')
  const inputs: OptimizationInputs = {
    environment,
    constraint,
    max_targets: Math.round(maxTargets),
    ...race,
  }
  if (adjusted.override) inputs.rider_override = adjusted.override
  if (type === 'equipment') inputs.equipment = readEquipment(f.groups, system, num, errors)
  if (Object.keys(errors).length > 0) return { body: null, errors }
  return {
    body: {
      name: f.name.trim(),
      course_id: f.courseId || null,
      rider_setup_id: f.setupId || null,
      inputs,
    },
    errors,
  }
}

/** The equipment groups in the engine's form, the first option of each as its baseline. */
function readEquipment(
  formGroups: readonly GroupForm[],
  system: UnitSystem,
  num: (key: string, label: string, text: string, lo: number, hi: number, unit: string) => number,
  errors: Record<string, string>,
): NonNullable<OptimizationInputs['equipment']> {
  const groups: Record<string, EquipmentOptionInput[]> = {}
  const baseline: Record<string, string> = {}
  formGroups.forEach((g, gi) => {
    const gname = g.name.trim()
    if (!gname) errors[`g${gi}.name`] = `Option group ${gi + 1}: enter a name.`
    else if (groups[gname]) errors[`g${gi}.name`] = `Option group “${gname}” appears twice.`
    if (g.options.length < 2) {
      errors[`g${gi}`] =
        `${gname || `Group ${gi + 1}`}: add at least two options (a baseline and an alternative).`
    }
    const names = new Set<string>()
    const options = g.options.map((o, oi) => {
      const label = `${gname || `Group ${gi + 1}`}, option ${oi + 1}`
      const name = o.name.trim()
      if (!name) errors[`g${gi}.o${oi}.name`] = `${label}: enter a name.`
      else if (names.has(name)) errors[`g${gi}.o${oi}.name`] = `${label}: “${name}” appears twice.`
      names.add(name)
      const massShown = num(
        `g${gi}.o${oi}.mass`,
        `${label} Δ mass`,
        o.massDelta,
        -20,
        20,
        unitLabel('mass', system),
      )
      const option: EquipmentOptionInput = {
        name,
        mass_delta_kg: fromDisplay('mass', massShown, system),
      }
      if (o.wheel) option.cda_delta_by_yaw = presetYawTable(o.wheel)
      else if (o.yawTable) option.cda_delta_by_yaw = o.yawTable
      else
        option.cda_delta_m2 = num(
          `g${gi}.o${oi}.cda`,
          `${label} Δ CdA`,
          o.cdaDelta,
          -0.2,
          0.2,
          'm²',
        )
      if (o.crr.trim() !== '')
        option.crr = num(`g${gi}.o${oi}.crr`, `${label} Crr`, o.crr, 0.001, 0.05, '')
      if (o.powerPct.trim() !== '') {
        const pct = num(`g${gi}.o${oi}.power`, `${label} power`, o.powerPct, 50, 120, '%')
        if (pct !== 100) option.power_factor = pct / 100
      }
      return option
    })
    if (gname) {
      groups[gname] = options
      baseline[gname] = options[0]?.name ?? ''
    }
  })
  if (formGroups.length === 0)
    errors.groups = 'Add an option group (e.g. wheels) with a baseline and an alternative.'
  return { groups, baseline }
}

/** An option switched to a wheel preset (its mass against a 30 mm wheel comes with it), or back
 * to a constant ΔCdA with `''`. */
export function withWheelPreset(
  o: OptionForm,
  wheel: WheelPreset | '',
  system: UnitSystem,
): OptionForm {
  const { yawTable: _own, ...rest } = o
  if (!wheel) return { ...rest, wheel: '' }
  return { ...rest, wheel, massDelta: trim(toDisplay('mass', presetMassDeltaKg(wheel), system), 3) }
}

/** What the API is sent: the body as the contracts' optimization schema reads it. */
const optimizationBodySchema = optimizationCreateSchema.omit({ owner: true, type: true })

/**
 * The form's schema for react-hook-form: the texts read by `readOptimizationForm` (each message
 * under its field's key), then checked as the API's optimization body. `context` is what the
 * reading needs beyond the form (the selected setup, the course length).
 */
export function optimizationFormSchema(
  type: 'pacing' | 'equipment',
  system: UnitSystem,
  context: FormContext,
) {
  return z
    .custom<OptimizationForm>()
    .transform((f, ctx): z.input<typeof optimizationBodySchema> => {
      const { body, errors } = readOptimizationForm(f, type, system, context)
      for (const [key, message] of Object.entries(errors)) {
        ctx.addIssue({ code: 'custom', path: [key], message })
      }
      return body ?? z.NEVER
    })
    .pipe(optimizationBodySchema)
}

/** What the form's schema hands the save: the API's optimization body. */
export type SubmittedOptimization = z.output<ReturnType<typeof optimizationFormSchema>>

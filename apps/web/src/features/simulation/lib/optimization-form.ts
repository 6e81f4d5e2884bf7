// The optimization form (text in the user's units) ⇄ the optimization's `inputs` (SI).
import { fromDisplay, toDisplay, unitLabel, type UnitSystem } from '../../../lib/units.ts'
import type { ConstraintInput, EquipmentOptionInput, OptimizationInputs } from './engine-input.ts'

export type OptionForm = { name: string; cdaDelta: string; massDelta: string; crr: string }
export type GroupForm = { name: string; options: OptionForm[] }

export type OptimizationForm = {
  name: string
  courseId: string
  setupId: string
  temperature: string
  airMode: 'altitude' | 'pressure'
  altitude: string
  pressureHpa: string
  windSpeed: string
  windFrom: string
  constraint: ConstraintInput['type']
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
      { name: 'Shallow alloy', cdaDelta: '0', massDelta: '0', crr: '' },
      { name: 'Deep carbon', cdaDelta: '-0.012', massDelta: '0.3', crr: '' },
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
          options: sorted.map((x) => ({
            name: x.name,
            cdaDelta: String(x.cda_delta_m2 ?? 0),
            massDelta: trim(toDisplay('mass', x.mass_delta_kg ?? 0, system), 2),
            crr: x.crr === undefined ? '' : String(x.crr),
          })),
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
    windSpeed: trim(toDisplay('speed', env.wind_speed_mps ?? 0, system)),
    windFrom: String(env.wind_from_deg ?? 0),
    constraint: c.type,
    power: c.type === 'w_prime_balance' ? '' : String(c.power_w),
    maxTargets: String(o.inputs.max_targets ?? 12),
    groups: groups ?? (type === 'equipment' ? [defaultWheelGroup()] : []),
  }
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
  let constraint: ConstraintInput = { type: 'w_prime_balance' }
  if (f.constraint !== 'w_prime_balance') {
    const label = f.constraint === 'normalized_power' ? 'Normalized power' : 'Average power'
    constraint = { type: f.constraint, power_w: num('power', label, f.power, 30, 1500, 'W') }
  }
  const maxTargets = num('maxTargets', 'Number of targets', f.maxTargets, 1, 20, 'targets')
  const inputs: OptimizationInputs = {
    environment,
    constraint,
    max_targets: Math.round(maxTargets),
  }
  if (type === 'equipment') {
    const groups: Record<string, EquipmentOptionInput[]> = {}
    const baseline: Record<string, string> = {}
    f.groups.forEach((g, gi) => {
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
        else if (names.has(name))
          errors[`g${gi}.o${oi}.name`] = `${label}: “${name}” appears twice.`
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
          cda_delta_m2: num(`g${gi}.o${oi}.cda`, `${label} Δ CdA`, o.cdaDelta, -0.2, 0.2, 'm²'),
          mass_delta_kg: fromDisplay('mass', massShown, system),
        }
        if (o.crr.trim() !== '')
          option.crr = num(`g${gi}.o${oi}.crr`, `${label} Crr`, o.crr, 0.001, 0.05, '')
        return option
      })
      if (gname) {
        groups[gname] = options
        baseline[gname] = options[0]?.name ?? ''
      }
    })
    if (f.groups.length === 0)
      errors.groups = 'Add an option group (e.g. wheels) with a baseline and an alternative.'
    inputs.equipment = { groups, baseline }
  }
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

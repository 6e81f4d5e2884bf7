// From stored rows (a course's segments, a rider setup, an optimization's `inputs`) to the
// optimizer's scenario JSON: the ONE reading of the stored format, used by the API's run and by
// the browser's instant preview, so both parse the same scenario with the same parser.
//
// `inputs` (snake_case, SI units): `environment` {temperature_c (20 °C when absent), pressure_pa,
// pressure_altitude_m (or the older altitude_m), relative_humidity, wind_speed_mps, wind_from_deg,
// wind_segments [{start_m, end_m, wind_speed_mps, wind_from_deg}], event_start (stored only)},
// `rider_override` (a partial setup replacing the saved setup's values for this optimization),
// `constraint` (W′ balance when absent; `{type: "target_time", time_s}` for the least-effort plan
// finishing in that time), `max_targets` (12 when absent, 1–20), `min_power_w`, `options`
// {heat, altitude} (CP lowered by the heat and the altitude), `fuel` {gut_tolerance_g_per_h,
// glycogen_store_g}, `rules` (easy start, coasting, descent cap, stretches; checked by the
// engine's parser), and for equipment `equipment`, either the engine's {groups: {name: [options]}, baseline} or the
// older list form [{name, options: [{name, cda_delta, mass_delta, crr_factor}]}] (first option =
// baseline). The highest power the plan may ask for is the setup's max power, else 2 × CP, else
// 1000 W. The setup's `durability` (fraction of CP and W′ lost per 1,000 kJ) and
// `heat_acclimatised` go to the scenario's rider.
import type { StoredSegmentJson } from '../course/stored-check.ts'
import type { CourseSegmentInput } from '../course/types.ts'
import { checkSpeedRange, EngineInputError } from '../sim/validate.ts'

export type StoredSurface = 'smooth' | 'normal' | 'rough'

/** A course segment as stored (distances in m, heading in degrees), with its surface. */
export interface StoredSegmentRow extends StoredSegmentJson {
  surface?: StoredSurface | undefined
}

/** A position of a setup: its CdA (m²) and the speed range (m/s) where it is ridden. */
export type StoredPosition = { name?: string; cda: number; min_speed?: number; max_speed?: number }

/** A rider setup in the API's field names (snake_case, SI units). */
export type StoredSetup = {
  rider_mass: number
  bike_mass: number
  extra_mass: number
  positions: StoredPosition[]
  crr: Record<StoredSurface, number>
  drivetrain_efficiency: number
  wheel_inertia: number
  cp: number | null
  w_prime: number | null
  max_power: number | null
  /** Fraction of CP and W′ lost per 1,000 kJ of work (0–0.5); null or absent: no fade. */
  durability?: number | null | undefined
  /** Acclimatised to heat (CP falls less with the temperature above 17 °C). */
  heat_acclimatised?: boolean | undefined
}

/** The fields of a setup an optimization may override (crr may name only some surfaces). */
export type StoredSetupOverride = Partial<Omit<StoredSetup, 'crr'>> & {
  crr?: Partial<Record<StoredSurface, number>>
}

export type StoredOptimizerInput = {
  scenario: Record<string, unknown>
  segments: CourseSegmentInput[]
  startAltitudeM: number
  /** The setup the scenario was made from: the saved one with `rider_override` applied. */
  setup: StoredSetup
}

const OVERRIDE_RANGES: Record<string, [number, number, boolean]> = {
  // [min, max, nullable]; the engine's own limits (the API's forms are stricter)
  rider_mass: [1, 500, false],
  bike_mass: [0, 200, false],
  extra_mass: [0, 200, false],
  drivetrain_efficiency: [0.01, 1, false],
  wheel_inertia: [0, 10, false],
  cp: [1, 3000, true],
  w_prime: [1, 1e6, true],
  max_power: [1, 5000, true],
}

const show = (v: unknown): string => (v === undefined ? 'nothing' : JSON.stringify(v))

function checkNumber(field: string, v: unknown, lo: number, hi: number): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < lo || v > hi) {
    throw new EngineInputError(field, `expected a number from ${lo} to ${hi}, got ${show(v)}`)
  }
  return v
}

/** Checks an override; throws EngineInputError naming `rider_override.<field>` and the value. */
export function validateSetupOverride(value: unknown): StoredSetupOverride {
  const path = 'rider_override'
  if (value === undefined || value === null) return {}
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new EngineInputError(path, `expected an object of setup fields, got ${show(value)}`)
  }
  const o = value as Record<string, unknown>
  for (const [key, v] of Object.entries(o)) {
    const at = `${path}.${key}`
    const range = OVERRIDE_RANGES[key]
    if (range) {
      if (v === null && range[2]) continue
      checkNumber(at, v, range[0], range[1])
    } else if (key === 'crr') {
      if (!v || typeof v !== 'object' || Array.isArray(v)) {
        throw new EngineInputError(at, `expected {smooth?, normal?, rough?}, got ${show(v)}`)
      }
      for (const [surface, c] of Object.entries(v)) {
        if (!['smooth', 'normal', 'rough'].includes(surface)) {
          throw new EngineInputError(`${at}.${surface}`, 'expected smooth, normal or rough')
        }
        checkNumber(`${at}.${surface}`, c, 0.0001, 0.5)
      }
    } else if (key === 'positions') {
      if (!Array.isArray(v) || v.length === 0) {
        throw new EngineInputError(at, `expected a non-empty list of positions, got ${show(v)}`)
      }
      v.forEach((p: unknown, i) => {
        const pa = `${at}[${i}]`
        if (!p || typeof p !== 'object') {
          throw new EngineInputError(
            pa,
            `expected {name, cda, min_speed, max_speed}, got ${show(p)}`,
          )
        }
        const q = p as Record<string, unknown>
        checkNumber(`${pa}.cda`, q.cda, 0.01, 5)
        checkSpeedRange(pa, ['min_speed', 'max_speed'], q.min_speed, q.max_speed, checkNumber)
      })
    } else {
      throw new EngineInputError(
        at,
        `expected one of ${[...Object.keys(OVERRIDE_RANGES), 'crr', 'positions'].join(', ')}, got an unknown field`,
      )
    }
  }
  return o as StoredSetupOverride
}

/** The saved setup with an optimization's override applied (the override is validated first). */
export function effectiveSetup(setup: StoredSetup, override: unknown): StoredSetup {
  const o = validateSetupOverride(override)
  const out: StoredSetup = { ...setup, crr: { ...setup.crr, ...(o.crr ?? {}) } }
  for (const key of Object.keys(OVERRIDE_RANGES) as (keyof typeof OVERRIDE_RANGES)[]) {
    const v = (o as Record<string, unknown>)[key]
    if (v !== undefined) (out as Record<string, unknown>)[key] = v
  }
  if (o.positions) out.positions = o.positions.map((p) => ({ ...p }))
  return out
}

const ENV_NAMES: Record<string, string> = {
  temperature_c: 'temperature_c',
  pressure_pa: 'pressure_pa',
  pressure_altitude_m: 'pressure_altitude_m',
  altitude_m: 'pressure_altitude_m',
  relative_humidity: 'relative_humidity',
  wind_speed_mps: 'wind_speed_mps',
  wind_from_deg: 'wind_from_deg',
  wind_segments: 'wind_segments',
}

/** The optimizer input of a course, a setup and an optimization's stored inputs. */
export function storedOptimizerInput(
  rows: readonly StoredSegmentRow[],
  courseSurface: StoredSurface | undefined | null,
  savedSetup: StoredSetup,
  storedInputs: Record<string, unknown> | null | undefined,
  type: 'pacing' | 'equipment',
): StoredOptimizerInput {
  const inputs = storedInputs ?? {}
  const setup = effectiveSetup(savedSetup, inputs.rider_override)
  const crr = setup.crr
  const surface = courseSurface ?? 'normal'
  const segments: CourseSegmentInput[] = rows.map((s) => ({
    lengthM: s.end - s.start,
    grade: s.grade,
    headingDeg: s.heading,
    ...(s.radius ? { radiusM: s.radius } : {}),
    // The setup's tyres give a Crr per surface; the engine takes a factor on the rider's Crr.
    crrFactor: crr.normal > 0 ? (crr[s.surface ?? surface] ?? crr.normal) / crr.normal : 1,
  }))
  const rider: Record<string, unknown> = {
    mass_kg: setup.rider_mass + setup.extra_mass,
    bike_mass_kg: setup.bike_mass,
    // The reference drag area; the other positions are per-segment factors on it.
    cda_m2: setup.positions[0]?.cda ?? Number.NaN,
    crr: crr.normal,
    drivetrain_efficiency: setup.drivetrain_efficiency,
    wheel_inertia_kg_m2: setup.wheel_inertia,
    max_power_w: setup.max_power ?? (setup.cp !== null ? Math.round(2 * setup.cp) : 1000),
  }
  if (setup.cp !== null) rider.cp_w = setup.cp
  if (setup.w_prime !== null) rider.w_prime_j = setup.w_prime
  if (setup.durability !== undefined && setup.durability !== null) {
    rider.durability = setup.durability
  }
  if (setup.heat_acclimatised) rider.heat_acclimatised = true
  if (setup.positions.length > 1) {
    rider.positions = setup.positions.map((p) => ({
      ...(p.name !== undefined ? { name: p.name } : {}),
      cda_m2: p.cda,
      ...(p.min_speed !== undefined ? { min_speed_mps: p.min_speed } : {}),
      ...(p.max_speed !== undefined ? { max_speed_mps: p.max_speed } : {}),
    }))
  }
  const env = (inputs.environment ?? {}) as Record<string, unknown>
  // event_start (and anything else the engine does not know) stays in the stored inputs only
  const environment: Record<string, unknown> = { temperature_c: env.temperature_c ?? 20 }
  for (const [from, to] of Object.entries(ENV_NAMES)) {
    if (env[from] !== undefined && env[from] !== null) environment[to] = env[from]
  }
  if (Array.isArray(environment.wind_segments) && environment.wind_segments.length === 0) {
    delete environment.wind_segments
  }
  const targets = typeof inputs.max_targets === 'number' ? inputs.max_targets : 12
  const scenario: Record<string, unknown> = {
    course: { file: 'course' },
    rider,
    environment,
    constraint: inputs.constraint ?? { type: 'w_prime_balance' },
    max_targets: Math.min(20, Math.max(1, Math.round(targets))),
  }
  if (inputs.min_power_w !== undefined) scenario.min_power_w = inputs.min_power_w
  // options, fuel and rules pass as stored: the engine's parser checks them and names the field
  for (const key of ['options', 'fuel', 'rules'] as const) {
    if (inputs[key] !== undefined && inputs[key] !== null) scenario[key] = inputs[key]
  }
  if (type === 'equipment') scenario.equipment = equipmentOf(inputs.equipment, crr.normal)
  return { scenario, segments, startAltitudeM: rows[0]?.altitude ?? 0, setup }
}

/** An equipment option in the older list form (ΔCdA m², Δmass kg, Crr factor). */
type ListOption = { name: string; cda_delta?: number; mass_delta?: number; crr_factor?: number }

/** The list form's groups → the engine's {groups, baseline}; the engine's form passes through. */
function equipmentOf(value: unknown, crr: number): unknown {
  const groups = (value as { groups?: unknown } | undefined)?.groups
  if (!Array.isArray(groups)) return value
  const out: Record<string, unknown[]> = {}
  const baseline: Record<string, string> = {}
  for (const group of groups as { name: string; options: ListOption[] }[]) {
    const options = Array.isArray(group?.options) ? group.options : []
    out[group.name] = options.map((o) => ({
      name: o.name,
      cda_delta_m2: o.cda_delta ?? 0,
      mass_delta_kg: o.mass_delta ?? 0,
      ...(o.crr_factor !== undefined && o.crr_factor !== 1 ? { crr: crr * o.crr_factor } : {}),
    }))
    if (options[0]) baseline[group.name] = options[0].name
  }
  return { groups: out, baseline }
}

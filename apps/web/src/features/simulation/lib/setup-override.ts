// A rider setup tweaked inside one optimization: the changed values are kept in the optimization's
// `inputs.rider_override` (the setup row's keys and SI units, only what differs from the saved
// setup); the saved setup is untouched until the user promotes the values back to it.
import {
  fromDisplay,
  toDisplay,
  unitLabel,
  type Quantity,
  type UnitSystem,
} from '../../../lib/units.ts'
import type { OptimizationInputs, SetupLike } from './engine-input.ts'

export type SetupOverride = NonNullable<OptimizationInputs['rider_override']>

export type OverrideKey =
  | 'rider_mass'
  | 'bike_mass'
  | 'extra_mass'
  | 'cda0'
  | 'cda1'
  | 'crr_smooth'
  | 'crr_normal'
  | 'crr_rough'
  | 'drivetrain_efficiency'
  | 'cp'
  | 'w_prime'
  | 'max_power'

/** The override as the form holds it: the text typed for each field the user changed. */
export type OverrideTexts = Partial<Record<OverrideKey, string>>

type FieldDef = {
  key: OverrideKey
  label: string
  /** A unit-system quantity, or a fixed unit with `scale` (SI = shown × scale). */
  quantity?: Quantity
  unit?: string
  scale?: number
  /** The accepted range in SI (the API's rider setup schema). */
  min: number
  max: number
  digits: number
  nullable?: boolean
}

/** The setup values the panel shows, with the rider setup API's ranges. */
export const OVERRIDE_FIELDS: readonly FieldDef[] = [
  { key: 'rider_mass', label: 'Rider weight', quantity: 'mass', min: 25, max: 250, digits: 1 },
  { key: 'bike_mass', label: 'Bike mass', quantity: 'mass', min: 3, max: 40, digits: 2 },
  {
    key: 'extra_mass',
    label: 'Kit and bottles mass',
    quantity: 'mass',
    min: 0,
    max: 30,
    digits: 2,
  },
  { key: 'cda0', label: 'Position 1 CdA', unit: 'm²', min: 0.1, max: 0.8, digits: 3 },
  { key: 'cda1', label: 'Position 2 CdA', unit: 'm²', min: 0.1, max: 0.8, digits: 3 },
  { key: 'crr_smooth', label: 'Crr on smooth roads', min: 0.001, max: 0.03, digits: 4 },
  { key: 'crr_normal', label: 'Crr on normal roads', min: 0.001, max: 0.03, digits: 4 },
  { key: 'crr_rough', label: 'Crr on rough roads', min: 0.001, max: 0.05, digits: 4 },
  {
    key: 'drivetrain_efficiency',
    label: 'Drivetrain efficiency',
    unit: '%',
    scale: 0.01,
    min: 0.8,
    max: 1,
    digits: 2,
  },
  { key: 'cp', label: 'CP', unit: 'W', min: 50, max: 700, digits: 0, nullable: true },
  {
    key: 'w_prime',
    label: 'W′',
    unit: 'kJ',
    scale: 1000,
    min: 1000,
    max: 60000,
    digits: 1,
    nullable: true,
  },
  {
    key: 'max_power',
    label: 'Max power',
    unit: 'W',
    min: 100,
    max: 3000,
    digits: 0,
    nullable: true,
  },
]

const def = (key: OverrideKey) => OVERRIDE_FIELDS.find((f) => f.key === key)!

export const fieldUnit = (f: FieldDef, system: UnitSystem) =>
  f.quantity ? unitLabel(f.quantity, system) : (f.unit ?? '')

const toShown = (f: FieldDef, si: number, system: UnitSystem) =>
  f.quantity ? toDisplay(f.quantity, si, system) : si / (f.scale ?? 1)
const fromShown = (f: FieldDef, shown: number, system: UnitSystem) =>
  f.quantity ? fromDisplay(f.quantity, shown, system) : shown * (f.scale ?? 1)

/** The text a field shows for an SI value ('' for none). */
export function showValue(key: OverrideKey, si: number | null | undefined, system: UnitSystem) {
  if (si === null || si === undefined || !Number.isFinite(si)) return ''
  const f = def(key)
  return String(Number(toShown(f, si, system).toFixed(f.digits)))
}

/** A field's SI value in a setup (null when the setup has none, e.g. no CP). */
export function valueOf(
  setup: SetupOverride | SetupLike,
  key: OverrideKey,
): number | null | undefined {
  switch (key) {
    case 'cda0':
      return setup.positions?.[0]?.cda
    case 'cda1':
      return setup.positions?.[1]?.cda
    case 'crr_smooth':
      return setup.crr?.smooth
    case 'crr_normal':
      return setup.crr?.normal
    case 'crr_rough':
      return setup.crr?.rough
    default:
      return setup[key]
  }
}

/** The texts of a stored override (every field it carries, in the user's units). */
export function overrideTextsOf(
  override: SetupOverride | undefined,
  system: UnitSystem,
): OverrideTexts {
  const texts: OverrideTexts = {}
  if (!override) return texts
  for (const f of OVERRIDE_FIELDS) {
    const v = valueOf(override, f.key)
    if (v !== undefined) texts[f.key] = showValue(f.key, v, system)
  }
  return texts
}

export type ReadOverride = {
  /** Only the values that differ from the setup; undefined when nothing does. */
  override: SetupOverride | undefined
  /** The fields that differ from the saved setup. */
  changed: OverrideKey[]
  /** Field key ("ov.rider_mass") → message naming the field, the range and the value. */
  errors: Record<string, string>
}

/**
 * Reads the typed values against the saved `setup`: a value equal to the setup's (as shown in the
 * user's units) is no change. `stored` is the override as saved: a text still showing its value
 * keeps the stored number exactly (no drift from rounding to the display unit).
 */
export function readOverride(
  texts: OverrideTexts,
  setup: SetupLike | undefined,
  stored: SetupOverride | undefined,
  system: UnitSystem,
): ReadOverride {
  const errors: Record<string, string> = {}
  const values: Partial<Record<OverrideKey, number | null>> = {}
  const changed: OverrideKey[] = []
  for (const f of OVERRIDE_FIELDS) {
    const text = texts[f.key]
    if (text === undefined) continue
    const label = `Adjusted setup: ${f.label}`
    const unit = fieldUnit(f, system)
    const t = text.trim().replace(',', '.')
    const base = setup ? valueOf(setup, f.key) : undefined
    if (setup && t === showValue(f.key, base, system)) continue
    let si: number | null
    if (t === '') {
      if (!f.nullable) {
        errors[`ov.${f.key}`] = `${label}: enter a value.`
        continue
      }
      si = null
    } else {
      const shown = Number(t)
      if (!Number.isFinite(shown)) {
        errors[`ov.${f.key}`] = `${label}: “${text}” is not a number.`
        continue
      }
      const kept = stored ? valueOf(stored, f.key) : undefined
      si = kept != null && showValue(f.key, kept, system) === t ? kept : fromShown(f, shown, system)
      if (si < f.min - 1e-9 || si > f.max + 1e-9) {
        const lo = toShown(f, f.min, system).toFixed(f.digits)
        const hi = toShown(f, f.max, system).toFixed(f.digits)
        errors[`ov.${f.key}`] =
          `${label} must be between ${lo} and ${hi}${unit ? ` ${unit}` : ''} (got ${t}).`
        continue
      }
    }
    if (setup && base !== undefined && (base ?? null) === si) continue
    values[f.key] = si
    changed.push(f.key)
  }
  const override: SetupOverride = {}
  for (const key of ['rider_mass', 'bike_mass', 'extra_mass', 'drivetrain_efficiency'] as const) {
    const v = values[key]
    if (typeof v === 'number') override[key] = v
  }
  for (const key of ['cp', 'w_prime', 'max_power'] as const) {
    if (values[key] !== undefined) override[key] = values[key]
  }
  if (values.cda0 != null || values.cda1 != null) {
    const positions = setup?.positions ?? stored?.positions ?? []
    if (positions.length === 0) errors['ov.cda0'] = 'Adjusted setup: the setup has no positions.'
    override.positions = positions.map((p, i) => {
      const cda = i === 0 ? values.cda0 : i === 1 ? values.cda1 : undefined
      return typeof cda === 'number' ? { ...p, cda } : { ...p }
    })
  }
  if (values.crr_smooth != null || values.crr_normal != null || values.crr_rough != null) {
    const crr = setup?.crr ?? stored?.crr
    if (!crr) errors['ov.crr_normal'] = 'Adjusted setup: the setup has no Crr values.'
    else
      override.crr = {
        smooth: values.crr_smooth ?? crr.smooth,
        normal: values.crr_normal ?? crr.normal,
        rough: values.crr_rough ?? crr.rough,
      }
  }
  if (setup && !errors['ov.cp'] && !errors['ov.w_prime']) {
    const cp = 'cp' in override ? override.cp : setup.cp
    const wPrime = 'w_prime' in override ? override.w_prime : setup.w_prime
    if ((cp === null) !== (wPrime === null))
      errors[cp === null ? 'ov.cp' : 'ov.w_prime'] =
        'Adjusted setup: CP and W′ go together: enter both or neither.'
  }
  return {
    override: Object.keys(override).length > 0 ? override : undefined,
    changed,
    errors,
  }
}

/** The setup with the override applied (what the optimization computes with). */
export function applyOverride<S extends SetupLike>(
  setup: S,
  override: SetupOverride | undefined,
): S {
  if (!override) return setup
  return { ...setup, ...override, crr: { ...setup.crr, ...override.crr } } as S
}

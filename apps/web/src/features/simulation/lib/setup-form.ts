// The rider-setup form's texts in the user's units: a stored setup or the rider profile as texts,
// the stated defaults that fill fields until the user types (max power, the CdA estimate), what
// is still missing, and the unit switch. The schema reading them is components/rider-form/schema.ts.
import { fromDisplay, toDisplay, type Quantity, type UnitSystem } from '../../../lib/units.ts'
import { defaultMaxPower, riderSetupFormSchema, type RiderProfile } from '@veloptima/contracts'
import { durabilityByLevel } from '@veloptima/engine'
import type { RiderSetup } from './api.ts'
import { estimatePositions } from './cda.ts'

export type BikeType = 'triathlon' | 'time_trial' | 'road_race' | 'road_endurance'
export const BIKE_TYPES: { value: BikeType; label: string }[] = [
  { value: 'triathlon', label: 'Triathlon' },
  { value: 'time_trial', label: 'Time trial' },
  { value: 'road_race', label: 'Road race' },
  { value: 'road_endurance', label: 'Road endurance' },
]

/** Tyre presets → Crr by surface (docs/engine/science.md §3 ranges: smooth/normal/rough road). */
export const TYRES = [
  {
    value: 'race_tubeless',
    label: 'Race tubeless / latex tube (e.g. 28 mm)',
    crr: [0.0025, 0.0032, 0.0045],
  },
  { value: 'race_butyl', label: 'Race tyre, butyl tube', crr: [0.0032, 0.004, 0.0055] },
  { value: 'training', label: 'Training / 4-season tyre', crr: [0.0045, 0.0055, 0.0075] },
  { value: 'gravel', label: 'Gravel tyre (40 mm)', crr: [0.0045, 0.005, 0.0065] },
  { value: 'custom', label: 'Custom Crr values', crr: [0.0032, 0.004, 0.0055] },
] as const
export type TyreKey = (typeof TYRES)[number]['value']

export type PositionForm = { name: string; cda: string; minSpeed: string; maxSpeed: string }

export type SetupForm = {
  name: string
  riderName: string
  owner: string
  bikeType: BikeType
  riderMass: string
  riderHeight: string
  bikeMass: string
  extraMass: string
  positions: [PositionForm, PositionForm]
  tyre: TyreKey
  crrSmooth: string
  crrNormal: string
  crrRough: string
  efficiency: string
  cp: string
  wPrimeKj: string
  maxPower: string
  /** % of CP and W′ lost per 1,000 kJ of work; empty: no fade modelled. */
  durabilityPct: string
  heatAcclimatised: boolean
}

const show = (q: Quantity, si: number | null | undefined, system: UnitSystem, digits: number) =>
  si === null || si === undefined ? '' : String(Number(toDisplay(q, si, system).toFixed(digits)))

export function emptyForm(system: UnitSystem): SetupForm {
  return {
    name: '',
    riderName: '',
    owner: '',
    bikeType: 'road_race',
    riderMass: '',
    riderHeight: '',
    bikeMass: show('mass', 8, system, 1),
    extraMass: show('mass', 1.5, system, 1),
    positions: [
      {
        name: 'Drops',
        cda: '',
        minSpeed: show('speed', 25 / 3.6, system, 0),
        maxSpeed: show('speed', 30, system, 0),
      },
      { name: 'Hoods', cda: '', minSpeed: '0', maxSpeed: show('speed', 25 / 3.6, system, 0) },
    ],
    tyre: 'race_butyl',
    crrSmooth: '0.0032',
    crrNormal: '0.004',
    crrRough: '0.0055',
    efficiency: '97.6',
    cp: '',
    wPrimeKj: '',
    maxPower: '',
    durabilityPct: '',
    heatAcclimatised: false,
  }
}

export function formOf(s: RiderSetup, system: UnitSystem): SetupForm {
  const extras = s.extras as { rider_name?: string; rider_height?: number; tyre?: TyreKey }
  const pos = (i: number): PositionForm => {
    const p = s.positions[i]
    return p
      ? {
          name: p.name,
          cda: String(p.cda),
          minSpeed: show('speed', p.min_speed, system, 1),
          maxSpeed: show('speed', p.max_speed, system, 1),
        }
      : { name: i === 0 ? 'Position 1' : 'Position 2', cda: '', minSpeed: '', maxSpeed: '' }
  }
  return {
    name: s.name,
    riderName: extras.rider_name ?? '',
    owner: s.owner,
    bikeType: s.bike_type,
    riderMass: show('mass', s.rider_mass, system, 1),
    riderHeight: show('height', extras.rider_height, system, system === 'metric' ? 0 : 1),
    bikeMass: show('mass', s.bike_mass, system, 2),
    extraMass: show('mass', s.extra_mass, system, 2),
    positions: [pos(0), pos(1)],
    tyre: extras.tyre ?? 'custom',
    crrSmooth: String(s.crr.smooth),
    crrNormal: String(s.crr.normal),
    crrRough: String(s.crr.rough),
    efficiency: String(Number((s.drivetrain_efficiency * 100).toFixed(2))),
    cp: s.cp === null ? '' : String(s.cp),
    wPrimeKj: s.w_prime === null ? '' : String(s.w_prime / 1000),
    maxPower: s.max_power === null ? '' : String(s.max_power),
    durabilityPct:
      s.durability === null || s.durability === undefined
        ? ''
        : String(Number((s.durability * 100).toFixed(2))),
    heatAcclimatised: s.heat_acclimatised ?? false,
  }
}

/** The rider profile's values a new setup starts from (SI; null when not given). */
export type ProfileValues = Pick<RiderProfile, 'rider_height' | 'rider_weight' | 'cp' | 'w_prime'>

/**
 * Which fields still follow their stated default instead of a typed value: max power (from CP and
 * W′) and each position's CdA (the estimate from height, weight and bike type). Typing into one
 * makes it the user's.
 */
export type Derived = { maxPower: boolean; cda: [boolean, boolean] }

export const NEW_SETUP_DERIVED: Derived = { maxPower: true, cda: [true, true] }

/** A stored setup keeps its values; only a missing max power follows the default. */
export const storedDerived = (s: RiderSetup): Derived => ({
  maxPower: s.max_power === null,
  cda: [false, false],
})

/** A new setup's form: the defaults, with the rider profile's height, weight, CP and W′. */
export function newSetupForm(system: UnitSystem, profile: ProfileValues | null): SetupForm {
  const f = emptyForm(system)
  if (!profile) return f
  return {
    ...f,
    riderMass: show('mass', profile.rider_weight, system, 1),
    riderHeight: show('height', profile.rider_height, system, system === 'metric' ? 0 : 1),
    cp: profile.cp === null ? '' : String(Math.round(profile.cp)),
    wPrimeKj: profile.w_prime === null ? '' : String(Number((profile.w_prime / 1000).toFixed(1))),
  }
}

const typed = (text: string) => Number(text.trim().replace(',', '.'))

/**
 * The durability typical of the form's CP per kg (engine's durabilityByLevel), or null while CP
 * or the mass is not a number: the hint beside the durability field.
 */
export function formDurabilityHint(
  form: Pick<SetupForm, 'cp' | 'riderMass'>,
  system: UnitSystem,
): { pct: number; level: string; cpPerKg: number } | null {
  const cp = typed(form.cp)
  const mass = fromDisplay('mass', typed(form.riderMass), system)
  if (!(cp > 0 && mass > 0) || form.cp.trim() === '' || form.riderMass.trim() === '') return null
  const d = durabilityByLevel(cp, mass)
  return { pct: Math.round(d.durability * 1000) / 10, level: d.level, cpPerKg: d.cpPerKg }
}

/** The default max power of the form's CP and W′ (W), or null while they are not valid. */
export function formMaxPowerDefault(form: SetupForm): number | null {
  const cp = typed(form.cp)
  const wPrimeJ = typed(form.wPrimeKj) * 1000
  if (form.cp.trim() === '' || form.wPrimeKj.trim() === '') return null
  const { cp: cpRule, w_prime: wPrimeRule } = riderSetupFormSchema.shape
  if (!cpRule.safeParse(cp).success || !wPrimeRule.safeParse(wPrimeJ).success) return null
  return defaultMaxPower(cp, wPrimeJ)
}

/** The CdA estimate of the form's bike type, height and weight (NaN when they are not valid). */
export function formCdaEstimate(
  form: Pick<SetupForm, 'bikeType' | 'riderHeight' | 'riderMass'>,
  system: UnitSystem,
) {
  const h = typed(form.riderHeight)
  const m = typed(form.riderMass)
  return estimatePositions(
    form.bikeType,
    form.riderHeight.trim() && h > 0 ? fromDisplay('height', h, system) : Number.NaN,
    form.riderMass.trim() && m > 0 ? fromDisplay('mass', m, system) : Number.NaN,
  )
}

/** Position names the estimate gives; a position still named so follows the bike type's. */
const ESTIMATE_NAMES = new Set(['Drops', 'Hoods', 'Extensions', 'Base bar'])

/** The form as shown: each field still following its default gets the default's value. */
export function withDerived(form: SetupForm, system: UnitSystem, derived: Derived): SetupForm {
  const out: SetupForm = {
    ...form,
    positions: [{ ...form.positions[0] }, { ...form.positions[1] }],
  }
  if (derived.maxPower) {
    const max = formMaxPowerDefault(form)
    out.maxPower = max === null ? '' : String(max)
  }
  const estimate = formCdaEstimate(form, system)
  for (const i of [0, 1] as const) {
    if (!derived.cda[i]) continue
    const e = estimate[i]!
    out.positions[i].cda = Number.isFinite(e.cda) ? e.cda.toFixed(3) : ''
    if (ESTIMATE_NAMES.has(out.positions[i].name)) out.positions[i].name = e.name
  }
  return out
}

/** The labels of the values the form still needs (empty required fields), in the form's order. */
export function missingFields(form: SetupForm): string[] {
  const empty = (t: string) => t.trim() === ''
  const out: string[] = []
  if (empty(form.name)) out.push('Setup name')
  if (empty(form.riderMass)) out.push('Rider weight')
  if (empty(form.cp)) out.push('CP')
  if (empty(form.wPrimeKj)) out.push('W′')
  if (empty(form.bikeMass)) out.push('Bike mass')
  if (empty(form.extraMass)) out.push('Kit and bottles mass')
  form.positions.forEach((p, i) => {
    if (empty(p.name)) out.push(`Position ${i + 1} name`)
    if (empty(p.cda)) out.push(`Position ${i + 1} CdA`)
    if (empty(p.minSpeed)) out.push(`Position ${i + 1} from`)
    if (empty(p.maxSpeed)) out.push(`Position ${i + 1} to`)
  })
  if (empty(form.crrSmooth) || empty(form.crrNormal) || empty(form.crrRough)) out.push('Crr')
  if (empty(form.efficiency)) out.push('Drivetrain efficiency')
  return out
}

/**
 * The form's text in another unit system: every field holding a number in a unit is converted
 * (with the digits `formOf` shows), whatever the other fields hold, so a half-filled form never
 * shows kilograms labelled as pounds; text that is not a number is kept as typed.
 */
export function convertForm(form: SetupForm, from: UnitSystem, to: UnitSystem): SetupForm {
  if (from === to) return form
  const convert = (q: Quantity, text: string, digits: number) => {
    const t = text.trim().replace(',', '.')
    const shown = Number(t)
    if (t === '' || !Number.isFinite(shown)) return text
    return String(Number(toDisplay(q, fromDisplay(q, shown, from), to).toFixed(digits)))
  }
  const position = (p: PositionForm): PositionForm => ({
    ...p,
    minSpeed: convert('speed', p.minSpeed, 1),
    maxSpeed: convert('speed', p.maxSpeed, 1),
  })
  return {
    ...form,
    riderMass: convert('mass', form.riderMass, 1),
    riderHeight: convert('height', form.riderHeight, to === 'metric' ? 0 : 1),
    bikeMass: convert('mass', form.bikeMass, 2),
    extraMass: convert('mass', form.extraMass, 2),
    positions: [position(form.positions[0]), position(form.positions[1])],
  }
}

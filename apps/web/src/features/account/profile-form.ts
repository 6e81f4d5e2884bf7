import { z } from 'zod'
import {
  defaultMaxPower,
  type RiderProfile,
  type RiderProfilePut,
  type RiderSetup,
  type RiderSetupPatch,
} from '@veloptima/contracts'
import { fromDisplay, toDisplay, unitLabel, type UnitSystem } from '../../lib/units.ts'

/** The form's values as typed: strings in the user's units (empty = not given). */
export type ProfileFormValues = {
  rider_name: string
  rider_height: string
  rider_weight: string
  cp: string
  w_prime: string
}

// The API's ranges (packages/contracts riders.ts), in SI.
const HEIGHT_M = [1.0, 2.5] as const
const WEIGHT_KG = [25, 250] as const
const CP_W = [50, 700] as const
const W_PRIME_J = [1000, 60000] as const

const round = (x: number, digits: number) => Number(x.toFixed(digits))

/** One optional number field with its range in the shown unit; the message names the field. */
function numberField(label: string, min: number, max: number, unit: string) {
  return z.string().superRefine((raw, ctx) => {
    const text = raw.trim()
    if (!text) return
    const value = Number(text.replace(',', '.'))
    if (!Number.isFinite(value)) {
      ctx.addIssue({ code: 'custom', message: `${label} must be a number (got "${text}").` })
    } else if (value < min || value > max) {
      ctx.addIssue({
        code: 'custom',
        message: `${label} must be between ${min} and ${max} ${unit} (got ${text} ${unit}).`,
      })
    }
  })
}

/** The labels with units, as the form shows them. */
export function profileLabels(system: UnitSystem) {
  return {
    height: unitLabel('height', system),
    mass: unitLabel('mass', system),
  }
}

/** The validation of the rider profile in the chosen units. */
export function profileFormSchema(system: UnitSystem) {
  const h = unitLabel('height', system)
  const m = unitLabel('mass', system)
  const hDigits = system === 'metric' ? 0 : 1
  return z.object({
    rider_name: z.string().trim().max(100, 'Rider name must be at most 100 characters.'),
    rider_height: numberField(
      'Rider height',
      round(toDisplay('height', HEIGHT_M[0], system), hDigits),
      round(toDisplay('height', HEIGHT_M[1], system), hDigits),
      h,
    ),
    rider_weight: numberField(
      'Rider weight',
      round(toDisplay('mass', WEIGHT_KG[0], system), 1),
      round(toDisplay('mass', WEIGHT_KG[1], system), 1),
      m,
    ),
    cp: numberField('CP', CP_W[0], CP_W[1], 'W'),
    w_prime: numberField('W′', W_PRIME_J[0] / 1000, W_PRIME_J[1] / 1000, 'kJ'),
  })
}

const shown = (x: number | null, digits: number) => (x == null ? '' : String(round(x, digits)))

/** Profile (SI) → form values in the user's units. */
export function toFormValues(p: RiderProfile | null, system: UnitSystem): ProfileFormValues {
  return {
    rider_name: p?.rider_name ?? '',
    rider_height:
      p?.rider_height == null
        ? ''
        : shown(toDisplay('height', p.rider_height, system), system === 'metric' ? 0 : 1),
    rider_weight:
      p?.rider_weight == null ? '' : shown(toDisplay('mass', p.rider_weight, system), 1),
    cp: shown(p?.cp ?? null, 0),
    w_prime: p?.w_prime == null ? '' : shown(p.w_prime / 1000, 1),
  }
}

const num = (s: string) => (s.trim() ? Number(s.trim().replace(',', '.')) : null)

/** Valid form values → the PUT /api/rider-profiles/:uid body (SI; empty clears). */
export function toProfilePut(v: ProfileFormValues, system: UnitSystem): RiderProfilePut {
  const height = num(v.rider_height)
  const weight = num(v.rider_weight)
  const wPrime = num(v.w_prime)
  return {
    rider_name: v.rider_name.trim() || null,
    rider_height: height == null ? null : round(fromDisplay('height', height, system), 4),
    rider_weight: weight == null ? null : round(fromDisplay('mass', weight, system), 3),
    cp: num(v.cp),
    w_prime: wPrime == null ? null : round(wPrime * 1000, 0),
  }
}

/** The profile values a rider setup can take over (SI). */
export type ProfileValues = Pick<RiderProfile, 'rider_height' | 'rider_weight' | 'cp' | 'w_prime'>

/** One value a setup would change, in the user's units. */
export type SetupChange = { label: string; from: string; to: string }

/** A rider setup that used the previous profile values and the patch that carries the new ones. */
export type SetupUpdate = {
  id: string
  name: string
  patch: RiderSetupPatch
  changes: SetupChange[]
}

const near = (a: number | null | undefined, b: number | null, tolerance: number) =>
  typeof a === 'number' && b !== null && Math.abs(a - b) <= tolerance

/**
 * The setups that hold a profile value the save changed (the setup's value is the previous
 * profile's: it was typed once, in the profile), with the new values: height, weight, CP, W′, and
 * max power when it was the default of the previous CP and W′ or would no longer be above CP
 * (defaultMaxPower, docs/engine/science.md §3.1). Applied only when the user confirms.
 */
export function setupUpdatesFor(
  setups: readonly RiderSetup[],
  before: ProfileValues | null,
  after: ProfileValues,
  system: UnitSystem,
): SetupUpdate[] {
  if (!before) return []
  const mass = (kg: number) =>
    `${round(toDisplay('mass', kg, system), 1)} ${unitLabel('mass', system)}`
  const height = (m: number) =>
    `${round(toDisplay('height', m, system), system === 'metric' ? 0 : 1)} ${unitLabel('height', system)}`
  const changed = (k: keyof ProfileValues, tolerance: number) =>
    before[k] !== null && after[k] !== null && !near(before[k], after[k], tolerance)
  const out: SetupUpdate[] = []
  for (const s of setups) {
    const patch: RiderSetupPatch = {}
    const changes: SetupChange[] = []
    if (changed('rider_weight', 0.0005) && near(s.rider_mass, before.rider_weight, 0.01)) {
      patch.rider_mass = after.rider_weight!
      changes.push({
        label: 'Rider weight',
        from: mass(s.rider_mass),
        to: mass(after.rider_weight!),
      })
    }
    const h = s.extras.rider_height
    if (changed('rider_height', 0.00005) && near(h, before.rider_height, 0.001)) {
      patch.extras = { ...s.extras, rider_height: after.rider_height! }
      changes.push({ label: 'Rider height', from: height(h!), to: height(after.rider_height!) })
    }
    if (changed('cp', 0.5) && near(s.cp, before.cp, 0.5)) {
      patch.cp = after.cp!
      changes.push({ label: 'CP', from: `${round(s.cp!, 0)} W`, to: `${round(after.cp!, 0)} W` })
    }
    if (changed('w_prime', 0.5) && near(s.w_prime, before.w_prime, 0.5)) {
      patch.w_prime = after.w_prime!
      const kj = (j: number) => `${round(j / 1000, 1)} kJ`
      changes.push({ label: 'W′', from: kj(s.w_prime!), to: kj(after.w_prime!) })
    }
    const cp = patch.cp ?? s.cp
    const wPrime = patch.w_prime ?? s.w_prime
    if ((patch.cp !== undefined || patch.w_prime !== undefined) && cp !== null && wPrime !== null) {
      const wasDefault =
        s.max_power !== null &&
        before.cp !== null &&
        before.w_prime !== null &&
        s.max_power === defaultMaxPower(before.cp, before.w_prime)
      if (wasDefault || (s.max_power !== null && s.max_power <= cp)) {
        patch.max_power = defaultMaxPower(cp, wPrime)
        changes.push({
          label: 'Max power (CP + W′/60 s)',
          from: `${s.max_power} W`,
          to: `${patch.max_power} W`,
        })
      }
    }
    if (changes.length > 0) out.push({ id: s.id, name: s.name, patch, changes })
  }
  return out
}

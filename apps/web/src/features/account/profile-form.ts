import { z } from 'zod'
import type { RiderProfile, RiderProfilePut } from '@veloptima/contracts'
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

// The rider setup form's schema: the texts typed in the user's units → the body the API takes
// (SI). The ranges and rules are the API's (`riderSetupFormSchema`, packages/contracts riders.ts),
// shown in the user's units; each message names the field, the range and the value typed.
import { z } from 'zod'
import { defaultMaxPower, riderSetupFormSchema, type RiderSetupForm } from '@veloptima/contracts'
import {
  fromDisplay,
  toDisplay,
  unitLabel,
  type Quantity,
  type UnitSystem,
} from '../../../../lib/units.ts'
import type { PositionForm, SetupForm } from '../../lib/setup-form.ts'

const rules = riderSetupFormSchema.shape
const positionRules = rules.positions.element.shape

/** A number field: its label, the API's rule and how its text maps to SI. */
type NumberSpec = {
  label: string
  rule: z.ZodNumber
  /** A quantity the user's unit system converts; otherwise `unit` with `scale` (SI per unit). */
  quantity?: Quantity
  unit?: string
  scale?: number
  /** Decimals of the range the message names. */
  digits?: number
  optional?: boolean
}

/** The text's value in SI: null when empty and optional, undefined with a message when invalid. */
function readNumber(
  text: string,
  spec: NumberSpec,
  system: UnitSystem,
  refuse: (message: string) => undefined,
): number | null | undefined {
  const { label, rule, quantity: q } = spec
  const t = text.trim().replace(',', '.')
  if (t === '') {
    if (!spec.optional) refuse(`${label}: enter a value.`)
    return spec.optional ? null : undefined
  }
  const shown = Number(t)
  if (!Number.isFinite(shown)) return refuse(`${label}: “${text}” is not a number.`)
  const unit = spec.unit ?? (q ? unitLabel(q, system) : '')
  const scale = spec.scale ?? 1
  const [min, max] = [rule.minValue ?? -Infinity, rule.maxValue ?? Infinity]
  const si = q ? fromDisplay(q, shown, system) : shown * scale
  if (si < 0)
    return refuse(`${label} cannot be negative (got ${shown} ${unit}).`.replace(' )', ')'))
  if (si < min - 1e-9 || si > max + 1e-9) {
    const [lo, hi] = q
      ? [toDisplay(q, min, system), toDisplay(q, max, system)]
      : [min / scale, max / scale]
    const d = spec.digits ?? 1
    return refuse(
      `${label} must be between ${lo.toFixed(d)} and ${hi.toFixed(d)} ${unit} (got ${shown}).`,
    )
  }
  return si
}

type Path = (string | number)[]

/** A name the API accepts: not empty, not longer than its rule. */
function readName(
  text: string,
  rule: z.ZodString,
  empty: string,
  refuse: (m: string) => undefined,
) {
  const name = text.trim()
  if (!name) refuse(empty)
  else if (rule.maxLength !== null && name.length > rule.maxLength) {
    refuse(`${empty.split(':')[0]}: at most ${rule.maxLength} characters (got ${name.length}).`)
  }
  return name
}

/** Where an issue goes: `at(...path)(message)` adds it and gives undefined. */
type At = (...path: Path) => (message: string) => undefined

/** One position's texts → the API's position (speeds in m/s). */
function readPosition(p: PositionForm, i: number, system: UnitSystem, at: At) {
  const label = `Position ${i + 1} (${p.name || 'unnamed'})`
  const pos = (key: keyof typeof p, spec: NumberSpec) =>
    readNumber(p[key], spec, system, at('positions', i, key))
  const posName = readName(
    p.name,
    positionRules.name,
    `Position ${i + 1}: enter a name.`,
    at('positions', i, 'name'),
  )
  const cda = pos('cda', {
    label: `${label} CdA`,
    rule: positionRules.cda,
    unit: 'm²',
    digits: 2,
  })
  const speed = { rule: positionRules.min_speed, quantity: 'speed' } as const
  const lo = pos('minSpeed', { label: `${label} lowest speed`, ...speed })
  const hi = pos('maxSpeed', {
    label: `${label} highest speed`,
    ...speed,
    rule: positionRules.max_speed,
  })
  if (lo != null && hi != null && lo > hi) {
    at('positions', i, 'minSpeed')(`${label}: the lowest speed must not exceed the highest.`)
  }
  return { name: posName, cda: cda ?? 0, min_speed: lo ?? 0, max_speed: hi ?? 0 }
}

/** The form's texts → the API's body, with an issue on each field the user must change. */
function readSetup(form: SetupForm, system: UnitSystem, ctx: z.RefinementCtx): RiderSetupForm {
  let failed = false
  const at: At =
    (...path) =>
    (message) => {
      failed = true
      ctx.addIssue({ code: 'custom', path, message })
      return undefined
    }
  const num = (key: keyof SetupForm, spec: NumberSpec) =>
    readNumber(form[key] as string, spec, system, at(key))
  const name = readName(form.name, rules.name, 'Setup name: enter a name.', at('name'))
  const riderName = form.riderName.trim()
  const riderNameMax = rules.extras.shape.rider_name.unwrap().maxLength ?? Infinity
  if (riderName.length > riderNameMax) {
    at('riderName')(`Rider name: at most ${riderNameMax} characters (got ${riderName.length}).`)
  }
  const riderMass = num('riderMass', {
    label: 'Rider weight',
    rule: rules.rider_mass,
    quantity: 'mass',
  })
  const height = num('riderHeight', {
    label: 'Rider height',
    rule: rules.extras.shape.rider_height.unwrap(),
    quantity: 'height',
    optional: true,
  })
  const bikeMass = num('bikeMass', { label: 'Bike mass', rule: rules.bike_mass, quantity: 'mass' })
  const extraMass = num('extraMass', {
    label: 'Kit and bottles mass',
    rule: rules.extra_mass,
    quantity: 'mass',
  })
  const positions = form.positions.map((p, i) => readPosition(p, i, system, at))
  const crrRule = rules.crr.shape
  const crr = {
    smooth: num('crrSmooth', { label: 'Crr on smooth roads', rule: crrRule.smooth, digits: 3 }),
    normal: num('crrNormal', { label: 'Crr on normal roads', rule: crrRule.normal, digits: 3 }),
    rough: num('crrRough', { label: 'Crr on rough roads', rule: crrRule.rough, digits: 3 }),
  }
  const efficiency = num('efficiency', {
    label: 'Drivetrain efficiency',
    rule: rules.drivetrain_efficiency,
    unit: '%',
    scale: 0.01,
    digits: 0,
  })
  const cp = num('cp', { label: 'CP', rule: rules.cp, unit: 'W', digits: 0 })
  const wPrime = num('wPrimeKj', { label: 'W′', rule: rules.w_prime, unit: 'kJ', scale: 1000 })
  const typedMax = num('maxPower', {
    label: 'Max power',
    rule: rules.max_power.unwrap(),
    unit: 'W',
    digits: 0,
    optional: true,
  })
  const durability = num('durabilityPct', {
    label: 'Durability',
    rule: rules.durability.unwrap().unwrap(),
    unit: '% per 1,000 kJ',
    scale: 0.01,
    digits: 0,
    optional: true,
  })
  // Empty: the stated default, CP + W′/60 s (defaultMaxPower).
  const maxPower =
    typedMax === null && cp != null && wPrime != null ? defaultMaxPower(cp, wPrime) : typedMax
  if (cp != null && maxPower != null && maxPower <= cp)
    at('maxPower')(`Max power must be above CP (${cp} W).`)
  if (failed) return z.NEVER
  return {
    name,
    bike_type: form.bikeType,
    rider_mass: riderMass!,
    bike_mass: bikeMass!,
    extra_mass: extraMass!,
    positions,
    crr: { smooth: crr.smooth!, normal: crr.normal!, rough: crr.rough! },
    drivetrain_efficiency: efficiency!,
    cp: cp!,
    w_prime: wPrime!,
    max_power: maxPower ?? null,
    durability: durability ?? null,
    heat_acclimatised: form.heatAcclimatised,
    extras: {
      rider_name: riderName,
      tyre: form.tyre,
      ...(height != null ? { rider_height: height } : {}),
    },
  }
}

/**
 * The form's schema in the user's unit system: it reads the texts into the API's body and checks
 * that body with the API's own schema, so what it accepts the API accepts.
 */
export function setupFormSchema(system: UnitSystem) {
  return z
    .custom<SetupForm>()
    .transform((form, ctx) => readSetup(form, system, ctx))
    .transform((body, ctx) => {
      const checked = riderSetupFormSchema.safeParse(body)
      if (checked.success) return checked.data
      for (const issue of checked.error.issues) {
        const field = formFieldOf(issue.path.map(String))
        ctx.addIssue({
          code: 'custom',
          path: field?.path ?? [],
          message: `${field?.label ?? issue.path.join('.')}: ${issue.message}`,
        })
      }
      return z.NEVER
    })
}

/** The form's labels of the API's fields (positions' fields by their own labels). */
const LABELS: Record<string, [keyof SetupForm, string]> = {
  name: ['name', 'Setup name'],
  bike_type: ['bikeType', 'Bike type'],
  rider_mass: ['riderMass', 'Rider weight'],
  bike_mass: ['bikeMass', 'Bike mass'],
  extra_mass: ['extraMass', 'Kit and bottles mass'],
  'crr.smooth': ['crrSmooth', 'Crr on smooth roads'],
  'crr.normal': ['crrNormal', 'Crr on normal roads'],
  'crr.rough': ['crrRough', 'Crr on rough roads'],
  drivetrain_efficiency: ['efficiency', 'Drivetrain efficiency'],
  cp: ['cp', 'CP'],
  w_prime: ['wPrimeKj', 'W′'],
  max_power: ['maxPower', 'Max power'],
  durability: ['durabilityPct', 'Durability'],
  'extras.rider_name': ['riderName', 'Rider name'],
  'extras.rider_height': ['riderHeight', 'Rider height'],
}
const POSITION_FIELDS = { name: 'name', cda: 'CdA', min_speed: 'from', max_speed: 'to' } as const
const POSITION_KEYS = {
  name: 'name',
  cda: 'cda',
  min_speed: 'minSpeed',
  max_speed: 'maxSpeed',
} as const

/** The form field (path and label) of an API field path such as `positions.1.cda`, or null. */
export function formFieldOf(apiPath: readonly string[]): { path: Path; label: string } | null {
  const [first, index, key] = apiPath
  if (first === 'positions' && (index === '0' || index === '1') && key && key in POSITION_KEYS) {
    const k = key as keyof typeof POSITION_KEYS
    return {
      path: ['positions', Number(index), POSITION_KEYS[k]],
      label: `Position ${Number(index) + 1} ${POSITION_FIELDS[k]}`,
    }
  }
  const known = LABELS[apiPath.join('.')]
  return known ? { path: [known[0]], label: known[1] } : null
}

/**
 * The API's refusal of a setup (a 400 whose details name each field, apps/api
 * services/validation.ts `invalidFields`) as messages on the form's fields, in its labels.
 */
export function fieldErrorsOf(details: unknown): { path: string; message: string }[] {
  const issues = (details as { issues?: unknown } | undefined)?.issues
  if (!Array.isArray(issues)) return []
  return issues.flatMap((issue: { field?: unknown; message?: unknown }) => {
    if (typeof issue.field !== 'string' || typeof issue.message !== 'string') return []
    const field = formFieldOf(issue.field.split('.'))
    if (!field) return []
    const said = issue.message.startsWith(`${issue.field}: `)
      ? issue.message.slice(issue.field.length + 2)
      : issue.message
    return [{ path: field.path.join('.'), message: `${field.label}: ${said}` }]
  })
}

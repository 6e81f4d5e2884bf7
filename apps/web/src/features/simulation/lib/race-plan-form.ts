// The race-plan part of the optimization form: the goal (the fastest plan, or the least-effort
// plan finishing in a target time), the heat and altitude effects on CP, the gut's carbohydrate
// tolerance and the pacing rules (an easy start, coasting, a descent power cap). Texts in the
// user's words (h:mm:ss, minutes, % of CP, % grade, W) ⇄ the optimization's `inputs` (SI: s,
// fractions, W). The ranges are the API's (packages/contracts simulation.ts).
import { MAX_TARGET_TIME_S, type PacingRules } from '@veloptima/contracts'
import type { UnitSystem } from '../../../lib/units.ts'
import type { OptimizationInputs } from './engine-input.ts'
import { readStretchRows, stretchRowOf, type StretchRow } from './rule-stretch-form.ts'

export type Goal = 'fastest' | 'target_time'

export const GOALS: readonly { value: Goal; label: string }[] = [
  { value: 'fastest', label: 'Fastest within the limit' },
  { value: 'target_time', label: 'Target time (least effort)' },
]

/** The gut tolerances offered (g of carbohydrate per hour); empty: the engine's default. */
export const GUT_TOLERANCES = ['60', '90', '120'] as const

export type RacePlanFields = {
  goal: Goal
  /** "h:mm:ss" (or "h:mm"). */
  targetTime: string
  /** CP lowered by the temperature above 17 °C along the ride. */
  heatEffect: boolean
  /** CP lowered by the altitude along the course. */
  altitudeEffect: boolean
  /** g/h as text; '' leaves the engine's default. */
  gutTolerance: string
  /** Minutes of easy start and its ceiling in % of CP (both or neither). */
  easyStartMin: string
  easyStartPct: string
  /** Coast (no power) on descents steeper than this grade, % (positive: "steeper than 5 %"). */
  coastSteeperPct: string
  /** Coast into the braking points before corners. */
  coastBraking: boolean
  /** Power cap on descents steeper than this grade (%, positive) and the cap (W). */
  descentCapPct: string
  descentCapW: string
  /** Stretches with a rule of their own (feed zones, a held power), in the user's units. */
  stretchRows: StretchRow[]
  /** The stored fuel (what the form does not show is kept as stored). */
  storedFuel: OptimizationInputs['fuel']
}

const trim = (x: number, d: number) => String(Number(x.toFixed(d)))

/** Seconds as "h:mm:ss" (always with the hours: "0:45:00"). */
export function clockOf(seconds: number): string {
  const s = Math.round(seconds)
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  return `${h}:${String(m).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`
}

/** "h:mm:ss" or "h:mm" → seconds; null when the text is not such a time. */
export function secondsOfClock(text: string): number | null {
  const m = /^(\d{1,3}):([0-5]?\d)(?::([0-5]?\d))?$/.exec(text.trim())
  if (!m) return null
  return Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3] ?? 0)
}

/** The race-plan fields of stored inputs. */
export function racePlanFieldsOf(inputs: OptimizationInputs, system: UnitSystem): RacePlanFields {
  const c = inputs.constraint
  const rules = inputs.rules
  const gut = inputs.fuel?.gut_tolerance_g_per_h
  return {
    goal: c?.type === 'target_time' ? 'target_time' : 'fastest',
    targetTime: c?.type === 'target_time' ? clockOf(c.time_s) : '',
    heatEffect: inputs.options?.heat ?? false,
    altitudeEffect: inputs.options?.altitude ?? false,
    gutTolerance: gut === undefined ? '' : String(gut),
    easyStartMin: rules?.easy_start ? trim(rules.easy_start.duration_s / 60, 1) : '',
    easyStartPct: rules?.easy_start ? trim(rules.easy_start.max_cp_fraction * 100, 1) : '',
    coastSteeperPct:
      rules?.coast?.descent_grade !== undefined ? trim(-rules.coast.descent_grade * 100, 1) : '',
    coastBraking: rules?.coast?.before_braking ?? false,
    descentCapPct: rules?.descent_cap ? trim(-rules.descent_cap.grade * 100, 1) : '',
    descentCapW: rules?.descent_cap ? String(rules.descent_cap.power_w) : '',
    stretchRows: (rules?.stretches ?? []).map((x) => stretchRowOf(x, system)),
    storedFuel: inputs.fuel,
  }
}

/** What the race-plan fields write into `inputs` (absent keys: nothing chosen). */
export type RacePlanInputs = Pick<OptimizationInputs, 'options' | 'fuel' | 'rules'> & {
  targetTimeS?: number
}

type Num = (
  key: string,
  label: string,
  text: string,
  lo: number,
  hi: number,
  unit: string,
) => number

/** Both texts of a pair or neither: the message names the one left empty. */
function pairFilled(
  a: [key: string, label: string, text: string],
  b: [key: string, label: string, text: string],
  what: string,
  errors: Record<string, string>,
): boolean {
  const [ea, eb] = [a[2].trim() === '', b[2].trim() === '']
  if (ea && eb) return false
  if (ea) errors[a[0]] = `${what}: enter the ${a[1]} too (or clear the ${b[1]}).`
  if (eb) errors[b[0]] = `${what}: enter the ${b[1]} too (or clear the ${a[1]}).`
  return !ea && !eb
}

/** Where the form is read: the user's units and the course's length (stretches lie inside). */
export type RacePlanContext = { system: UnitSystem; courseLengthM?: number | undefined }

/** The pacing rules of the form. */
function readRules(
  f: RacePlanFields,
  num: Num,
  errors: Record<string, string>,
  ctx: RacePlanContext,
): PacingRules | undefined {
  const rules: PacingRules = {}
  const easy = pairFilled(
    ['easyStartMin', 'minutes', f.easyStartMin],
    ['easyStartPct', '% of CP', f.easyStartPct],
    'Easy start',
    errors,
  )
  if (easy) {
    const min = num('easyStartMin', 'Easy start', f.easyStartMin, 0, 240, 'min')
    const pct = num('easyStartPct', 'Easy start ceiling', f.easyStartPct, 30, 120, '% of CP')
    rules.easy_start = { duration_s: Math.round(min * 60), max_cp_fraction: pct / 100 }
  }
  const coast: NonNullable<PacingRules['coast']> = {}
  if (f.coastSteeperPct.trim() !== '') {
    const pct = num('coastSteeperPct', 'Coasting grade', f.coastSteeperPct, 0, 30, '%')
    coast.descent_grade = pct === 0 ? 0 : -pct / 100
  }
  if (f.coastBraking) coast.before_braking = true
  if (Object.keys(coast).length > 0) rules.coast = coast
  const cap = pairFilled(
    ['descentCapPct', 'grade', f.descentCapPct],
    ['descentCapW', 'power', f.descentCapW],
    'Descent power cap',
    errors,
  )
  if (cap) {
    const pct = num('descentCapPct', 'Descent power cap grade', f.descentCapPct, 0, 30, '%')
    const w = num('descentCapW', 'Descent power cap', f.descentCapW, 0, 3000, 'W')
    rules.descent_cap = { grade: pct === 0 ? 0 : -pct / 100, power_w: w }
  }
  if (f.stretchRows.length > 0)
    rules.stretches = readStretchRows(f.stretchRows, ctx.system, ctx.courseLengthM, errors)
  return Object.keys(rules).length > 0 ? rules : undefined
}

/**
 * The race-plan fields in SI, each message under its field's key in `errors`. A target time is
 * for a pacing plan only (an equipment comparison ranks the options at their fastest).
 */
export function readRacePlan(
  f: RacePlanFields,
  type: 'pacing' | 'equipment',
  num: Num,
  errors: Record<string, string>,
  ctx: RacePlanContext,
): RacePlanInputs {
  const out: RacePlanInputs = {}
  if (f.goal === 'target_time') {
    const s = secondsOfClock(f.targetTime)
    const maxH = MAX_TARGET_TIME_S / 3600
    if (type === 'equipment')
      errors.goal = 'Goal: a target time plans one setup; choose “Fastest” to compare equipment.'
    else if (s === null)
      errors.targetTime = `Target time: enter a time as h:mm:ss, e.g. 2:30:00${f.targetTime.trim() ? ` (got “${f.targetTime}”)` : ''}.`
    else if (s < 60 || s > MAX_TARGET_TIME_S)
      errors.targetTime = `Target time must be between 0:01:00 and ${maxH}:00:00 (got ${f.targetTime.trim()}).`
    else out.targetTimeS = s
  }
  if (f.heatEffect || f.altitudeEffect)
    out.options = {
      ...(f.heatEffect ? { heat: true } : {}),
      ...(f.altitudeEffect ? { altitude: true } : {}),
    }
  const fuel: NonNullable<OptimizationInputs['fuel']> = {}
  if (f.gutTolerance.trim() !== '')
    fuel.gut_tolerance_g_per_h = num(
      'gutTolerance',
      'Gut tolerance',
      f.gutTolerance,
      30,
      150,
      'g/h',
    )
  if (f.storedFuel?.glycogen_store_g !== undefined)
    fuel.glycogen_store_g = f.storedFuel.glycogen_store_g
  if (Object.keys(fuel).length > 0) out.fuel = fuel
  const rules = readRules(f, num, errors, ctx)
  if (rules) out.rules = rules
  return out
}

// `rules` of a scenario (sim/rules.ts): what the rider does whatever the plan asks.
//   {"easy_start": {"duration_s", "max_cp_fraction"},
//    "coast": {"descent_grade", "before_braking"},
//    "descent_cap": {"grade", "power_w"},
//    "stretches": [{"start_m", "end_m", "max_power_w"?, "power_w"?, "max_speed_mps"?, "label"?}]}
// Grades are fractions (−0.06 is −6 %), distances metres from the start, speeds m/s.
import type { RideRules, RuleStretch } from './sim/rules.ts'
import { EngineInputError, jsonFields } from './sim/validate.ts'

type Json = Record<string, unknown>

const kind = (v: unknown): string => (v === undefined ? 'nothing' : JSON.stringify(v))
const { obj, numberAt, only } = jsonFields(kind)

function boolOf(o: Json, key: string, path: string): boolean | undefined {
  const v = o[key]
  if (v === undefined || typeof v === 'boolean') return v
  throw new EngineInputError(`${path}.${key}`, `expected true or false, got ${kind(v)}`)
}

function stretchOf(v: unknown, k: number): RuleStretch {
  const at = `rules.stretches[${k}]`
  const s = obj(v, at)
  only(s, at, ['start_m', 'end_m', 'max_power_w', 'power_w', 'max_speed_mps', 'label'])
  if (s.label !== undefined && typeof s.label !== 'string') {
    throw new EngineInputError(`${at}.label`, `expected text, got ${kind(s.label)}`)
  }
  const out: RuleStretch = {
    startM: numberAt(s, 'start_m', at, true),
    endM: numberAt(s, 'end_m', at, true),
  }
  const maxPowerW = numberAt(s, 'max_power_w', at)
  const powerW = numberAt(s, 'power_w', at)
  const maxSpeedMps = numberAt(s, 'max_speed_mps', at)
  if (maxPowerW === undefined && powerW === undefined && maxSpeedMps === undefined) {
    throw new EngineInputError(at, 'expected max_power_w, power_w or max_speed_mps, got none')
  }
  if (maxPowerW !== undefined) out.maxPowerW = maxPowerW
  if (powerW !== undefined) out.powerW = powerW
  if (maxSpeedMps !== undefined) out.maxSpeedMps = maxSpeedMps
  if (typeof s.label === 'string') out.label = s.label
  return out
}

/** The scenario's `rules` (undefined when absent); ranges are checked with the course. */
export function parseRules(v: unknown): RideRules | undefined {
  if (v === undefined) return undefined
  const r = obj(v, 'rules')
  only(r, 'rules', ['easy_start', 'coast', 'descent_cap', 'stretches'])
  const rules: RideRules = {}
  if (r.easy_start !== undefined) {
    const e = obj(r.easy_start, 'rules.easy_start')
    only(e, 'rules.easy_start', ['duration_s', 'max_cp_fraction'])
    rules.easyStart = {
      durationS: numberAt(e, 'duration_s', 'rules.easy_start', true),
      maxCpFraction: numberAt(e, 'max_cp_fraction', 'rules.easy_start', true),
    }
  }
  if (r.coast !== undefined) {
    const c = obj(r.coast, 'rules.coast')
    only(c, 'rules.coast', ['descent_grade', 'before_braking'])
    const descentGrade = numberAt(c, 'descent_grade', 'rules.coast')
    const beforeBraking = boolOf(c, 'before_braking', 'rules.coast')
    rules.coast = {
      ...(descentGrade !== undefined ? { descentGrade } : {}),
      ...(beforeBraking !== undefined ? { beforeBraking } : {}),
    }
  }
  if (r.descent_cap !== undefined) {
    const d = obj(r.descent_cap, 'rules.descent_cap')
    only(d, 'rules.descent_cap', ['grade', 'power_w'])
    rules.descentCap = {
      grade: numberAt(d, 'grade', 'rules.descent_cap', true),
      powerW: numberAt(d, 'power_w', 'rules.descent_cap', true),
    }
  }
  if (r.stretches !== undefined) {
    if (!Array.isArray(r.stretches) || r.stretches.length > 50) {
      throw new EngineInputError(
        'rules.stretches',
        `expected a list of at most 50, got ${kind(r.stretches)}`,
      )
    }
    rules.stretches = r.stretches.map(stretchOf)
  }
  return rules
}

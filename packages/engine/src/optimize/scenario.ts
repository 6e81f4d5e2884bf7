// The optimize scenario JSON: the `simulate` scenario plus `constraint`, optional `max_targets`,
// `min_power_w` and `equipment` (snake_case), and the JSON of the result.
import type { Course } from '../course/types.ts'
import { parseScenario, resultToJson } from '../scenario.ts'
import { EngineInputError, jsonFields } from '../sim/validate.ts'
import type { EquipmentOption, EquipmentResult, EquipmentSpec } from './equipment.ts'
import type { PacingConstraint } from './exact.ts'
import type { PacingInput } from './pacing.ts'
import type { PacingResult } from './positions.ts'
import type { TargetTimeOutcome } from './target-time.ts'
import type { FuelOptions } from '../fuel/types.ts'
import { majorityPosition } from '../sim/positions.ts'

type Json = Record<string, unknown>

const OWN_KEYS = [
  'constraint',
  'max_targets',
  'min_section_m',
  'min_power_w',
  'equipment',
  'fuel',
] as const

const show = (v: unknown): string => (v === undefined ? 'nothing' : JSON.stringify(v))

const { obj, numberAt: num, only } = jsonFields(show)

/** A target time (`{"type": "target_time", "time_s": …}`) or one of the optimizer's constraints. */
type ScenarioConstraint = PacingConstraint | { type: 'target_time'; timeS: number }

function parseConstraint(v: unknown): ScenarioConstraint {
  const c = obj(v, 'constraint')
  switch (c.type) {
    case 'target_time': {
      only(c, 'constraint', ['type', 'time_s'])
      const timeS = num(c, 'time_s', 'constraint', true)
      if (!(timeS > 0 && timeS < 30 * 86400))
        throw new EngineInputError(
          'constraint.time_s',
          `expected 0 < time_s < 2592000, got ${timeS}`,
        )
      return { type: 'target_time', timeS }
    }
    case 'w_prime_balance':
      only(c, 'constraint', ['type'])
      return { type: 'w_prime_balance' }
    case 'normalized_power':
    case 'average_power':
      only(c, 'constraint', ['type', 'power_w'])
      return { type: c.type, powerW: num(c, 'power_w', 'constraint', true) }
    case 'work':
      only(c, 'constraint', ['type', 'work_j'])
      return { type: 'work', workJ: num(c, 'work_j', 'constraint', true) }
    default:
      throw new EngineInputError(
        'constraint.type',
        `expected "w_prime_balance", "normalized_power", "average_power", "work" or "target_time", got ${show(c.type)}`,
      )
  }
}

function parseEquipment(v: unknown): EquipmentSpec {
  const e = obj(v, 'equipment')
  only(e, 'equipment', ['groups', 'baseline'])
  const g = obj(e.groups, 'equipment.groups')
  const groups: Record<string, EquipmentOption[]> = {}
  for (const [name, list] of Object.entries(g)) {
    if (!Array.isArray(list)) {
      throw new EngineInputError(
        `equipment.groups.${name}`,
        `expected a list of options, got ${show(list)}`,
      )
    }
    groups[name] = list.map((item: unknown, i) => {
      const path = `equipment.groups.${name}[${i}]`
      const o = obj(item, path)
      only(o, path, [
        'name',
        'cda_delta_m2',
        'cda_delta_by_yaw',
        'crr',
        'mass_delta_kg',
        'power_factor',
      ])
      return {
        name: o.name as string,
        cdaDeltaM2: num(o, 'cda_delta_m2', path, false),
        cdaDeltaByYaw: o.cda_delta_by_yaw as [number, number][] | undefined,
        crr: num(o, 'crr', path, false),
        massDeltaKg: num(o, 'mass_delta_kg', path, false),
        powerFactor: num(o, 'power_factor', path, false),
      }
    })
  }
  const baseline: Record<string, string> = {}
  if (e.baseline !== undefined) {
    for (const [k, val] of Object.entries(obj(e.baseline, 'equipment.baseline'))) {
      if (typeof val !== 'string') {
        throw new EngineInputError(
          `equipment.baseline.${k}`,
          `expected an option name, got ${show(val)}`,
        )
      }
      baseline[k] = val
    }
  }
  return { groups, baseline }
}

export interface OptimizeScenario {
  input: PacingInput
  equipment: EquipmentSpec | null
  /**
   * A target time (s): the least-effort plan reaching it (target-time.ts); `input`'s constraint is
   * then the W′ balance, the limit of the fastest legal plan
   */
  targetTimeS: number | null
  /** `fuel`: {gut_tolerance_g_per_h (30–150), glycogen_store_g (100–1000)} for the fuel plan */
  fuel: FuelOptions | null
}

function parseFuel(v: unknown): FuelOptions | null {
  if (v === undefined) return null
  const f = obj(v, 'fuel')
  only(f, 'fuel', ['gut_tolerance_g_per_h', 'glycogen_store_g'])
  const gut = num(f, 'gut_tolerance_g_per_h', 'fuel', false)
  const store = num(f, 'glycogen_store_g', 'fuel', false)
  if (gut !== undefined && !(gut >= 30 && gut <= 150))
    throw new EngineInputError('fuel.gut_tolerance_g_per_h', `expected 30 to 150, got ${gut}`)
  if (store !== undefined && !(store >= 100 && store <= 1000))
    throw new EngineInputError('fuel.glycogen_store_g', `expected 100 to 1000, got ${store}`)
  return {
    ...(gut !== undefined ? { gutToleranceGPerH: gut } : {}),
    ...(store !== undefined ? { glycogenStoreG: store } : {}),
  }
}

/** Optimize scenario JSON → optimizer input. Throws EngineInputError naming the field. */
export function parseOptimizeScenario(
  json: unknown,
  loadCourse?: (file: string) => Course,
): OptimizeScenario {
  const root = obj(json, 'scenario')
  const rest: Json = {}
  for (const [k, v] of Object.entries(root))
    if (!(OWN_KEYS as readonly string[]).includes(k)) rest[k] = v
  // `pacing` is what the optimizer decides: accepted (as in a simulate scenario) and ignored
  rest.pacing = { type: 'constant', power_w: 0 }
  const { input } = parseScenario(rest, loadCourse)
  if (root.constraint === undefined) {
    throw new EngineInputError(
      'constraint',
      'expected {"type": "w_prime_balance" | …}, got nothing',
    )
  }
  const maxTargets = num(root, 'max_targets', 'scenario', false)
  const constraint = parseConstraint(root.constraint)
  const targetTimeS = constraint.type === 'target_time' ? constraint.timeS : null
  if (targetTimeS !== null && root.equipment !== undefined) {
    throw new EngineInputError(
      'constraint.type',
      'a target time plans one setup: remove "equipment" or choose another constraint',
    )
  }
  return {
    input: {
      course: input.course,
      rider: input.rider,
      environment: input.environment,
      options: input.options,
      pacing: {
        constraint: constraint.type === 'target_time' ? { type: 'w_prime_balance' } : constraint,
        minPowerW: num(root, 'min_power_w', 'scenario', false),
        maxTargets,
        minSectionM: num(root, 'min_section_m', 'scenario', false),
      },
    },
    equipment: root.equipment === undefined ? null : parseEquipment(root.equipment),
    targetTimeS,
    fuel: parseFuel(root.fuel),
  }
}

const round = (v: number, digits: number): number => {
  const f = 10 ** digits
  return Math.round(v * f) / f
}

/** Result → the `veloptima optimize` output JSON. */
export function optimizeResultToJson(
  r: PacingResult & { targetTime?: TargetTimeOutcome },
  course: Course,
  equipment: EquipmentResult | null,
): Json {
  // the ride as handed out: the rideable plan (the per-segment optimum is its bound)
  const planSim = r.plan?.simulation ?? null
  const ridden = planSim ?? r.simulation
  const out: Json = ridden ? resultToJson(ridden, course) : {}
  out.status = r.status
  out.reason = r.plan?.reason ?? r.reason
  const powers = planSim ? r.plan!.powerW : r.powerW
  out.segment_power_w = r.status === 'optimal' ? Array.from(powers, (p) => round(p, 2)) : []
  out.plan = r.plan
    ? r.plan.sections.map((s) => ({
        start_m: round(s.startM, 1),
        end_m: round(s.endM, 1),
        power_w: round(s.powerW, 1),
        label: s.label,
        ...(r.positions
          ? {
              position:
                r.positions.names[
                  majorityPosition(course.start, r.positions.segment, s.startM, s.endM) ?? 0
                ],
            }
          : {}),
      }))
    : []
  if (r.positions) {
    out.positions = r.positions.names
    out.segment_position = Array.from(r.positions.segment)
  }
  out.targets = r.plan
    ? r.plan.targets.map((t) => ({
        power_w: round(t.powerW, 1),
        label: t.label,
        sections: t.sections,
      }))
    : []
  const planTime = r.plan && Number.isFinite(r.plan.timeS) ? r.plan.timeS : null
  out.plan_time_s = planTime === null ? null : round(planTime, 3)
  out.bound_time_s = Number.isFinite(r.timeS) ? round(r.timeS, 3) : null
  out.baseline = r.baseline
    ? { power_w: round(r.baseline.powerW, 2), time_s: round(r.baseline.timeS, 3) }
    : null
  const ownTime = planTime ?? (Number.isFinite(r.timeS) ? r.timeS : null)
  out.time_saved_s =
    r.baseline && ownTime !== null && r.status === 'optimal'
      ? round(r.baseline.timeS - ownTime, 3)
      : null
  out.bound_time_saved_s = r.timeSavedS === null ? null : round(r.timeSavedS, 3)
  if (r.targetTime) {
    const t = r.targetTime
    out.target_time = {
      time_s: t.targetS,
      reached: t.reached,
      plan_time_s: Number.isFinite(t.planS) ? round(t.planS, 3) : null,
      fastest_time_s: Number.isFinite(t.fastestS) ? round(t.fastestS, 3) : null,
      basis: t.basis,
      level_w: round(t.levelW, 1),
      plans_optimized: t.evaluations,
    }
  }
  if (equipment) {
    out.ranking = equipment.ranking.map((c) => ({
      choices: c.choices,
      time_s: round(c.timeS, 3),
      delta_s: round(c.deltaS, 3),
      optimized: c.optimized,
      delta_time: Array.from(c.deltaSeries.distanceM, (d, q) => ({
        distance_m: round(d, 1),
        delta_s: round(c.deltaSeries.deltaS[q]!, 3),
      })),
    }))
  }
  return out
}

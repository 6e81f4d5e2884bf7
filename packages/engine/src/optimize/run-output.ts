// The result of an optimization run as JSON (snake_case, rounded): the shape the API stores for a
// run and the browser computes for its instant preview, so both show the same numbers.
import type { Course } from '../course/types.ts'
import type { SimulationResult } from '../sim/simulate.ts'
import type { EquipmentResult } from './equipment.ts'
import { majorityPosition } from '../sim/positions.ts'
import { fuelPlan, fuelRideOf } from '../fuel/fuel.ts'
import type { FuelOptions } from '../fuel/types.ts'
import type { Environment } from '../sim/model.ts'
import type { RiderLevel } from '../sim/capacity.ts'
import type { PacingResult } from './positions.ts'
import type { TargetTimeOutcome } from './target-time.ts'
import type { CapacityCosts } from './capacity-costs.ts'
import { splitRowsByRules } from './rule-rows.ts'

/** A row of the plan a rider follows: a stretch of road with one target power. */
export type RunPlanSection = {
  start_m: number
  end_m: number
  label: string
  grade: number
  power_w: number
  speed_mps: number
  duration_s: number
  elapsed_s: number
  /** With several riding positions: the one ridden over most of the section. */
  position?: string
  /** Index of the section's target in `PacingOutput.targets` (absent in older results). */
  target?: number
}

/** One target power of the plan and the sections (indices into `plan`) it applies to. */
export type RunPlanTarget = {
  power_w: number
  label: string
  sections: number[]
}

/** Series along the course for the charts (one entry per course segment). */
export type RideSeries = {
  distance_m: number[]
  altitude_m: number[]
  power_w: number[]
  speed_mps: number[]
  time_s: number[]
  w_prime_balance_j: number[]
}

export type PacingOutput = {
  type: 'pacing'
  status: 'optimal' | 'infeasible'
  /** Why the problem is infeasible, or why the plan is one constant power. */
  reason: string | null
  /** Predicted time of the plan as handed out (the rideable plan, simulated as ridden). */
  time_s: number
  /**
   * Time of the per-segment optimum (one power per stretch of a few hundred metres): a bound the
   * rideable plan comes close to, not a plan a rider can follow.
   */
  bound_time_s: number
  /** The same as bound_time_s (the name older stored results use). */
  optimal_time_s: number
  baseline: { power_w: number; time_s: number } | null
  /**
   * Baseline (best constant power under the same constraint) minus the plan's time: what riding
   * the plan gains (≥ 0 up to rounding: the steady power is the plan when nothing beats it).
   */
  time_saved_s: number | null
  /** Baseline minus the bound's time (≥ 0: the optimizer is never slower). */
  bound_time_saved_s: number | null
  /** The same as bound_time_saved_s (older name). */
  optimal_time_saved_s: number | null
  /** The plan's target powers (at most max_targets), each over one or more sections. */
  targets: RunPlanTarget[]
  average_power_w: number | null
  normalized_power_w: number | null
  min_w_prime_balance_j: number | null
  plan: RunPlanSection[]
  series: RideSeries | null
  /** With several riding positions: their names, and the index of the one on each segment. */
  positions?: string[]
  segment_position?: number[]
  /** CP at the finish (W) where it varies along the ride (durability, heat, altitude). */
  finish_cp_w?: number
  /** A target-time run: the target, whether it was reached and what made the plan. */
  target_time?: TargetTimeOutput
  /** Carbohydrate and fluid for the plan as ridden (with the rider's CP). */
  fuel?: FuelOutput
  /** Seconds heat, altitude and durability cost the plan (each asked effect left out in turn). */
  capacity_costs?: { heat_s?: number; altitude_s?: number; durability_s?: number }
  /** Seconds each of the rider's rules costs the plan (negative: the rule helps it). */
  rule_costs?: {
    easy_start_s?: number
    coast_s?: number
    descent_cap_s?: number
    stretches_s?: number
  }
  /** Where the rules hold the power whatever the plan asks: coasting, caps, held powers. */
  rule_stretches?: RuleStretchOutput[]
  durability?: DurabilityOutput
}

/** The durability the plan was made with: the rider's own, or the default of their level. */
export type DurabilityOutput = {
  /** fraction of CP and W′ lost per 1,000 kJ of work */
  per_1000_kj: number
  basis: 'rider' | 'level'
  level?: RiderLevel
}

export type RuleStretchOutput = {
  start_m: number
  end_m: number
  /** coast: no pedalling; cap: at most power_w; fixed: power_w held */
  kind: 'coast' | 'cap' | 'fixed'
  power_w: number
}

export type TargetTimeOutput = {
  time_s: number
  reached: boolean
  plan_time_s: number | null
  fastest_time_s: number | null
  /** the plan is the fastest under an NP cap, or the W′ plan of a lowered CP */
  basis: 'normalized_power' | 'w_prime_balance'
  level_w: number
}

export type FuelOutput = {
  burned_g: number
  intake_g: number
  target_g_per_h: number
  guideline: string
  gut_tolerance_g_per_h: number
  sugars: 'none' | 'any' | 'glucose-fructose'
  glycogen_store_g: number
  glycogen_finish_g: number
  glycogen_empty_at_m: number | null
  fluid_ml_per_h: number
  sodium_mg_per_h: number
  fluid_total_ml: number
  feeds: {
    distance_m: number
    elapsed_s: number
    carbohydrate_g: number
    fluid_ml: number
    label: string
  }[]
  warnings: string[]
}

/** One combination of an equipment run, fastest first. */
export type RankedOutput = {
  choices: Record<string, string>
  time_s: number
  delta_s: number
  optimized: boolean
  delta_time: { distance_m: number[]; delta_s: number[] }
}

export type EquipmentOutput = {
  type: 'equipment'
  ranking: RankedOutput[]
  baseline: { choices: Record<string, string>; time_s: number }
  combinations: number
  optimized_count: number
  /** The optimal pacing of the fastest combination. */
  best: PacingOutput
}

export type RunOutput = PacingOutput | EquipmentOutput

/** The pacing part of any output (an equipment run's best combination). */
export const pacingOf = (o: RunOutput): PacingOutput => (o.type === 'equipment' ? o.best : o)

const round = (x: number, digits: number) => {
  const f = 10 ** digits
  return Math.round(x * f) / f
}

function seriesOf(sim: SimulationResult, course: Course): RideSeries {
  const s = sim.segments
  const out: RideSeries = {
    distance_m: [],
    altitude_m: [],
    power_w: [],
    speed_mps: [],
    time_s: [],
    w_prime_balance_j: [],
  }
  for (let i = 0; i < s.count; i++) {
    out.distance_m.push(round(course.start[i + 1]!, 1))
    out.altitude_m.push(round(course.altitude[i + 1]!, 1))
    out.power_w.push(round(s.power[i]!, 1))
    out.speed_mps.push(round(s.speed[i]!, 3))
    out.time_s.push(round(s.time[i]!, 2))
    out.w_prime_balance_j.push(round(s.wPrimeBalance[i]!, 0))
  }
  return out
}

/** The plan's sections with the grade, speed and time the simulation of the plan gives them. */
function planOf(r: PacingResult, course: Course): RunPlanSection[] {
  const plan = r.plan
  if (!plan?.simulation) return []
  const measure = measureOf(r, course)
  return plan.sections.map((section) =>
    measure(
      {
        start_m: round(section.startM, 1),
        end_m: round(section.endM, 1),
        label: section.label,
        grade: 0,
        power_w: round(section.powerW, 1),
        speed_mps: 0,
        duration_s: 0,
        elapsed_s: 0,
        target: section.target,
      },
      section.startM,
      section.endM,
    ),
  )
}

/** A row's figures over [startM, endM) from the ride: grade, speed, duration, elapsed, position. */
function measureOf(r: PacingResult, course: Course) {
  const s = r.plan!.simulation!.segments
  const positions = r.positions
  return (row: RunPlanSection, startM: number, endM: number): RunPlanSection => {
    let length = 0
    let rise = 0
    let duration = 0
    let last = 0
    for (let i = 0; i < s.count; i++) {
      const mid = course.start[i]! + course.length[i]! / 2
      if (mid < startM || mid >= endM) continue
      length += course.length[i]!
      rise += course.grade[i]! * course.length[i]!
      duration += s.duration[i]!
      last = i + 1
    }
    const span = { startM, endM }
    return {
      ...row,
      start_m: round(startM, 1),
      end_m: round(endM, 1),
      grade: round(length > 0 ? rise / length : 0, 4),
      speed_mps: round(duration > 0 ? length / duration : 0, 3),
      duration_s: round(duration, 1),
      elapsed_s: round(last > 0 ? s.time[last - 1]! : 0, 1),
      ...(positions ? { position: positionName(positions, course, span) } : {}),
    }
  }
}

/** The plan's rows, split where the rider's rules hold the power (rule-rows.ts). */
function ruledPlanOf(
  r: PacingResult,
  course: Course,
  ctx: OutputContext,
): { plan: RunPlanSection[]; parts: number[][] | null } {
  const plan = planOf(r, course)
  if (!ctx.ruleStretches?.length || plan.length === 0) return { plan, parts: null }
  const split = splitRowsByRules(plan, ctx.ruleStretches, measureOf(r, course))
  return { plan: split.rows, parts: split.parts }
}

function positionName(
  positions: NonNullable<PacingResult['positions']>,
  course: Course,
  section: { startM: number; endM: number },
): string {
  const k = majorityPosition(course.start, positions.segment, section.startM, section.endM)
  return positions.names[k ?? 0] ?? ''
}

/** What a run's output adds when it knows them: the rider's CP and air, the fuel options. */
export type OutputContext = {
  cpW?: number
  environment?: Environment
  fuel?: FuelOptions
  costs?: CapacityCosts
  ruleStretches?: RuleStretchOutput[]
  durability?: DurabilityOutput
}

/** The context of an optimizer input: its rider's CP and durability, and its air. */
export const outputContext = (input: {
  rider: { cpW?: number; durability?: number; durabilityLevel?: RiderLevel }
  environment?: Environment
}): OutputContext => ({
  ...(input.rider.cpW !== undefined ? { cpW: input.rider.cpW } : {}),
  ...(input.environment ? { environment: input.environment } : {}),
  ...((input.rider.durability ?? 0) > 0
    ? {
        durability: {
          per_1000_kj: input.rider.durability!,
          basis: input.rider.durabilityLevel ? 'level' : 'rider',
          ...(input.rider.durabilityLevel ? { level: input.rider.durabilityLevel } : {}),
        },
      }
    : {}),
})

function targetTimeOf(t: TargetTimeOutcome): TargetTimeOutput {
  return {
    time_s: t.targetS,
    reached: t.reached,
    plan_time_s: Number.isFinite(t.planS) ? round(t.planS, 3) : null,
    fastest_time_s: Number.isFinite(t.fastestS) ? round(t.fastestS, 3) : null,
    basis: t.basis,
    level_w: round(t.levelW, 1),
  }
}

function fuelOf(sim: SimulationResult, course: Course, ctx: OutputContext): FuelOutput | null {
  if (!(ctx.cpW && ctx.cpW > 0) || sim.status !== 'ok') return null
  const f = fuelPlan({
    ride: fuelRideOf(course, sim, ctx.environment),
    cpW: ctx.cpW,
    ...(ctx.fuel ? { options: ctx.fuel } : {}),
  })
  return {
    burned_g: round(f.carbohydrate.burnedG, 0),
    intake_g: round(f.carbohydrate.intakeG, 0),
    target_g_per_h: round(f.carbohydrate.targetGPerH, 0),
    guideline: f.carbohydrate.guideline,
    gut_tolerance_g_per_h: f.carbohydrate.gutToleranceGPerH,
    sugars: f.carbohydrate.sugars,
    glycogen_store_g: f.glycogen.storeG,
    glycogen_finish_g: round(f.glycogen.finishG, 0),
    glycogen_empty_at_m: f.glycogen.emptyAtM === null ? null : round(f.glycogen.emptyAtM, 0),
    fluid_ml_per_h: round(f.fluid.mlPerH, 0),
    sodium_mg_per_h: round(f.fluid.sodiumMgPerH, 0),
    fluid_total_ml: round(f.fluid.totalMl, 0),
    feeds: f.feeds.map((x) => ({
      distance_m: round(x.distanceM, 0),
      elapsed_s: round(x.elapsedS, 0),
      carbohydrate_g: round(x.carbohydrateG, 0),
      fluid_ml: round(x.fluidMl, 0),
      label: x.label,
    })),
    warnings: f.warnings,
  }
}

export function pacingOutput(
  r: PacingResult & { targetTime?: TargetTimeOutcome },
  course: Course,
  ctx: OutputContext = {},
): PacingOutput {
  const sim = r.plan?.simulation ?? r.simulation
  const rows = ruledPlanOf(r, course, ctx)
  const time = r.plan && Number.isFinite(r.plan.timeS) ? r.plan.timeS : r.timeS
  const boundSaved = r.status === 'optimal' ? r.timeSavedS : null
  return {
    type: 'pacing',
    status: r.status,
    reason: r.plan?.reason ?? r.reason,
    time_s: time,
    bound_time_s: r.timeS,
    optimal_time_s: r.timeS,
    baseline: r.baseline ? { power_w: r.baseline.powerW, time_s: r.baseline.timeS } : null,
    time_saved_s: r.baseline && r.status === 'optimal' ? r.baseline.timeS - time : null,
    bound_time_saved_s: boundSaved,
    optimal_time_saved_s: boundSaved,
    targets: (r.plan?.targets ?? []).map((t) => ({
      power_w: round(t.powerW, 1),
      label: t.label,
      sections: rows.parts ? t.sections.flatMap((k) => rows.parts![k] ?? []) : t.sections,
    })),
    average_power_w: sim?.averagePowerW ?? null,
    normalized_power_w: sim?.normalizedPowerW ?? null,
    min_w_prime_balance_j: sim?.minWPrimeBalanceJ ?? null,
    plan: rows.plan,
    series: sim ? seriesOf(sim, course) : null,
    ...(r.positions
      ? { positions: r.positions.names, segment_position: Array.from(r.positions.segment) }
      : {}),
    ...(r.targetTime ? { target_time: targetTimeOf(r.targetTime) } : {}),
    ...planExtras(r, course, ctx),
  }
}

/** What a plan's output carries beside its time and targets: finish CP, fuel, the costs. */
export function planExtras(
  r: PacingResult,
  course: Course,
  ctx: OutputContext,
): Pick<
  PacingOutput,
  'finish_cp_w' | 'fuel' | 'capacity_costs' | 'rule_costs' | 'rule_stretches' | 'durability'
> {
  const sim = r.plan?.simulation ?? r.simulation
  const fuel = sim ? fuelOf(sim, course, ctx) : null
  return {
    ...(sim?.finishCpW !== undefined ? { finish_cp_w: round(sim.finishCpW, 1) } : {}),
    ...(fuel ? { fuel } : {}),
    ...costsOf(ctx.costs ?? {}),
    ...(ctx.ruleStretches && ctx.ruleStretches.length > 0
      ? { rule_stretches: ctx.ruleStretches }
      : {}),
    ...(ctx.durability ? { durability: ctx.durability } : {}),
  }
}

/** Seconds rounded to 0.1 under their output names, each group only when it has one. */
function costsOf(c: CapacityCosts): Pick<PacingOutput, 'capacity_costs' | 'rule_costs'> {
  const pick = (names: [keyof CapacityCosts, string][]) => {
    const o: Record<string, number> = {}
    for (const [k, name] of names) if (c[k] !== undefined) o[name] = round(c[k], 1)
    return Object.keys(o).length > 0 ? o : null
  }
  const capacity = pick([
    ['heatS', 'heat_s'],
    ['altitudeS', 'altitude_s'],
    ['durabilityS', 'durability_s'],
  ])
  const rules = pick([
    ['easyStartS', 'easy_start_s'],
    ['coastS', 'coast_s'],
    ['descentCapS', 'descent_cap_s'],
    ['stretchesS', 'stretches_s'],
  ])
  return {
    ...(capacity ? { capacity_costs: capacity } : {}),
    ...(rules ? { rule_costs: rules } : {}),
  }
}

export function equipmentOutput(
  r: EquipmentResult,
  course: Course,
  ctx: OutputContext = {},
): EquipmentOutput {
  return {
    type: 'equipment',
    ranking: r.ranking.map((c) => ({
      choices: c.choices,
      time_s: c.timeS,
      delta_s: c.deltaS,
      optimized: c.optimized,
      delta_time: {
        distance_m: Array.from(c.deltaSeries.distanceM, (d) => round(d, 1)),
        delta_s: Array.from(c.deltaSeries.deltaS, (d) => round(d, 3)),
      },
    })),
    baseline: { choices: r.baseline.choices, time_s: r.baseline.timeS },
    combinations: r.combinations,
    optimized_count: r.optimizedCount,
    best: pacingOutput(r.best, course, ctx),
  }
}

// How one run of the pacing optimizer ends (pacing-run.ts): 4. the fastest candidate against the
// baseline, the infeasible answer when none finishes, and the rideable plan built from the chosen
// optimum (rideable.ts).
import type { SimulationResult } from '../sim/simulate.ts'
import { scaledPlan, type Verdict } from './exact.ts'
import type { SimplifiedPlan } from './plan.ts'
import {
  bestTargetPlan,
  constantPlan,
  DEFAULT_MAX_TARGETS,
  DEFAULT_MIN_SECTION_M,
  describePlan,
  SECTION_POLISHES,
  type ControlTerrain,
  type ReducedSetup,
  type TargetPlan,
} from './rideable.ts'
import { infeasible, type PacingResult } from './pacing-setup.ts'
import type { Baselined, Fitted, RunCounts, RunSetup } from './run-state.ts'

/** The per-segment optimum a run returns: its plan, its verdict and a note on how it was found. */
export interface Chosen {
  plan: Float64Array
  verdict: Verdict
  note: string | null
}

/**
 * 4. The fastest candidate, as scaled by its repair; never slower than the baseline (then the
 * baseline is the optimum). Null when no candidate finishes within the constraint.
 */
export function chooseOptimum(fitted: Fitted[], s: RunSetup, b: Baselined): Chosen | null {
  let chosen: Verdict | null = null
  let plan = new Float64Array(s.model.n)
  const buf = new Float64Array(s.model.n)
  for (const { plan: cand, fit } of fitted) {
    if (!chosen?.sim || fit.verdict.sim!.timeS < chosen.sim.timeS) {
      chosen = fit.verdict
      plan = Float64Array.from(scaledPlan(s.j, cand, fit.alpha, s.lo, s.hi, buf))
    }
  }
  const { baseline } = b
  if (baseline && (!chosen?.sim || chosen.sim.timeS > baseline.timeS)) {
    return {
      plan: new Float64Array(s.model.n).fill(baseline.powerW),
      verdict: b.base.verdict,
      note: 'no variable plan beat the best constant power; the baseline is returned',
    }
  }
  return chosen?.sim ? { plan, verdict: chosen, note: null } : null
}

/** The infeasible result when no candidate finishes, saying what stops the rider. */
export function noOptimum(s: RunSetup, b: Baselined, counts: RunCounts): PacingResult {
  const where = b.base.verdict.sim?.message ?? 'the rider cannot finish'
  const { spec } = s
  const reason =
    spec.type === 'w_prime_balance'
      ? `W′ (${spec.wPrimeJ} J above CP ${spec.cpW} W, at most ${s.hi} W) is not enough to get over the climb: at the best constant power the ${where}`
      : `no plan within the constraint and ${s.lo}–${s.hi} W gets the rider to the finish: at the best constant power the ${where}`
  return infeasible(reason, s.controls, s.model.n, counts.simulations)
}

export function resultOf(
  chosen: Chosen,
  sim: SimulationResult,
  simplified: SimplifiedPlan | null,
  s: RunSetup,
  b: Baselined,
  counts: RunCounts,
): PacingResult {
  const { baseline } = b
  return {
    status: 'optimal',
    reason: chosen.note,
    powerW: chosen.plan,
    simulation: sim,
    timeS: sim.timeS,
    baseline,
    timeSavedS: baseline ? baseline.timeS - sim.timeS : null,
    plan: simplified,
    controls: s.controls,
    stats: { ...counts },
  }
}

/**
 * The rideable plan (rideable.ts): the fastest plan of at most maxTargets targets over sections of
 * at least minSectionM. When none beats the baseline, the best constant power is the plan, with
 * the reason; when no constant power finishes and no plan of a few targets does, the per-segment
 * optimum, one target per control segment, is the only plan there is.
 */
export function rideableStep(
  s: RunSetup,
  b: Baselined,
  red: ReducedSetup,
  terrain: ControlTerrain,
  chosen: Chosen,
  twoPlan: TargetPlan | null,
  counts: RunCounts,
): SimplifiedPlan {
  const { course, controls } = s
  const K = controls.count
  const pacing = s.input.pacing
  const maxTargets = pacing.maxTargets ?? DEFAULT_MAX_TARGETS
  const minSectionM = pacing.minSectionM ?? DEFAULT_MIN_SECTION_M
  const sim = chosen.verdict.sim!
  const options = {
    maxTargets,
    minSectionM,
    jointCut: s.input.jointCut ?? true,
    sectionPolishes: s.input.sectionPolishes ?? SECTION_POLISHES,
  }
  const found = bestTargetPlan(red, chosen.plan, sim, options, terrain, twoPlan)
  counts.simulations += found.simulations
  counts.gradientEvaluations += found.gradients
  const fb = found.best
  const { baseline } = b
  const baseSim = b.base.verdict.sim
  if (fb && (!baseline || fb.verdict.sim!.timeS < baseline.timeS)) {
    const d = describePlan(course, controls, terrain, fb.targetOf, fb.count, fb.powerW)
    const t = fb.verdict.sim!.timeS
    return { ...d, powerW: fb.powerW, simulation: fb.verdict.sim, timeS: t, reason: null }
  }
  if (baseline && baseSim) {
    const gain = baseline.timeS - sim.timeS
    const lost = fb ? fb.verdict.sim!.timeS - sim.timeS : null
    const why =
      maxTargets < 2
        ? 'one target was asked for'
        : gain < 0.05
          ? `varying the power gains nothing here (the per-segment optimum saves ${gain.toFixed(1)} s)`
          : `no plan of at most ${maxTargets} targets over sections of at least ${minSectionM} m beat it: the per-segment optimum saves ${gain.toFixed(1)} s, ${lost === null ? 'and no such plan met the constraint' : `the best such plan loses ${lost.toFixed(1)} s of it`}`
    const one = new Float64Array(s.model.n).fill(baseline.powerW)
    const label = describePlan(course, controls, terrain, new Int32Array(K), 1, one).sections[0]!
      .label
    const reason = `the best constant power is the plan: ${why}`
    return constantPlan(course, baseline.powerW, baseSim, label, reason)
  }
  const targetOf = Int32Array.from({ length: K }, (_, k) => k)
  const d = describePlan(course, controls, terrain, targetOf, K, chosen.plan)
  return {
    ...d,
    powerW: chosen.plan,
    simulation: sim,
    timeS: sim.timeS,
    reason: `no plan of at most ${maxTargets} targets gets the rider to the finish: one target per stretch`,
  }
}

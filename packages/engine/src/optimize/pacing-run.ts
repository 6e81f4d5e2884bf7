// One run of the pacing optimizer over one set of control segments, cut along its own steps
// (pacing.ts describes them): prepare the run, 1. the baseline, 2a. the W′ DP's global stage on a
// coarse copy of the course, 2b. the gradient stage, the structured starts, 3. the repair of every
// candidate, then (run-outcome.ts) 4. the choice against the baseline and the rideable plan. Each
// step reads the run's setup (run-state.ts) and returns what the next one needs; the work done is
// counted in one `RunCounts`.
import { prepareModel, type SimModel } from '../sim/model.ts'
import { powerForSpeeds } from '../sim/step.ts'
import { buildControls, DEFAULT_CONTROL_OPTIONS, type Controls } from './controls.ts'
import { bestConstant, fitToConstraint, type Judge } from './exact.ts'
import { coarsen } from './coarse.ts'
import { dpWprimeTwoPass } from './dp.ts'
import { bestGradeProportional } from './structured.ts'
import {
  controlTerrain,
  LONG_COARSE,
  REDUCED_BUDGET,
  optimizeTargets,
  targetMeansOf,
  twoLevelStarts,
  twoLevelStructure,
  climbTarget,
  type ControlTerrain,
  type ReducedSetup,
  type TargetPlan,
} from './rideable.ts'
import { controlPowers, makePolishSetup, polish, type PolishSetup } from './polish.ts'
import { expandPowers, forward, forwardBuffers, workspace, type AugmentedState } from './problem.ts'
import { validatePacingInput } from './validate.ts'
import {
  coarseFactor,
  infeasible,
  powerBounds,
  rescueStalls,
  specOf,
  withDragFactor,
  type PacingInput,
  type PacingResult,
} from './pacing-setup.ts'
import { chooseOptimum, noOptimum, resultOf, rideableStep } from './run-outcome.ts'
import type {
  Baselined,
  CoarseStage,
  Fitted,
  GradientStage,
  RunCounts,
  RunSetup,
} from './run-state.ts'

export function optimizeOnce(input: PacingInput): PacingResult {
  const run = boundRun(input)
  return input.boundOnly || !run.finish ? run.result : run.finish()
}

/**
 * A run up to its per-segment optimum: `result` is the bound-only result (`plan` null), and
 * `finish` (null when there is no optimum) continues the same run with the rideable plan's search,
 * returning what `optimizeOnce` returns without `boundOnly`. The two control grids of pacing.ts
 * compare their bounds before either searches its plan; the equipment ranking hands the run it
 * ranked the winner by to the winner's whole run.
 */
export interface BoundRun {
  result: PacingResult
  finish: (() => PacingResult) | null
  /** pieces of the run's coarse copy (0 when it stopped before making one) */
  pieces: number
}

export function boundRun(input: PacingInput): BoundRun {
  const s = prepareRun(input)
  const counts: RunCounts = {
    outerIterations: 0,
    innerIterations: 0,
    gradientEvaluations: 0,
    simulations: 0,
  }
  const b = baselineStep(s, counts)
  if ('status' in b) return { result: b, finish: null, pieces: 0 }
  const fitted: Fitted[] = []
  const stage = coarseStage(s, b, fitted, counts)
  const g = gradientStep(s, b, stage, counts)
  const red: ReducedSetup = {
    j: s.j,
    course: s.course,
    model: s.model,
    controls: s.controls,
    coarse: stage.coarse,
    im: stage.im,
    qs: stage.qs,
    ws: g.ws,
    floorC: s.floorC,
    lo: s.lo,
    hi: s.hi,
    spec: s.spec,
    v0: s.v0,
    timeScale: g.timeScale,
    pRef: g.pRef,
    al: { ...g.al },
    tol: s.tol,
  }
  const terrain = controlTerrain(s.course, s.model, s.controls)
  const withStarts = input.structuredStarts !== false
  const starts = withStarts
    ? structuredStarts(s, b, g, red, terrain, fitted, counts)
    : { twoPlan: null, grade: null }
  repairStep(s, stage, g, starts, fitted, counts)
  const chosen = chooseOptimum(fitted, s, b)
  if (!chosen) return { result: noOptimum(s, b, counts), finish: null, pieces: red.im.n }
  const result = resultOf(chosen, chosen.verdict.sim!, null, s, b, counts)
  const finish = (): PacingResult => {
    const twoPlan = withStarts ? starts.twoPlan : twoLevelPlan(s, b, g, red, terrain, counts)
    const simplified = rideableStep(s, b, red, terrain, chosen, twoPlan, counts)
    // the simplified plan, refitted to the constraint, occasionally beats the optimum it came
    // from: then it is the better optimum
    if (simplified.simulation && simplified.timeS < chosen.verdict.sim!.timeS) {
      const better = { ...chosen, plan: Float64Array.from(simplified.powerW), note: null }
      return resultOf(better, simplified.simulation, simplified, s, b, counts)
    }
    return resultOf(chosen, chosen.verdict.sim!, simplified, s, b, counts)
  }
  return { result, finish, pieces: red.im.n }
}

/** Validates the input and prepares the model, the control segments, the judge and the floors. */
function prepareRun(input: PacingInput): RunSetup {
  validatePacingInput(input)
  const { course, rider, pacing } = input
  const opts = input.options ?? {}
  const env = input.environment ?? {}
  const prepared = prepareModel(course, rider, env, opts)
  const model = input.dragFactor ? withDragFactor(prepared, input.dragFactor) : prepared
  const v0 = Math.min(opts.startSpeedMps ?? 0, model.vEnv[0]!)
  const controls = buildControls(course, model, { ...DEFAULT_CONTROL_OPTIONS, ...pacing.controls })
  const { lo, hi } = powerBounds(rider, pacing)
  const j: Judge = {
    model,
    course,
    rider,
    options: opts,
    constraint: pacing.constraint,
    v0,
    buffers: forwardBuffers(model.n),
  }
  const spec = specOf(pacing.constraint, rider)
  const floorC = stallFloors(input, model, controls, lo, hi)
  j.floor = expandPowers(controls.of, floorC, new Float64Array(model.n))
  const tol = pacing.tolerance ?? 1e-9
  return { input, course, env, opts, model, v0, controls, lo, hi, j, spec, floorC, tol }
}

/**
 * Stall floor of each control: the power that holds 1.5× the minimum speed on its steepest segment
 * (quasi-steady). The optimizer's bounds and the repair stay above it, so no step of the search
 * falls off the cliff of a stalled (infinite-time) ride.
 */
function stallFloors(
  input: PacingInput,
  model: SimModel,
  controls: Controls,
  lo: number,
  hi: number,
): Float64Array {
  const qsFine = prepareModel(input.course, input.rider, input.environment ?? {}, {
    ...input.options,
    kineticEnergy: false,
  })
  const floorC = new Float64Array(controls.count).fill(lo)
  const vs = 1.5 * model.minSpeed
  for (let i = 0; i < model.n; i++) {
    const need = 1.05 * powerForSpeeds(qsFine, i, vs, vs)
    const k = controls.of[i]!
    if (need > floorC[k]!) floorC[k] = Math.min(hi, need)
  }
  return floorC
}

/**
 * 1. The best feasible constant power. When none finishes, the start is the stall floors raised
 * on the controls where the ride stalls; an infeasible result when even that cannot finish.
 */
function baselineStep(s: RunSetup, counts: RunCounts): Baselined | PacingResult {
  const { controls, hi } = s
  const n = s.model.n
  const base = bestConstant(s.j, s.lo, hi)
  counts.simulations += base.simulations
  if (base.verdict.excess > 0) {
    const reason = `the constraint cannot be met even at the minimum power ${s.lo} W`
    return infeasible(reason, controls, n, counts.simulations)
  }
  const baseline = base.verdict.feasible
    ? { powerW: base.powerW, timeS: base.verdict.sim!.timeS }
    : null
  const x = new Float64Array(controls.count).fill(base.powerW)
  if (baseline) return { base, baseline, x }
  // no constant power finishes: start from the stall floors on the steep controls
  for (let k = 0; k < controls.count; k++) x[k] = Math.max(x[k]!, s.floorC[k]!)
  const r = rescueStalls(s.j, controls, x, hi, new Float64Array(n))
  if (!r) {
    const reason = `${base.verdict.sim?.message ?? 'the rider cannot finish'} even at ${hi} W`
    return infeasible(reason, controls, n, counts.simulations)
  }
  counts.simulations += r.simulations
  return { base, baseline, x: r.x }
}

/**
 * 2a. The coarse copy of the course (pieces of ~50 m within each control) and, under W′, the
 * global stage: the dynamic programme over control segments (quasi-steady times). Each DP plan is
 * made feasible on the fine course and added to `fitted`; the fastest becomes the start (`b.x`).
 */
function coarseStage(s: RunSetup, b: Baselined, fitted: Fitted[], counts: RunCounts): CoarseStage {
  const { input, controls, spec } = s
  const coarse = coarsen(s.course, controls, 50, s.model.vEnv)
  const cf = input.dragFactor ? coarseFactor(s.course, coarse, input.dragFactor) : null
  const withFactor = (m: SimModel) => (cf ? withDragFactor(m, cf) : m)
  const im = withFactor(prepareModel(coarse.course, input.rider, s.env, s.opts))
  const stage: CoarseStage = { coarse, im, qs: null, dpPlan: null, wPrimeValue: 0 }
  if (spec.type !== 'w_prime_balance') return stage
  const qs = withFactor(
    prepareModel(coarse.course, input.rider, s.env, { ...s.opts, kineticEnergy: false }),
  )
  stage.qs = qs
  const plans = dpWprimeTwoPass(
    qs,
    im,
    coarse.controls,
    spec.cpW,
    spec.wPrimeJ,
    s.lo,
    s.hi,
    [spec.cpW, b.base.powerW],
    s.v0,
  )
  let bestT = Infinity
  for (const r of plans) {
    const fine = expandPowers(controls.of, r.power, new Float64Array(s.model.n))
    const fit = fitToConstraint(s.j, fine, s.lo, s.hi, 2)
    if (!fit?.verdict.sim) continue
    counts.simulations += fit.simulations
    fitted.push({ plan: fine, fit })
    if (fit.verdict.sim.timeS < bestT) {
      bestT = fit.verdict.sim.timeS
      stage.dpPlan = r.power
      stage.wPrimeValue = r.wPrimeValue
      b.x = Float64Array.from(r.power)
    }
  }
  return stage
}

/**
 * 2b. The augmented Lagrangian with an adjoint gradient on the coarse copy, then (aggregate
 * constraints) a short round on the fine course itself, where the constraint is judged.
 */
function gradientStep(
  s: RunSetup,
  b: Baselined,
  stage: CoarseStage,
  counts: RunCounts,
): GradientStage {
  const { spec, controls } = s
  const { im, dpPlan } = stage
  const ic = stage.coarse.controls
  const ws = workspace(im.n)
  const timeScale = b.baseline
    ? b.baseline.timeS
    : forward(im, s.v0, expandPowers(ic.of, b.x, new Float64Array(im.n)), spec, ws.b).timeS
  // W′ from the DP: start the multiplier at the DP's marginal value of W′ (time saved per joule,
  // in the normalized units of the objective), so the first round already lands near the
  // constrained optimum
  const W = spec.type === 'w_prime_balance'
  const al: AugmentedState = {
    lambda: dpPlan && W ? (stage.wPrimeValue * spec.wPrimeJ) / timeScale : 0,
    mu: 100,
    ks: W ? 300 : 0,
  }
  // Diagonal preconditioning: the curvature of the finish time in a control's power grows with
  // the time spent on it, so each variable is scaled by √(its share of the ride's time) at the
  // starting plan; all variables then have similar curvature, which L-BFGS needs.
  const pRef = Math.max(1, b.base.powerW)
  const { setup, u0 } = makePolishSetup({
    model: im,
    v0: s.v0,
    of: ic.of,
    K: controls.count,
    spec,
    timeScale,
    x0: b.x,
    floor: s.floorC,
    hi: s.hi,
    pRef,
    ws,
  })
  // With the DP start (W′) the gradient stage is a polish that adds kinetic energy back: a few
  // short rounds. Aggregate constraints (NP, mean power, work) converge fast from constant power.
  let u = polishCounted(setup, u0, al, dpPlan ? 4 : 15, dpPlan ? 50 : 200, s.tol, counts)
  if (im.n < s.model.n && !W) {
    // a short final round on the fine course itself, so the constraint is met where it is judged
    const fine: PolishSetup = {
      ...setup,
      model: s.model,
      of: controls.of,
      ws: workspace(s.model.n),
    }
    u = polishCounted(fine, u, al, 2, 15, s.tol, counts)
  }
  const p = expandPowers(controls.of, controlPowers(setup, u), new Float64Array(s.model.n))
  return { p, al, timeScale, pRef, ws }
}

/** `polish`, its rounds, iterations and gradients added to the run's counts. */
function polishCounted(
  setup: PolishSetup,
  u0: Float64Array,
  al: AugmentedState,
  rounds: number,
  inner: number,
  tol: number,
  counts: RunCounts,
): Float64Array {
  const r = polish(setup, u0, al, rounds, inner, tol)
  counts.innerIterations += r.inner
  counts.gradientEvaluations += r.evaluations
  counts.outerIterations += r.rounds
  return r.u
}

/** The structured starts' plans, made feasible: the two-level plan and the grade-proportional. */
interface StructuredStarts {
  twoPlan: TargetPlan | null
  grade: { plan: Float64Array; t: number } | null
}

/**
 * Multi-start: the best two-level plan (every climb at one power, the rest at another) is a
 * candidate, from two starts (the optimum's own levels, and harder climbs with the descents near
 * the steady power), and so is the best grade-proportional plan P = a + b·grade. On short rollers
 * the quasi-steady DP can favour hard climbs and coasted descents, a local optimum once inertia is
 * back (on twenty 500 m ±4 % segments: 901.0 s against 897.6 s for 340 W / 295.7 W); no optimum is
 * then slower than that plan. On very long courses (> LONG_COARSE coarse pieces, as the 180 km
 * bench course) the structured starts are skipped: they are where inertia on short rollers
 * misleads the quasi-steady DP, and they would double the work there.
 */
function structuredStarts(
  s: RunSetup,
  b: Baselined,
  g: GradientStage,
  red: ReducedSetup,
  terrain: ControlTerrain,
  fitted: Fitted[],
  counts: RunCounts,
): StructuredStarts {
  const { controls } = s
  const out: StructuredStarts = { twoPlan: null, grade: null }
  if (!b.baseline || red.im.n > LONG_COARSE) return out
  out.twoPlan = twoLevelPlan(s, b, g, red, terrain, counts)
  if (out.twoPlan) {
    const fit = { alpha: 1, verdict: out.twoPlan.verdict, simulations: 0 }
    fitted.push({ plan: out.twoPlan.powerW, fit })
  }
  const coarseJudge: Judge = {
    ...s.j,
    model: red.im,
    course: red.coarse.course,
    buffers: forwardBuffers(red.im.n),
    floor: null,
  }
  const ic = red.coarse.controls
  const gradePlan = bestGradeProportional(
    coarseJudge,
    ic,
    terrain.grade,
    s.floorC,
    s.lo,
    s.hi,
    b.base.powerW,
  )
  if (gradePlan) {
    counts.simulations += gradePlan.simulations
    const fine = expandPowers(controls.of, gradePlan.power, new Float64Array(s.model.n))
    const gradeFit = fitToConstraint(s.j, fine, s.lo, s.hi, 2)
    if (gradeFit?.verdict.sim) {
      counts.simulations += gradeFit.simulations
      fitted.push({ plan: fine, fit: gradeFit })
      out.grade = { plan: fine, t: gradeFit.verdict.sim.timeS }
    }
  }
  return out
}

/** The best two-level plan (every climb at one power, the rest at another), from two starts. */
function twoLevelPlan(
  s: RunSetup,
  b: Baselined,
  g: GradientStage,
  red: ReducedSetup,
  terrain: ControlTerrain,
  counts: RunCounts,
): TargetPlan | null {
  if (!b.baseline || red.im.n > LONG_COARSE) return null
  const two = twoLevelStructure(terrain)
  if (!two) return null
  const climbsFirst = climbTarget(two, terrain) === 0
  const cpW = s.spec.type === 'w_prime_balance' ? s.spec.cpW : null
  const guess = twoLevelStarts(b.base.powerW, cpW)[0]!
  // the harder-climbs guess, and the optimum's own two levels
  const starts = [climbsFirst ? guess : guess.reverse(), targetMeansOf(two, 2, g.p, s.controls)]
  const plan = optimizeTargets(red, two, starts, REDUCED_BUDGET)
  if (plan) {
    counts.simulations += plan.simulations
    counts.gradientEvaluations += plan.gradients
  }
  return plan
}

/**
 * 3. Repair to exact feasibility: the polished plan and a warm start, each made feasible. When a
 * structured start (made feasible) beats the polished optimum, the polish is run again from it
 * (the optimum's local minimum was the poorer one) and its plan repaired too.
 */
function repairStep(
  s: RunSetup,
  stage: CoarseStage,
  g: GradientStage,
  starts: StructuredStarts,
  fitted: Fitted[],
  counts: RunCounts,
): void {
  const { j, lo, hi, controls } = s
  const polished = Float64Array.from(g.p)
  const toFit = [polished]
  if (s.input.warmStart) toFit.push(Float64Array.from(s.input.warmStart))
  for (const cand of toFit) {
    const fit = fitToConstraint(j, cand, lo, hi, 2)
    if (!fit?.verdict.sim) continue
    counts.simulations += fit.simulations
    fitted.push({ plan: cand, fit })
  }
  const polishedTime = fitted.find((f) => f.plan === polished)?.fit.verdict.sim?.timeS ?? null
  const two = starts.twoPlan
  const structured = [
    two ? { plan: two.powerW, t: two.verdict.sim!.timeS } : null,
    starts.grade,
  ].filter((c) => c !== null)
  structured.sort((a, b) => a.t - b.t)
  const lead = structured[0]
  if (!lead || (polishedTime !== null && lead.t >= polishedTime)) return
  const K = controls.count
  const x1 = new Float64Array(K)
  for (let k = 0; k < K; k++) x1[k] = lead.plan[controls.first[k]!]!
  const again = makePolishSetup({
    model: stage.im,
    v0: s.v0,
    of: stage.coarse.controls.of,
    K,
    spec: s.spec,
    timeScale: g.timeScale,
    x0: x1,
    floor: s.floorC,
    hi,
    pRef: g.pRef,
    ws: g.ws,
  })
  const al2: AugmentedState = { lambda: g.al.lambda, mu: 100, ks: g.al.ks > 0 ? 300 : 0 }
  const [rounds, inner] = stage.dpPlan ? [4, 50] : [15, 200]
  const u = polishCounted(again.setup, again.u0, al2, rounds, inner, s.tol, counts)
  const cand = expandPowers(controls.of, controlPowers(again.setup, u), new Float64Array(s.model.n))
  const fit = fitToConstraint(j, cand, lo, hi, 2)
  if (fit?.verdict.sim) {
    counts.simulations += fit.simulations
    fitted.push({ plan: cand, fit })
  }
}

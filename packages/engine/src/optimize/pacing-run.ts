// One run of the pacing optimizer over one set of control segments (split from pacing.ts; the
// steps are described there).
import { prepareModel, type SimModel } from '../sim/model.ts'
import type { SimulationResult } from '../sim/simulate.ts'
import { powerForSpeeds } from '../sim/step.ts'
import { buildControls, DEFAULT_CONTROL_OPTIONS } from './controls.ts'
import {
  bestConstant,
  fitToConstraint,
  scaledPlan,
  type FitResult,
  type Judge,
  type Verdict,
} from './exact.ts'
import { coarsen } from './coarse.ts'
import { dpWprimeTwoPass } from './dp.ts'
import { bestGradeProportional } from './structured.ts'
import type { SimplifiedPlan } from './plan.ts'
import {
  bestTargetPlan,
  constantPlan,
  controlTerrain,
  DEFAULT_MAX_TARGETS,
  DEFAULT_MIN_SECTION_M,
  LONG_COARSE,
  REDUCED_BUDGET,
  describePlan,
  optimizeTargets,
  targetMeansOf,
  twoLevelStarts,
  twoLevelStructure,
  climbTarget,
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

export function optimizeOnce(input: PacingInput): PacingResult {
  validatePacingInput(input)
  const { course, rider, pacing } = input
  const opts = input.options ?? {}
  const prepared = prepareModel(course, rider, input.environment ?? {}, opts)
  const model = input.dragFactor ? withDragFactor(prepared, input.dragFactor) : prepared
  const n = model.n
  const v0 = Math.min(opts.startSpeedMps ?? 0, model.vEnv[0]!)
  const controls = buildControls(course, model, { ...DEFAULT_CONTROL_OPTIONS, ...pacing.controls })
  const K = controls.count
  const { lo, hi } = powerBounds(rider, pacing)
  const j: Judge = {
    model,
    course,
    rider,
    options: opts,
    constraint: pacing.constraint,
    v0,
    buffers: forwardBuffers(n),
  }
  const spec = specOf(pacing.constraint, rider)
  let sims = 0
  // Stall floor: on each control, the power that holds 1.5× the minimum speed on its steepest
  // segment (quasi-steady). The optimizer's bounds and the repair stay above it, so no step of
  // the search falls off the cliff of a stalled (infinite-time) ride.
  const qsFine = prepareModel(course, rider, input.environment ?? {}, {
    ...opts,
    kineticEnergy: false,
  })
  const floorC = new Float64Array(K).fill(lo)
  for (let i = 0; i < n; i++) {
    const vs = 1.5 * model.minSpeed
    const need = 1.05 * powerForSpeeds(qsFine, i, vs, vs)
    const k = controls.of[i]!
    if (need > floorC[k]!) floorC[k] = Math.min(hi, need)
  }
  j.floor = expandPowers(controls.of, floorC, new Float64Array(n))

  // 1. baseline
  const base = bestConstant(j, lo, hi)
  sims += base.simulations
  if (base.verdict.excess > 0) {
    return infeasible(
      `the constraint cannot be met even at the minimum power ${lo} W`,
      controls,
      n,
      sims,
    )
  }
  const baseline = base.verdict.feasible
    ? { powerW: base.powerW, timeS: base.verdict.sim!.timeS }
    : null
  let x: Float64Array = new Float64Array(K).fill(base.powerW)
  const p = new Float64Array(n)
  if (!baseline) {
    // no constant power finishes: start from the stall floors on the steep controls
    for (let k = 0; k < K; k++) x[k] = Math.max(x[k]!, floorC[k]!)
    const r = rescueStalls(j, controls, x, hi, p)
    if (!r) {
      return infeasible(
        `${base.verdict.sim?.message ?? 'the rider cannot finish'} even at ${hi} W`,
        controls,
        n,
        sims,
      )
    }
    sims += r.simulations
    x = r.x
  }

  // 2a. W′: global stage by dynamic programming over control segments (quasi-steady times)
  // (both stages run on a coarser copy of the course: pieces of ~50 m within each control)
  const coarse = coarsen(course, controls, 50, model.vEnv)
  const ic = coarse.controls
  const env = input.environment ?? {}
  const cf = input.dragFactor ? coarseFactor(course, coarse, input.dragFactor) : null
  const imRaw = prepareModel(coarse.course, rider, env, opts)
  const im = cf ? withDragFactor(imRaw, cf) : imRaw
  const inN = im.n
  const ip = new Float64Array(inN)
  // each DP plan, made feasible on the fine course; the best one starts the polish
  const fitted: { plan: Float64Array; fit: FitResult }[] = []
  let dpPlan: Float64Array | null = null
  let wPrimeValue = 0
  let qs: SimModel | null = null
  if (spec.type === 'w_prime_balance') {
    const qsRaw = prepareModel(coarse.course, rider, env, { ...opts, kineticEnergy: false })
    qs = cf ? withDragFactor(qsRaw, cf) : qsRaw
    const plans = dpWprimeTwoPass(
      qs,
      im,
      ic,
      spec.cpW,
      spec.wPrimeJ,
      lo,
      hi,
      [spec.cpW, base.powerW],
      v0,
    )
    let bestT = Infinity
    for (const r of plans) {
      const fine = expandPowers(controls.of, r.power, new Float64Array(n))
      const fit = fitToConstraint(j, fine, lo, hi, 2)
      if (!fit?.verdict.sim) continue
      sims += fit.simulations
      fitted.push({ plan: fine, fit })
      if (fit.verdict.sim.timeS < bestT) {
        bestT = fit.verdict.sim.timeS
        dpPlan = r.power
        wPrimeValue = r.wPrimeValue
        x = Float64Array.from(r.power)
      }
    }
  }

  // 2b. augmented Lagrangian with an adjoint gradient
  const ws = workspace(inN)
  const timeScale = baseline
    ? baseline.timeS
    : forward(im, v0, expandPowers(ic.of, x, ip), spec, ws.b).timeS
  // W′ from the DP: start the multiplier at the DP's marginal value of W′ (time saved per joule,
  // in the normalized units of the objective), so the first round already lands near the
  // constrained optimum
  const al: AugmentedState = {
    lambda:
      dpPlan && spec.type === 'w_prime_balance' ? (wPrimeValue * spec.wPrimeJ) / timeScale : 0,
    mu: 100,
    ks: spec.type === 'w_prime_balance' ? 300 : 0,
  }
  // Diagonal preconditioning: the curvature of the finish time in a control's power grows with
  // the time spent on it, so each variable is scaled by √(its share of the ride's time) at the
  // starting plan; all variables then have similar curvature, which L-BFGS needs.
  const pRef = Math.max(1, base.powerW)
  const split = spec.type === 'w_prime_balance'
  const { setup, u0 } = makePolishSetup({
    model: im,
    v0,
    of: ic.of,
    K,
    spec,
    timeScale,
    x0: x,
    floor: floorC,
    hi,
    pRef,
    ws,
  })
  const tol = pacing.tolerance ?? 1e-9
  // With the DP start (W′) the gradient stage is a polish that adds kinetic energy back: a few
  // short rounds. Aggregate constraints (NP, mean power, work) converge fast from constant power.
  const r1 = polish(setup, u0, al, dpPlan ? 4 : 15, dpPlan ? 50 : 200, tol)
  let u = r1.u
  let inner = r1.inner
  let evals = r1.evaluations
  let outer = r1.rounds
  if (inN < n && !split) {
    // a short final round on the fine course itself, so the constraint is met where it is judged
    const fine: PolishSetup = { ...setup, model, of: controls.of, ws: workspace(n) }
    const r2 = polish(fine, u, al, 2, 15, tol)
    u = r2.u
    inner += r2.inner
    evals += r2.evaluations
    outer += r2.rounds
  }

  expandPowers(controls.of, controlPowers(setup, u), p)

  // Reduced problems (a few target powers over groups of controls) share the coarse model and
  // start from the optimum's final multiplier
  const red: ReducedSetup = {
    j,
    course,
    model,
    controls,
    coarse,
    im,
    qs,
    ws,
    floorC,
    lo,
    hi,
    spec,
    v0,
    timeScale,
    pRef,
    al: { ...al },
    tol,
  }
  const terrain = controlTerrain(course, model, controls)
  const cpW = spec.type === 'w_prime_balance' ? spec.cpW : null
  // Multi-start: the best two-level plan (every climb at one power, the rest at another) is a
  // candidate, from two starts (the optimum's own levels, and harder climbs with the descents
  // near the steady power). On short rollers the quasi-steady DP can favour hard climbs and
  // coasted descents, a local optimum once inertia is back (on twenty 500 m ±4 % segments:
  // 901.0 s against 897.6 s for 340 W / 295.7 W); no optimum is then slower than that plan.
  // (on very long courses, > 3 000 coarse pieces as the 180 km bench course, the structured
  // starts are skipped: they are where inertia on short rollers misleads the quasi-steady DP, and
  // they would double the work there)
  const long = inN > LONG_COARSE
  const two = baseline && !long ? twoLevelStructure(terrain) : null
  let twoPlan: TargetPlan | null = null
  if (two) {
    const climbsFirst = climbTarget(two, terrain) === 0
    const guess = twoLevelStarts(base.powerW, cpW)[0]!
    const starts = [climbsFirst ? guess : guess.reverse()]
    // and the optimum's own two levels
    starts.push(targetMeansOf(two, 2, p, controls))
    twoPlan = optimizeTargets(red, two, starts, REDUCED_BUDGET)
    if (twoPlan) {
      sims += twoPlan.simulations
      evals += twoPlan.gradients
      fitted.push({
        plan: twoPlan.powerW,
        fit: { alpha: 1, verdict: twoPlan.verdict, simulations: 0 },
      })
    }
  }

  // Multi-start: the best grade-proportional plan P = a + b·grade is a candidate too
  const coarseJudge: Judge = {
    ...j,
    model: im,
    course: coarse.course,
    buffers: forwardBuffers(inN),
    floor: null,
  }
  const gradePlan =
    baseline && !long ? bestGradeProportional(coarseJudge, ic, terrain.grade, floorC, lo, hi) : null
  let gradeFit: FitResult | null = null
  if (gradePlan) {
    sims += gradePlan.simulations
    const fine = expandPowers(controls.of, gradePlan.power, new Float64Array(n))
    gradeFit = fitToConstraint(j, fine, lo, hi, 2)
    if (gradeFit?.verdict.sim) {
      sims += gradeFit.simulations
      fitted.push({ plan: fine, fit: gradeFit })
    }
  }

  // 3. repair to exact feasibility, then 4. compare with the baseline
  // candidates: the polished plan, the DP plans (already fitted), a warm start; each made
  // feasible exactly, the fastest wins
  const toFit: Float64Array[] = [Float64Array.from(p)]
  const timeOf = (f: { fit: FitResult } | undefined) => f?.fit.verdict.sim?.timeS ?? null
  if (input.warmStart) toFit.push(Float64Array.from(input.warmStart))
  for (const cand of toFit) {
    const fit = fitToConstraint(j, cand, lo, hi, 2)
    if (!fit?.verdict.sim) continue
    sims += fit.simulations
    fitted.push({ plan: cand, fit })
  }
  // Continuation from the structured starts: when one of them (made feasible) beats the polished
  // optimum, the polish is run again from it (the optimum's local minimum was the poorer one)
  const polishedTime = timeOf(fitted.find((f) => f.plan === toFit[0]))
  const structured = [
    twoPlan ? { plan: twoPlan.powerW, t: twoPlan.verdict.sim!.timeS } : null,
    gradeFit?.verdict.sim && gradePlan
      ? {
          plan: expandPowers(controls.of, gradePlan.power, new Float64Array(n)),
          t: gradeFit.verdict.sim.timeS,
        }
      : null,
  ].filter((c) => c !== null)
  structured.sort((a, b) => a.t - b.t)
  const lead = structured[0]
  if (lead && (polishedTime === null || lead.t < polishedTime)) {
    const x1 = new Float64Array(K)
    for (let k = 0; k < K; k++) x1[k] = lead.plan[controls.first[k]!]!
    const again = makePolishSetup({
      model: im,
      v0,
      of: ic.of,
      K,
      spec,
      timeScale,
      x0: x1,
      floor: floorC,
      hi,
      pRef,
      ws,
    })
    const al2: AugmentedState = { lambda: al.lambda, mu: 100, ks: al.ks > 0 ? 300 : 0 }
    const r3 = polish(again.setup, again.u0, al2, dpPlan ? 4 : 15, dpPlan ? 50 : 200, tol)
    inner += r3.inner
    evals += r3.evaluations
    outer += r3.rounds
    const cand = expandPowers(controls.of, controlPowers(again.setup, r3.u), new Float64Array(n))
    const fit = fitToConstraint(j, cand, lo, hi, 2)
    if (fit?.verdict.sim) {
      sims += fit.simulations
      fitted.push({ plan: cand, fit })
    }
  }
  let chosen: Verdict | null = null
  let plan = new Float64Array(n)
  let note: string | null = null
  const buf = new Float64Array(n)
  for (const { plan: cand, fit } of fitted) {
    if (!chosen?.sim || fit.verdict.sim!.timeS < chosen.sim.timeS) {
      chosen = fit.verdict
      plan = Float64Array.from(scaledPlan(j, cand, fit.alpha, lo, hi, buf))
    }
  }
  if (baseline && (!chosen?.sim || chosen.sim.timeS > baseline.timeS)) {
    chosen = base.verdict
    plan = new Float64Array(n).fill(base.powerW)
    note = 'no variable plan beat the best constant power; the baseline is returned'
  }
  if (!chosen?.sim) {
    const where = base.verdict.sim?.message ?? 'the rider cannot finish'
    const reason =
      spec.type === 'w_prime_balance'
        ? `W′ (${spec.wPrimeJ} J above CP ${spec.cpW} W, at most ${hi} W) is not enough to get over the climb: at the best constant power the ${where}`
        : `no plan within the constraint and ${lo}–${hi} W gets the rider to the finish: at the best constant power the ${where}`
    return infeasible(reason, controls, n, sims)
  }
  const result = (sim: SimulationResult, simplified: SimplifiedPlan | null): PacingResult => ({
    status: 'optimal',
    reason: note,
    powerW: plan,
    simulation: sim,
    timeS: sim.timeS,
    baseline,
    timeSavedS: baseline ? baseline.timeS - sim.timeS : null,
    plan: simplified,
    controls,
    stats: {
      outerIterations: outer,
      innerIterations: inner,
      gradientEvaluations: evals,
      simulations: sims,
    },
  })
  if (input.boundOnly) return result(chosen.sim, null)
  const maxTargets = pacing.maxTargets ?? DEFAULT_MAX_TARGETS
  const minSectionM = pacing.minSectionM ?? DEFAULT_MIN_SECTION_M
  const found = bestTargetPlan(red, plan, chosen.sim, { maxTargets, minSectionM }, terrain, twoPlan)
  sims += found.simulations
  evals += found.gradients
  let simplified: SimplifiedPlan
  const fb = found.best
  const baseSim = base.verdict.sim
  if (fb && (!baseline || fb.verdict.sim!.timeS < baseline.timeS)) {
    const d = describePlan(course, controls, terrain, fb.targetOf, fb.count, fb.powerW)
    simplified = {
      ...d,
      powerW: fb.powerW,
      simulation: fb.verdict.sim,
      timeS: fb.verdict.sim!.timeS,
      reason: null,
    }
  } else if (baseline && baseSim) {
    const gain = baseline.timeS - chosen.sim.timeS
    const lost = fb ? fb.verdict.sim!.timeS - chosen.sim.timeS : null
    const why =
      maxTargets < 2
        ? 'one target was asked for'
        : gain < 0.05
          ? `varying the power gains nothing here (the per-segment optimum saves ${gain.toFixed(1)} s)`
          : `no plan of at most ${maxTargets} targets over sections of at least ${minSectionM} m beat it: the per-segment optimum saves ${gain.toFixed(1)} s, ${lost === null ? 'and no such plan met the constraint' : `the best such plan loses ${lost.toFixed(1)} s of it`}`
    const label = describePlan(
      course,
      controls,
      terrain,
      new Int32Array(K),
      1,
      new Float64Array(n).fill(base.powerW),
    ).sections[0]!.label
    simplified = constantPlan(
      course,
      baseline.powerW,
      baseSim,
      label,
      `the best constant power is the plan: ${why}`,
    )
  } else {
    // no constant power finishes and no plan of a few targets does: the per-segment optimum,
    // one target per control segment, is the only plan there is
    const targetOf = Int32Array.from({ length: K }, (_, k) => k)
    const d = describePlan(course, controls, terrain, targetOf, K, plan)
    simplified = {
      ...d,
      powerW: plan,
      simulation: chosen.sim,
      timeS: chosen.sim.timeS,
      reason: `no plan of at most ${maxTargets} targets gets the rider to the finish: one target per stretch`,
    }
  }
  // the simplified plan, refitted to the constraint, occasionally beats the optimum it came from:
  // then it is the better optimum
  let sim = chosen.sim
  if (simplified.simulation && simplified.timeS < sim.timeS) {
    sim = simplified.simulation
    plan = Float64Array.from(simplified.powerW)
    note = null
  }
  return result(sim, simplified)
}

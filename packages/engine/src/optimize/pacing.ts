// The pacing optimizer: minimum finish time over one power per control segment, subject to a hard
// constraint (W′ balance ≥ 0, NP, mean power or work) and to power bounds.
//
//   1. Baseline: the best feasible constant power, by bisection on the exact simulation.
//   2. Augmented Lagrangian (PHR) on the constraint, inner projected L-BFGS with the exact
//      gradient of a reverse (adjoint) sweep through the simulation's own step maps.
//   3. Repair: scale the plan along a monotone one-parameter family to the largest feasible
//      member, judged by the exact simulation, so the returned plan is feasible by construction.
//   4. Never slower than the baseline: if the optimized plan were slower, the baseline is kept.
// Every stop is a tolerance or an iteration count, never wall-clock time (docs/decisions/0002).
import type { Course } from '../course/types.ts'
import { prepareModel, type Environment, type Rider, type SimModel } from '../sim/model.ts'
import { powerForSpeeds } from '../sim/step.ts'
import type { SimulationOptions, SimulationResult } from '../sim/simulate.ts'
import {
  buildControls,
  DEFAULT_CONTROL_OPTIONS,
  type ControlOptions,
  type Controls,
} from './controls.ts'
import {
  bestConstant,
  fitToConstraint,
  judge,
  scaledPlan,
  type FitResult,
  type Judge,
  type PacingConstraint,
  type Verdict,
} from './exact.ts'
import { coarsen, type CoarseCourse } from './coarse.ts'
import { dpWprimeTwoPass } from './dp.ts'
import { noSlowerThanSteady, simplifyPlan, type SimplifiedPlan } from './plan.ts'
import { controlPowers, polish, type PolishSetup } from './polish.ts'
import {
  expandPowers,
  forward,
  forwardBuffers,
  workspace,
  type AugmentedState,
  type ConstraintSpec,
} from './problem.ts'
import { validatePacingInput } from './validate.ts'

export type { PacingConstraint } from './exact.ts'

export interface PacingSettings {
  constraint: PacingConstraint
  /** lowest power (W), default 0 (coasting allowed) */
  minPowerW?: number
  /** highest power (W), default the rider's maxPowerW */
  maxPowerW?: number
  controls?: Partial<ControlOptions>
  /** relative tolerance on the objective for the inner solver (default 1e-9) */
  tolerance?: number
  /** most sections in the simplified, rideable plan (default 20) */
  maxTargets?: number
}

export interface PacingInput {
  course: Course
  rider: Rider
  environment?: Environment
  options?: SimulationOptions
  pacing: PacingSettings
  /** per-segment factor on the drag area (CdA + Fw), e.g. a wheel's ΔCdA at each segment's yaw */
  dragFactor?: Float64Array
  /** a known plan (power per segment): the result is never slower than it, once made feasible */
  warmStart?: Float64Array
}

/** The prepared model with a per-segment drag-area factor folded into ρ (aero is ρ·½(CdA+Fw)). */
export function withDragFactor(m: SimModel, factor: Float64Array): SimModel {
  const rho = new Float64Array(m.n)
  for (let i = 0; i < m.n; i++) rho[i] = m.rho[i]! * factor[i]!
  return { ...m, rho }
}

/** Length-weighted mean of a per-segment factor over the segments of each coarse piece. */
function coarseFactor(course: Course, coarse: CoarseCourse, f: Float64Array) {
  const out = new Float64Array(coarse.course.n)
  let i = 0
  for (let c = 0; c < coarse.course.n; c++) {
    const end = coarse.course.start[c + 1]!
    let len = 0
    let acc = 0
    while (i < course.n && course.start[i]! < end - 1e-6) {
      len += course.length[i]!
      acc += course.length[i]! * f[i]!
      i++
    }
    out[c] = len > 0 ? acc / len : 1
  }
  return out
}

export interface PacingResult {
  status: 'optimal' | 'infeasible'
  /** why the problem is infeasible, or a note on how the result was obtained */
  reason: string | null
  /** requested crank power per fine segment (W) */
  powerW: Float64Array
  /** the optimized ride, simulated by `simulate`'s own loop (null when infeasible) */
  simulation: SimulationResult | null
  timeS: number
  /** best constant power under the same constraint (null when no constant power is feasible) */
  baseline: { powerW: number; timeS: number } | null
  timeSavedS: number | null
  /** the optimum simplified to at most maxTargets labelled sections, with its own simulated time */
  plan: SimplifiedPlan | null
  controls: Controls
  stats: {
    outerIterations: number
    innerIterations: number
    gradientEvaluations: number
    simulations: number
  }
}

/** Power bounds used by the optimizer (W). */
export function powerBounds(rider: Rider, s: PacingSettings): { lo: number; hi: number } {
  const lo = s.minPowerW ?? 0
  const hi = Math.min(s.maxPowerW ?? Infinity, rider.maxPowerW ?? Infinity)
  return { lo, hi }
}

function specOf(c: PacingConstraint, rider: Rider): ConstraintSpec {
  switch (c.type) {
    case 'w_prime_balance':
      return { type: 'w_prime_balance', cpW: rider.cpW!, wPrimeJ: rider.wPrimeJ! }
    case 'normalized_power':
      return { type: 'normalized_power', powerW: c.powerW }
    case 'average_power':
      return { type: 'average_power', powerW: c.powerW }
    case 'work':
      return { type: 'work', workJ: c.workJ }
  }
}

/** Raises the power of stalled control segments until the ride gets through (null: impossible). */
function rescueStalls(
  j: Judge,
  controls: Controls,
  x: Float64Array,
  hi: number,
  p: Float64Array,
): { x: Float64Array; simulations: number } | null {
  let simulations = 0
  for (let guard = 0; guard < controls.count; guard++) {
    expandPowers(controls.of, x, p)
    const v = judge(j, { type: 'plan', powerW: p })
    simulations++
    if (v.finished) return { x, simulations }
    const seg = j.course.start.findIndex((s) => s === (v.sim?.stalledAtM ?? 0))
    const k = controls.of[Math.max(0, seg)]!
    if (x[k]! >= hi) return null
    x[k] = Math.min(hi, Math.max(x[k]! * 1.25, x[k]! + 25))
  }
  return null
}

function infeasible(reason: string, controls: Controls, n: number, sims: number): PacingResult {
  return {
    status: 'infeasible',
    reason,
    powerW: new Float64Array(n),
    simulation: null,
    timeS: Infinity,
    baseline: null,
    timeSavedS: null,
    plan: null,
    controls,
    stats: { outerIterations: 0, innerIterations: 0, gradientEvaluations: 0, simulations: sims },
  }
}

export function optimizePacing(input: PacingInput): PacingResult {
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
  if (spec.type === 'w_prime_balance') {
    const qsRaw = prepareModel(coarse.course, rider, env, { ...opts, kineticEnergy: false })
    const qs = cf ? withDragFactor(qsRaw, cf) : qsRaw
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
  forward(im, v0, expandPowers(ic.of, x, ip), spec, ws.b)
  const dur = new Float64Array(K)
  for (let i = 0; i < inN; i++) dur[ic.of[i]!] = dur[ic.of[i]!]! + ws.b.t[i]!
  const pRef = Math.max(1, base.powerW)
  const split = spec.type === 'w_prime_balance'
  const cp = split ? spec.cpW : 0
  const V = split ? 2 * K : K
  const scaleOf = new Float64Array(V)
  const lower = new Float64Array(V)
  const upper = new Float64Array(V)
  const u0 = new Float64Array(V)
  for (let k = 0; k < K; k++) {
    const sc = pRef * Math.sqrt(timeScale / K / Math.max(dur[k]!, 1e-3))
    scaleOf[k] = sc
    if (split) {
      // P = CP + a − b, a ∈ [max(0, lo − CP), max(0, hi − CP)], b ∈ [max(0, CP − hi), max(0, CP − lo)]
      scaleOf[K + k] = sc
      const fl = floorC[k]!
      lower[k] = Math.max(0, fl - cp) / sc
      upper[k] = Math.max(0, hi - cp) / sc
      lower[K + k] = Math.max(0, cp - hi) / sc
      upper[K + k] = Math.max(0, cp - fl) / sc
      const x0 = Math.max(x[k]!, fl)
      u0[k] = Math.max(0, x0 - cp) / sc
      u0[K + k] = Math.max(0, cp - x0) / sc
    } else {
      lower[k] = floorC[k]! / sc
      upper[k] = hi / sc
      u0[k] = Math.max(x[k]!, floorC[k]!) / sc
    }
  }
  const setup: PolishSetup = {
    model: im,
    v0,
    of: ic.of,
    K,
    spec,
    timeScale,
    scale: scaleOf,
    lower,
    upper,
    split,
    band: split ? 0.01 * cp : 0,
    ws,
  }
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

  // 3. repair to exact feasibility, then 4. compare with the baseline
  expandPowers(controls.of, controlPowers(setup, u), p)
  // candidates: the polished plan, the DP plans (already fitted), a warm start; each made
  // feasible exactly, the fastest wins
  const toFit: Float64Array[] = [Float64Array.from(p)]
  if (input.warmStart) toFit.push(Float64Array.from(input.warmStart))
  for (const cand of toFit) {
    const fit = fitToConstraint(j, cand, lo, hi, 2)
    if (!fit?.verdict.sim) continue
    sims += fit.simulations
    fitted.push({ plan: cand, fit })
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
  let simplified = simplifyPlan(
    j,
    course,
    model,
    controls,
    plan,
    chosen.sim,
    pacing.maxTargets ?? 20,
    lo,
    hi,
  )
  // A rideable plan is never slower than riding the best constant power.
  const steadySim = base.verdict.sim
  if (baseline && steadySim) {
    const steady = () =>
      simplifyPlan(
        j,
        course,
        model,
        controls,
        new Float64Array(n).fill(base.powerW),
        steadySim,
        1,
        lo,
        hi,
      )
    simplified = noSlowerThanSteady(simplified, baseline.timeS, steady)
  }
  // the simplified plan, refitted to the constraint, occasionally beats the optimum it came from:
  // then it is the better optimum
  let sim = chosen.sim
  if (simplified.simulation && simplified.timeS < sim.timeS) {
    sim = simplified.simulation
    plan = Float64Array.from(simplified.powerW)
    note = null
  }
  return {
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
  }
}

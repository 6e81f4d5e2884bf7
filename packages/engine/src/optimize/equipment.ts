// Equipment optimization: every combination of options (one per group), each with its own optimal
// pacing under the same constraint, ranked by the finish time of that optimum (the bound), with
// pruning of combinations that cannot win; only the winner's rideable plan is built
// (docs/decisions/0003-equipment-pruning.md).
//
// An option changes CdA (a constant delta, or a table of deltas by apparent-wind yaw), replaces
// Crr, adds mass, and scales the power the rider can hold (power_factor: CP, maximum power and
// the constraint's power or work target). A CdA table is evaluated at each segment's yaw on the
// baseline combination's optimized ride and folded into that segment's drag (ρᵢ·CdAᵢ), so the
// simulation applies the right drag area segment by segment.
import type { Course } from '../course/types.ts'
import { prepareModel, type Environment, type Rider } from '../sim/model.ts'
import type { SimulationOptions } from '../sim/simulate.ts'
import { fitToConstraint, type Judge, type PacingConstraint } from './exact.ts'
import { forwardBuffers } from './problem.ts'
import {
  gridInputs,
  optimizeWithoutPositions,
  powerBounds,
  withDragFactor,
  type KnownRuns,
  type PacingSettings,
} from './pacing.ts'
import { boundRun, type BoundRun } from './pacing-run.ts'
import { optimizePacing, type PacingResult, type PositionedPacingInput } from './positions.ts'
import { positionDragFactor, positionsMatter } from '../sim/positions.ts'
import { EngineInputError } from '../sim/validate.ts'

export interface EquipmentOption {
  name: string
  cdaDeltaM2?: number
  /** [yaw (degrees, ≥ 0), ΔCdA (m²)] sorted by yaw; |yaw| is interpolated linearly, clamped */
  cdaDeltaByYaw?: [number, number][]
  crr?: number
  massDeltaKg?: number
  powerFactor?: number
}

export interface EquipmentSpec {
  groups: Record<string, EquipmentOption[]>
  /** option name per group; a group left out defaults to its first option */
  baseline?: Record<string, string>
  /** false: optimize every combination exactly (no pruning); default true */
  prune?: boolean
}

export interface EquipmentInput {
  course: Course
  rider: Rider
  environment?: Environment
  options?: SimulationOptions
  pacing: PacingSettings
  equipment: EquipmentSpec
}

export interface RankedCombination {
  choices: Record<string, string>
  timeS: number
  /** time minus the baseline combination's time (s); negative = faster */
  deltaS: number
  /** false: pruned, timeS is that of a feasible plan (an upper bound on its optimum) */
  optimized: boolean
  /** Δ-time against the baseline combination along the course */
  deltaSeries: { distanceM: Float64Array; deltaS: Float64Array }
}

export interface EquipmentResult {
  baseline: RankedCombination
  ranking: RankedCombination[]
  /** optimal pacing of the fastest combination */
  best: PacingResult
  combinations: number
  optimizedCount: number
}

const SERIES_POINTS = 50

function yawDelta(table: [number, number][], yawDeg: number): number {
  const y = Math.abs(yawDeg)
  if (y <= table[0]![0]) return table[0]![1]
  for (let k = 1; k < table.length; k++) {
    const [y1, d1] = table[k]!
    if (y <= y1) {
      const [y0, d0] = table[k - 1]!
      return d0 + ((d1 - d0) * (y - y0)) / (y1 - y0)
    }
  }
  return table[table.length - 1]![1]
}

function validateEquipment(e: EquipmentSpec): string[] {
  const names = Object.keys(e?.groups ?? {})
  if (names.length === 0) {
    throw new EngineInputError(
      'equipment.groups',
      'expected at least one group of options, got none',
    )
  }
  for (const g of names) {
    const opts = e.groups[g]
    if (!Array.isArray(opts) || opts.length === 0) {
      throw new EngineInputError(`equipment.groups.${g}`, 'expected a non-empty list of options')
    }
    opts.forEach((o, i) => {
      const at = `equipment.groups.${g}[${i}]`
      if (typeof o.name !== 'string' || !o.name) {
        throw new EngineInputError(`${at}.name`, `expected a name, got ${JSON.stringify(o.name)}`)
      }
      const num = (v: unknown, f: string, lo: number, hi: number) => {
        if (
          v !== undefined &&
          !(typeof v === 'number' && Number.isFinite(v) && v >= lo && v <= hi)
        ) {
          throw new EngineInputError(
            `${at}.${f}`,
            `expected a number in [${lo}, ${hi}], got ${JSON.stringify(v)}`,
          )
        }
      }
      num(o.cdaDeltaM2, 'cda_delta_m2', -0.2, 0.2)
      num(o.crr, 'crr', 0.0005, 0.05)
      num(o.massDeltaKg, 'mass_delta_kg', -20, 50)
      num(o.powerFactor, 'power_factor', 0.5, 1.5)
      if (o.cdaDeltaByYaw !== undefined) {
        const t = o.cdaDeltaByYaw
        if (!Array.isArray(t) || t.length === 0) {
          throw new EngineInputError(`${at}.cda_delta_by_yaw`, 'expected [[yaw_deg, delta_m2], …]')
        }
        t.forEach((p, q) => {
          if (!Array.isArray(p) || p.length !== 2 || !p.every((x) => Number.isFinite(x))) {
            throw new EngineInputError(
              `${at}.cda_delta_by_yaw[${q}]`,
              `expected [yaw_deg, delta_m2], got ${JSON.stringify(p)}`,
            )
          }
          if (q > 0 && !(p[0] > t[q - 1]![0])) {
            throw new EngineInputError(
              `${at}.cda_delta_by_yaw[${q}]`,
              'expected yaw angles in increasing order',
            )
          }
        })
      }
    })
    const b = e.baseline?.[g]
    if (b !== undefined && !opts.some((o) => o.name === b)) {
      throw new EngineInputError(
        `equipment.baseline.${g}`,
        `expected one of ${opts.map((o) => o.name).join(', ')}, got ${JSON.stringify(b)}`,
      )
    }
  }
  for (const g of Object.keys(e.baseline ?? {})) {
    if (!names.includes(g))
      throw new EngineInputError(
        `equipment.baseline.${g}`,
        'expected a group name, got an unknown group',
      )
  }
  return names
}

interface Combo {
  choices: Record<string, string>
  options: EquipmentOption[]
}

function combinations(e: EquipmentSpec, groups: string[]): Combo[] {
  let out: Combo[] = [{ choices: {}, options: [] }]
  for (const g of groups) {
    const next: Combo[] = []
    for (const c of out) {
      for (const o of e.groups[g]!) {
        next.push({ choices: { ...c.choices, [g]: o.name }, options: [...c.options, o] })
      }
    }
    out = next
  }
  return out
}

/**
 * The rider, constraint and prepared model of one combination. `dragFactor` is the yaw tables'
 * factor (what the position-aware optimizer combines with the positions); the model has both,
 * the positions of `assignment` included.
 */
function setupOf(
  input: EquipmentInput,
  combo: Combo,
  yawDeg: Float64Array | null,
  assignment?: Uint8Array,
) {
  const r = input.rider
  let cda = r.cdaM2
  let crr = r.crr
  let mass = r.bikeMassKg
  let factor = 1
  for (const o of combo.options) {
    cda += o.cdaDeltaM2 ?? 0
    if (o.crr !== undefined) crr = o.crr
    mass += o.massDeltaKg ?? 0
    factor *= o.powerFactor ?? 1
  }
  // an option's ΔCdA applies in every position
  const shift = cda - r.cdaM2
  const rider: Rider = {
    ...r,
    cdaM2: cda,
    ...(r.positions
      ? { positions: r.positions.map((p) => ({ ...p, cdaM2: p.cdaM2 + shift })) }
      : {}),
    crr,
    bikeMassKg: mass,
    cpW: r.cpW === undefined ? undefined : r.cpW * factor,
    maxPowerW: r.maxPowerW === undefined ? undefined : r.maxPowerW * factor,
  }
  const c = input.pacing.constraint
  const constraint: PacingConstraint =
    c.type === 'work'
      ? { type: 'work', workJ: c.workJ * factor }
      : c.type === 'w_prime_balance'
        ? c
        : { ...c, powerW: c.powerW * factor }
  const settings: PacingSettings = {
    ...input.pacing,
    constraint,
    maxPowerW: input.pacing.maxPowerW === undefined ? undefined : input.pacing.maxPowerW * factor,
  }
  const opts = input.options ?? {}
  const env = input.environment ?? {}
  let model = prepareModel(input.course, rider, env, opts)
  const tables = combo.options.filter((o) => o.cdaDeltaByYaw)
  let dragFactor: Float64Array | undefined
  if (tables.length > 0 && yawDeg) {
    // the yaw-dependent ΔCdA as a per-segment factor on (CdA + Fw)
    const base = 2 * model.halfCda
    dragFactor = new Float64Array(model.n)
    for (let i = 0; i < model.n; i++) {
      let d = 0
      for (const o of tables) d += yawDelta(o.cdaDeltaByYaw!, yawDeg[i]!)
      dragFactor[i] = (base + d) / base
    }
  }
  if (assignment && positionsMatter(rider)) {
    model = withDragFactor(model, positionDragFactor(rider, assignment, dragFactor))
  } else if (dragFactor) {
    model = withDragFactor(model, dragFactor)
  }
  return { rider, settings, model, dragFactor }
}

function withoutPositions<T extends { initialPositions?: Uint8Array }>(
  input: T,
): Omit<T, 'initialPositions'> {
  const { initialPositions: _, ...core } = input
  return core
}

/**
 * A combination's ranking run: bound only, on `grid`, without the structured starts; without
 * riding positions (`continued`) kept at its optimum with its grid's index, for the winner's whole
 * run to continue.
 */
function rankingRun(
  ei: PositionedPacingInput,
  grid: PacingResult['controlOptions'],
  continued: boolean,
): { rt: PacingResult; run: { at: number; run: BoundRun } | null } {
  const grids = continued ? gridInputs(withoutPositions(ei)) : []
  const at = grids.findIndex((g) => sameGrid(g.controlOptions, grid))
  if (at >= 0) {
    const run = boundRun({ ...grids[at]!.input, structuredStarts: false })
    return { rt: { ...run.result, controlOptions: grid }, run: { at, run } }
  }
  const rt = optimizePacing({
    ...ei,
    pacing: grid && !ei.pacing.controls ? { ...ei.pacing, controls: grid } : ei.pacing,
    boundOnly: true,
    structuredStarts: false,
  })
  return { rt, run: null }
}

function sameGrid(a: object | undefined, b: object | undefined): boolean {
  return JSON.stringify(a ?? {}) === JSON.stringify(b ?? {})
}

function knownAt(r: { at: number; run: BoundRun }): KnownRuns {
  const known: KnownRuns = []
  known[r.at] = r.run
  return known
}

function cumulative(sim: { segments: { time: Float64Array; count: number } }, course: Course) {
  const d = new Float64Array(SERIES_POINTS)
  const t = new Float64Array(SERIES_POINTS)
  const total = course.start[course.n]!
  let i = 0
  for (let q = 0; q < SERIES_POINTS; q++) {
    const at = (total * (q + 1)) / SERIES_POINTS
    while (i < course.n - 1 && course.start[i + 1]! < at - 1e-9) i++
    d[q] = course.start[i + 1]!
    t[q] = sim.segments.time[Math.min(i, sim.segments.count - 1)]!
  }
  return { d, t }
}

/**
 * The baseline combination's bound-only run, and the yaw every combination's drag tables are read
 * at: that of the baseline's optimized ride. A table of the baseline's own needs that yaw, so the
 * baseline is then optimized again with it, warm-started from the first run's optimum. Without
 * riding positions (`continued`) each grid's run is kept to its optimum (`baseRuns`), so that the
 * winner's whole run continues the runs it was ranked by instead of starting them again.
 */
function baselineRun(input: EquipmentInput, combo: Combo) {
  const b0 = setupOf(input, combo, null)
  const continued = !positionsMatter(b0.rider)
  const bound = (baseInput: PositionedPacingInput) => {
    const baseRuns: KnownRuns = []
    const baseRun: PacingResult = continued
      ? optimizeWithoutPositions({ ...withoutPositions(baseInput), boundOnly: true }, baseRuns)
      : optimizePacing({ ...baseInput, boundOnly: true })
    if (baseRun.status !== 'optimal' || !baseRun.simulation) {
      throw new EngineInputError(
        'equipment.baseline',
        `the baseline combination has no feasible pacing: ${baseRun.reason}`,
      )
    }
    return { baseInput, baseRun, baseRuns, continued, yaw: baseRun.simulation.segments.yawDeg }
  }
  const first = bound({ ...input, rider: b0.rider, pacing: b0.settings })
  const b1 = setupOf(input, combo, first.yaw)
  // no table, or one of zeros (a 30 mm wheel against itself): the first run was the baseline's
  if (!b1.dragFactor || b1.dragFactor.every((f) => f === 1)) return first
  const again = bound({
    ...input,
    rider: b1.rider,
    pacing: b1.settings,
    dragFactor: b1.dragFactor,
    warmStart: first.baseRun.powerW,
    initialPositions: first.baseRun.positions?.segment,
  })
  return { ...again, yaw: first.yaw }
}

export function optimizeEquipment(input: EquipmentInput): EquipmentResult {
  const groups = validateEquipment(input.equipment)
  const combos = combinations(input.equipment, groups)
  const baseChoices: Record<string, string> = {}
  for (const g of groups)
    baseChoices[g] = input.equipment.baseline?.[g] ?? input.equipment.groups[g]![0]!.name
  const isBase = (c: Combo) => groups.every((g) => c.choices[g] === baseChoices[g])
  const baseCombo = combos.find(isBase)!
  // 1. the baseline combination, optimized exactly (its per-segment optimum: the ranking compares
  //    the combinations' bounds; only the winner's rideable plan is built, in 4.)
  const { baseInput, baseRun, baseRuns, continued, yaw } = baselineRun(input, baseCombo)
  // every combination starts from the baseline's positions (and re-assigns when optimized)
  const baseAssign = baseRun.positions?.segment
  // 2. every combination: the baseline's optimal plan made feasible for it (a real, feasible
  //    time: an upper bound on that combination's optimum)
  const opts = input.options ?? {}
  const upper: { combo: Combo; timeS: number; sim: PacingResult['simulation'] }[] = []
  // the fitted α of the last combination of each power factor: the power the rider can hold
  // decides it (the others' drag, Crr and mass move it by a few %), so the next one's bracket is
  // grown from there (fitToConstraint's start)
  const alphaOf = new Map<number, number>()
  for (const combo of combos) {
    const s = setupOf(input, combo, yaw, baseAssign)
    const { lo, hi } = powerBounds(s.rider, s.settings)
    const j: Judge = {
      model: s.model,
      course: input.course,
      rider: s.rider,
      options: opts,
      constraint: s.settings.constraint,
      v0: Math.min(opts.startSpeedMps ?? 0, s.model.vEnv[0]!),
      buffers: forwardBuffers(s.model.n),
    }
    const factor = combo.options.reduce((f, o) => f * (o.powerFactor ?? 1), 1)
    const fit = fitToConstraint(j, baseRun.powerW, lo, hi, 2, alphaOf.get(factor))
    if (fit) alphaOf.set(factor, fit.alpha)
    upper.push({ combo, timeS: fit?.verdict.sim?.timeS ?? Infinity, sim: fit?.verdict.sim ?? null })
  }
  upper.sort((a, b) => a.timeS - b.timeS)
  // 3. optimize exactly in order of promise; prune what cannot beat the best found
  const exact = new Map<Combo, { timeS: number; result: PacingResult }>()
  exact.set(baseCombo, { timeS: baseRun.timeS, result: baseRun })
  let gainMax = 0
  for (const u of upper) if (u.combo === baseCombo) gainMax = Math.max(0, u.timeS - baseRun.timeS)
  let bestT = baseRun.timeS
  let bestCombo = baseCombo
  let tried = 0
  // the bound-only run the best combination so far was ranked by, and its grid's index
  // (gridInputs); only the best's is kept (each holds its models and workspaces)
  let bestRun: { at: number; run: BoundRun } | null = null
  // a combination's exact run: warm-started from the baseline's optimum and positions
  const exactInput = (combo: Combo) => {
    const s = setupOf(input, combo, yaw, baseAssign)
    return {
      ...input,
      rider: s.rider,
      pacing: s.settings,
      dragFactor: s.dragFactor,
      warmStart: baseRun.powerW,
      initialPositions: baseAssign,
    }
  }
  for (const u of upper) {
    if (!Number.isFinite(u.timeS)) continue
    // what re-optimizing pacing can still gain over the fitted plan: twice the largest gain seen
    // so far, plus 0.1 % (measured bound; see the decision record), once 3 have been optimized
    const slack = 2 * gainMax + 1e-3 * u.timeS
    if (input.equipment.prune !== false && tried >= 3 && u.timeS - slack > bestT) continue
    if (exact.has(u.combo)) continue
    // on the control grid of the baseline's optimum only: a combination is a small change of
    // drag, mass or power from the baseline, warm-started from its optimum, and the other grid
    // (pacing.ts) doubles the work of each such run. On the bench's 5 × 5 × 3 the six optimized
    // combinations' times were the same with one grid as with both (decision 0003).
    const { rt, run } = rankingRun(exactInput(u.combo), baseRun.controlOptions, continued)
    tried++
    if (rt.status !== 'optimal') continue
    exact.set(u.combo, { timeS: rt.timeS, result: rt })
    gainMax = Math.max(gainMax, u.timeS - rt.timeS)
    if (rt.timeS < bestT) {
      bestT = rt.timeS
      bestCombo = u.combo
      bestRun = run
    }
  }
  // 4. the winner's whole pacing run, rideable plan included (what the rider is handed); its
  //    optimum can only be faster than the bound-only run's (the plan's refit sometimes improves
  //    it), so it stays the winner. The baseline's run is the plain pacing run when it wins.
  const ranked = bestRun as { at: number; run: BoundRun } | null
  const best =
    bestCombo === baseCombo
      ? continued
        ? optimizeWithoutPositions(withoutPositions(baseInput), baseRuns)
        : optimizePacing(baseInput)
      : ranked
        ? optimizeWithoutPositions(withoutPositions(exactInput(bestCombo)), knownAt(ranked))
        : optimizePacing(exactInput(bestCombo))
  if (best.status === 'optimal' && best.timeS < exact.get(bestCombo)!.timeS) {
    exact.set(bestCombo, { timeS: best.timeS, result: best })
  }
  const baseExact = exact.get(baseCombo)!
  const baseT = baseExact.timeS
  const baseCum = cumulative(baseExact.result.simulation!, input.course)
  const ranking: RankedCombination[] = upper.map((u) => {
    const e = exact.get(u.combo)
    const sim = e ? e.result.simulation! : u.sim
    const timeS = e ? e.timeS : u.timeS
    const cum = sim ? cumulative(sim, input.course) : null
    const delta = new Float64Array(SERIES_POINTS)
    if (cum) for (let q = 0; q < SERIES_POINTS; q++) delta[q] = cum.t[q]! - baseCum.t[q]!
    return {
      choices: u.combo.choices,
      timeS,
      deltaS: timeS - baseT,
      optimized: e !== undefined,
      deltaSeries: { distanceM: baseCum.d, deltaS: delta },
    }
  })
  ranking.sort((a, b) => a.timeS - b.timeS)
  return {
    baseline: ranking.find((r) => groups.every((g) => r.choices[g] === baseChoices[g]))!,
    ranking,
    best,
    combinations: combos.length,
    optimizedCount: exact.size,
  }
}

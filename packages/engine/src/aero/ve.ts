// Virtual elevation (Chung 2012, docs/engine/science.md §6.1): the power balance rearranged to a slope and
// integrated to an elevation profile, and the least-squares fit of CdA, Crr (and a constant wind)
// that makes it match the measured elevation (or a flat track), robust to GPS elevation noise
// (Huber IRLS), with 95 % intervals by delete-a-block jackknife or moving-block bootstrap.
//
// Per sample i (energy form, Δt = t_i − t_{i−1}, v = ground speed, F = |Va|·(v + w∥) or the
// measured air speed squared, κ = (m + I/r²)/m):
//   ΔVE_i = η·P_i·Δt/(m·g) − κ·(v_i² − v_{i−1}²)/(2g) − P_WB(v_i)·Δt/(m·g)
//           − Crr·v_i·Δt − (CdA + Fw)·ρ_i·F_i·v_i·Δt/(2·m·g)
// With Fw = 0, no bearings and I = 0 this is Chung's / GoldenCheetah Aerolab's slope
// s = ηP/(v m g) − Crr − CdA·ρ·v²/(2 m g) − a/g, a = (v_i² − v_{i−1}²)/(2Δt·v_i), times v_i·Δt.
//
// Files: ve-model.ts (the trace), ve-problem.ts (segments and the cumulative series),
// ve-gls.ts (residuals, Huber weights, Gauss–Newton), ve-intervals.ts (the intervals); this file
// holds the fit itself.
import { G0 } from '../physics/constants.ts'
import type { VeFitOptions, VeFitResult, VePiece, VeSeries } from './types.ts'
import { median } from './random.ts'
import { gaussNewton, lagOne, residuals } from './ve-gls.ts'
import { fitIntervals } from './ve-intervals.ts'
import { modelConstants, type ModelConstants } from './ve-model.ts'
import {
  buildSegments,
  VeProblem,
  windIdentifiable,
  type FitState,
  type Segment,
} from './ve-problem.ts'

export { virtualElevation } from './ve-model.ts'
export { tQuantile975 } from './ve-intervals.ts'

/** Crr used when the data cannot separate it from CdA (asphalt, docs/engine/science.md §9.2). */
export const FALLBACK_CRR = 0.004
/** A fitted constant wind above this (m/s) is not believed: the fit is redone without wind. */
export const MAX_FITTED_WIND_MPS = 8
/** An elevation sample this far off the first fit's profile (m, and robust SDs) is a spike. */
const SPIKE_MIN_M = 4
const SPIKE_MADS = 8
/** Plausible range of a fitted Crr; outside it Crr is held at FALLBACK_CRR. */
const CRR_RANGE: [number, number] = [0.0015, 0.01]
/** The wind fit starts from the best of a grid of winds up to this speed (m/s). */
const WIND_GRID_MAX_MPS = 7

/**
 * Least-squares fit of CdA (per group), Crr (unless fixed) and, where headings vary enough, a
 * constant wind, to the measured elevation (flat when the series has none: a velodrome), each
 * piece with its own elevation offset. A piece is cut where samples are unusable or masked out
 * (a stop or braking loses energy the model does not know), so masked samples also break the
 * trace, and each part gets its own offset. Robust: Huber IRLS (k = 1.345 robust SDs).
 * Intervals: moving-block bootstrap of the residuals around the fitted profile (seeded).
 */
export function fitVirtualElevation(s: VeSeries, pieces: VePiece[], o: VeFitOptions): VeFitResult {
  const groups = o.groups ?? 1
  const segs = buildSegments(s, pieces, o.mask)
  const warnings: string[] = []
  const groupUsed = new Uint8Array(groups)
  for (const g of segs) groupUsed[g.group] = 1
  for (let g = 0; g < groups; g++) if (!groupUsed[g]) warnings.push(`group ${g}: no usable samples`)
  if (segs.length === 0) {
    warnings.push('no usable samples (moving, with power and speed) to fit')
    return emptyFit(s.n, pieces, o, groups, o.crr === undefined, warnings)
  }
  const f = startFit(s, segs, o, groups, warnings)
  const it = fitWithFallbacks(f)
  if (it < 0) {
    warnings.push('CdA could not be fitted (the data do not determine it)')
    return emptyFit(s.n, pieces, o, groups, f.crrFree, warnings)
  }
  const { P, st, alt, lev } = f
  residuals(P, alt, st, f.w, f.res, lev)
  const sum = fitSummary(f, pieces)
  const iv = fitIntervals({
    s,
    o,
    P,
    base: f.base,
    segs,
    groups,
    alt,
    w: f.w,
    res: f.res,
    lev,
    st,
    kH: f.kH,
    n: sum.n,
    crrFree: f.crrFree,
    windOn: f.windOn,
    fw: f.c.fw,
  })
  return {
    cda: Array.from(st.cda, (x, g) => (groupUsed[g] ? x : NaN)),
    cdaCi95: iv.cdaCi95,
    crr: st.crr,
    crrCi95: iv.crrCi95,
    crrFixed: !f.crrFree,
    crrShift: Array.from(st.crrShift),
    crrShiftCi95: iv.crrShiftCi95,
    crrGroupCi95: iv.crrGroupCi95,
    windE: st.wE,
    windN: st.wN,
    windFitted: P.windFree,
    windAxis: P.windFree ? f.windAxis : null,
    offsets: sum.offsets,
    segments: segs.map((g, si) => ({
      start: g.a,
      end: g.b,
      piece: g.piece,
      offsetM: st.offsets[si]!,
    })),
    residuals: sum.residuals,
    rmseM: sum.n > 0 ? Math.sqrt(sum.ss / sum.n) : NaN,
    pieceRmseM: Array.from(sum.pieceSs, (x, p) =>
      sum.pieceN[p]! > 0 ? Math.sqrt(x / sum.pieceN[p]!) : NaN,
    ),
    samplesUsed: sum.n,
    iterations: it,
    phi: P.phi,
    cdaSe: iv.cdaSe,
    cdaSeOwn: iv.cdaSeOwn,
    blocks: iv.blocks,
    cdaDof: iv.cdaDof,
    crrSe: iv.crrSe,
    crrDof: iv.crrDof,
    bootstrapCda: iv.bootstrapCda,
    bootstrapCrr: iv.bootstrapCrr,
    warnings,
  }
}

/** The result of a fit that could not be made: every figure NaN, the warnings saying why. */
function emptyFit(
  n: number,
  pieces: VePiece[],
  o: VeFitOptions,
  groups: number,
  crrFree: boolean,
  warnings: string[],
): VeFitResult {
  return {
    cda: new Array<number>(groups).fill(NaN),
    cdaCi95: Array.from({ length: groups }, () => [NaN, NaN] as [number, number]),
    crr: o.crr ?? NaN,
    crrCi95: [o.crr ?? NaN, o.crr ?? NaN],
    crrFixed: !crrFree,
    crrShift: Array.from({ length: o.crrGroups ?? 1 }, (_, k) => o.crrShifts?.[k] ?? 0),
    crrShiftCi95: Array.from({ length: o.crrGroups ?? 1 }, () => [NaN, NaN] as [number, number]),
    crrGroupCi95: Array.from({ length: o.crrGroups ?? 1 }, () => [NaN, NaN] as [number, number]),
    windE: 0,
    windN: 0,
    windFitted: false,
    windAxis: null,
    offsets: pieces.map(() => NaN),
    segments: [],
    residuals: new Float64Array(n).fill(NaN),
    phi: 0,
    cdaSe: new Array<number>(groups).fill(NaN),
    cdaSeOwn: new Array<number>(groups).fill(NaN),
    blocks: [],
    cdaDof: new Array<number>(groups).fill(0),
    crrSe: NaN,
    crrDof: 0,
    rmseM: NaN,
    pieceRmseM: pieces.map(() => NaN),
    samplesUsed: 0,
    iterations: 0,
    bootstrapCda: [],
    bootstrapCrr: new Float64Array(0),
    warnings,
  }
}

/** A fit in progress: its fixed inputs, work arrays, and the problem and state being fitted. */
interface VeFit {
  s: VeSeries
  o: VeFitOptions
  segs: Segment[]
  groups: number
  c: ModelConstants
  kH: number
  /** The problem without wind, whose cumulative series every refit shares. */
  base: VeProblem
  windAxis: [number, number] | null
  /** With the wind fitted along `windAxis`: the stated wind's component across it, held (or null). */
  crossWind: [number, number] | null
  /** Elevation per fit position (NaN: ignored), the weights, innovations and level residuals. */
  alt: Float64Array
  w: Float64Array
  res: Float64Array
  lev: Float64Array
  P: VeProblem
  st: FitState
  crrFree: boolean
  windOn: boolean
  warnings: string[]
}

function startFit(
  s: VeSeries,
  segs: Segment[],
  o: VeFitOptions,
  groups: number,
  warnings: string[],
): VeFit {
  const mg = o.massKg * G0
  const c = modelConstants(o, o.massKg)
  const crrFree = o.crr === undefined
  const windId =
    (o.fitWind ?? true) ? windIdentifiable(s, segs) : { dims: 0, axis: [0, 0] as [number, number] }
  const base = new VeProblem(
    segs,
    groups,
    c.fw,
    crrFree,
    false,
    undefined,
    s,
    mg,
    c,
    o.drivetrainEfficiency,
  )
  const m = base.m
  const alt = new Float64Array(m)
  for (const g of segs) {
    for (let i = g.a, j = g.ja; i < g.b; i++, j++) alt[j] = s.elevation ? s.elevation[i]! : 0
  }
  const f: VeFit = {
    s,
    o,
    segs,
    groups,
    c,
    kH: o.huberK ?? 1.345,
    base,
    windAxis: windId.dims === 1 ? windId.axis : null,
    crossWind: windId.dims === 1 ? across(o, windId.axis) : null,
    alt,
    w: new Float64Array(m),
    res: new Float64Array(m),
    lev: new Float64Array(m),
    P: base,
    st: startState(o, groups, segs.length, windId.dims > 0),
    crrFree,
    windOn: windId.dims > 0,
    warnings,
  }
  f.P = problemOf(f, f.windOn)
  return f
}

/** The problem to fit with the current choice of free parameters (wind on or off). */
function problemOf(f: VeFit, windOn: boolean): VeProblem {
  const P = new VeProblem(f.segs, f.groups, f.c.fw, f.crrFree, windOn, f.base)
  P.axis = windOn ? f.windAxis : null
  P.crrShifts = f.crrFree ? (f.o.crrGroups ?? 1) - 1 : 0
  return P
}

/** The stated wind's component across the axis (east, north), or null when none is stated. */
function across(o: VeFitOptions, axis: [number, number]): [number, number] | null {
  if (o.statedWindE === undefined || o.statedWindN === undefined) return null
  const along = o.statedWindE * axis[0] + o.statedWindN * axis[1]
  return [o.statedWindE - along * axis[0], o.statedWindN - along * axis[1]]
}

function startState(o: VeFitOptions, groups: number, nSegs: number, windOn: boolean): FitState {
  const shifts = o.crr !== undefined ? (o.crrShifts ?? []) : []
  return {
    cda: new Float64Array(groups).fill(0.3),
    crr: o.crr ?? FALLBACK_CRR,
    crrShift: Float64Array.from({ length: o.crrGroups ?? 1 }, (_, k) => shifts[k] ?? 0),
    wE: windOn ? 0 : (o.windE ?? 0),
    wN: windOn ? 0 : (o.windN ?? 0),
    offsets: new Float64Array(nSegs),
  }
}

function initWeights(f: VeFit): void {
  for (let j = 0; j < f.w.length; j++) f.w[j] = Number.isFinite(f.alt[j]) ? 1 : 0
}

/**
 * Ordinary least squares without wind first (a good start), with wind, then GLS with the AR(1)
 * coefficient of the residuals (Cochrane–Orcutt, two rounds). Returns the iterations, < 0 when
 * the data do not determine the parameters.
 */
function fitAll(f: VeFit): number {
  const { P, alt, st, w, res, kH, lev } = f
  P.phi = 0
  initWeights(f)
  if (f.windOn) {
    if (!windStart(f)) return -1
    initWeights(f)
  }
  let r = gaussNewton(P, alt, st, w, res, kH, 40)
  // Elevation spikes (GPS): samples far off the first fit's profile are ignored.
  if (r >= 0 && f.s.elevation) {
    residuals(P, alt, st, w, res, lev)
    const dev: number[] = []
    for (let j = 0; j < alt.length; j++) if (Number.isFinite(alt[j])) dev.push(lev[j]!)
    const mid = median(dev)
    const mad = median(dev.map((x) => Math.abs(x - mid)))
    const cut = Math.max(SPIKE_MIN_M, SPIKE_MADS * 1.4826 * mad)
    let spikes = 0
    for (let j = 0; j < alt.length; j++) {
      if (Number.isFinite(alt[j]) && Math.abs(lev[j]! - mid) > cut) {
        alt[j] = NaN
        spikes++
      }
    }
    if (spikes > 0) {
      f.warnings.push(
        `${spikes} elevation samples more than ${cut.toFixed(1)} m off the profile ignored`,
      )
      initWeights(f)
      r = gaussNewton(P, alt, st, w, res, kH, 40)
    }
  }
  for (let round = 0; (f.o.gls ?? true) && r >= 0 && round < 2; round++) {
    residuals(P, alt, st, w, res, lev)
    P.phi = lagOne(P, lev, w)
    initWeights(f)
    r = gaussNewton(P, alt, st, w, res, kH, 40)
  }
  return r
}

/**
 * Winds tried as the start of the wind fit: along the road (plus the stated crosswind, which the
 * fit's steps along the road keep), or from 8 directions.
 */
function windCandidates(
  axis: [number, number] | null,
  cross: [number, number] | null,
): Array<[number, number]> {
  const out: Array<[number, number]> = []
  if (axis) {
    const [cE, cN] = cross ?? [0, 0]
    for (let u = -WIND_GRID_MAX_MPS; u <= WIND_GRID_MAX_MPS; u += 1)
      out.push([u * axis[0] + cE, u * axis[1] + cN])
    return out
  }
  out.push([0, 0])
  for (const u of [2, 4, 6]) {
    for (let k = 0; k < 8; k++) {
      const a = (k * Math.PI) / 4
      out.push([u * Math.sin(a), u * Math.cos(a)])
    }
  }
  return out
}

/**
 * The start of the wind fit: the model is linear in CdA, Crr and the offsets for a given wind,
 * and not in the wind, whose fit from calm can run off to a far minimum (a wind of 30 m/s with
 * a negative CdA) on an out-and-back with braking at the turns. So CdA and Crr are fitted by
 * ordinary least squares at each wind of a grid, and the state starts from the grid's best.
 * Returns false when no wind of the grid gives a solvable problem.
 */
function windStart(f: VeFit): boolean {
  const { alt, w, res } = f
  const P0 = problemOf(f, false)
  let best: FitState | null = null
  let bestSse = Infinity
  for (const [wE, wN] of windCandidates(f.windAxis, f.crossWind)) {
    const st = startState(f.o, f.groups, f.segs.length, false)
    st.wE = wE
    st.wN = wN
    initWeights(f)
    // Infinite Huber constant: ordinary least squares, one step (linear at a fixed wind).
    if (gaussNewton(P0, alt, st, w, res, Infinity, 1) < 0) continue
    initWeights(f)
    const sse = residuals(P0, alt, st, w, res)
    if (sse < bestSse) {
      bestSse = sse
      best = st
    }
  }
  if (!best) return false
  f.st.cda.set(best.cda)
  f.st.crr = best.crr
  f.st.crrShift.set(best.crrShift)
  f.st.wE = best.wE
  f.st.wN = best.wN
  return true
}

/** Fits again from the start with the current choice of free parameters. */
function refit(f: VeFit): number {
  f.P = problemOf(f, f.windOn)
  f.st = startState(f.o, f.groups, f.segs.length, f.windOn)
  return fitAll(f)
}

/**
 * The fit, redone without wind when the fitted wind is implausible, and with Crr held at
 * FALLBACK_CRR when it cannot be separated from CdA or comes out implausible.
 */
function fitWithFallbacks(f: VeFit): number {
  const windy = () => !(Math.hypot(f.st.wE, f.st.wN) <= MAX_FITTED_WIND_MPS)
  let it = fitAll(f)
  if (f.windOn && it >= 0 && windy()) {
    f.warnings.push(
      `fitted wind ${Math.hypot(f.st.wE, f.st.wN).toFixed(1)} m/s is implausible: fitted without wind`,
    )
    f.windOn = false
    it = refit(f)
  }
  const implausible =
    f.crrFree && it >= 0 && !(f.st.crr >= CRR_RANGE[0] && f.st.crr <= CRR_RANGE[1])
  if (f.crrFree && (it < 0 || implausible)) {
    f.warnings.push(
      implausible
        ? `fitted Crr ${f.st.crr.toFixed(4)} is implausible (too little speed variation): held at ${FALLBACK_CRR}`
        : `Crr could not be separated from CdA (too little speed variation): held at ${FALLBACK_CRR}`,
    )
    f.crrFree = false
    it = refit(f)
    if (f.windOn && it >= 0 && windy()) {
      f.windOn = false
      it = refit(f)
    }
  }
  return it
}

/** The fit's level residuals (measured − virtual elevation) back in sample indices, and sums. */
interface FitSummary {
  /** Samples with an elevation, and their sum of squared residuals (all and per piece). */
  n: number
  ss: number
  pieceSs: Float64Array
  pieceN: Float64Array
  residuals: Float64Array
  /** Each piece's first segment's elevation offset. */
  offsets: number[]
}

function fitSummary(f: VeFit, pieces: VePiece[]): FitSummary {
  let n = 0
  let ss = 0
  const pieceSs = new Float64Array(pieces.length)
  const pieceN = new Float64Array(pieces.length)
  const out = new Float64Array(f.s.n).fill(NaN)
  for (const g of f.segs) {
    for (let i = g.a, j = g.ja; i < g.b; i++, j++) {
      if (!Number.isFinite(f.alt[j])) continue
      const r = f.lev[j]!
      out[i] = r
      ss += r * r
      n++
      pieceSs[g.piece]! += r * r
      pieceN[g.piece]!++
    }
  }
  const offsets = pieces.map(() => NaN)
  f.segs.forEach((g, si) => {
    if (Number.isNaN(offsets[g.piece]!)) offsets[g.piece] = f.st.offsets[si]!
  })
  return { n, ss, pieceSs, pieceN, residuals: out, offsets }
}

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
import { modelConstants } from './ve-model.ts'
import { buildSegments, VeProblem, windIdentifiable, type FitState } from './ve-problem.ts'

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
  const mg = o.massKg * G0
  const c = modelConstants(o, o.massKg)
  const kH = o.huberK ?? 1.345
  let crrFree = o.crr === undefined
  const windId =
    (o.fitWind ?? true) ? windIdentifiable(s, segs) : { dims: 0, axis: [0, 0] as [number, number] }
  const windFree = windId.dims > 0
  const windAxis: [number, number] | null = windId.dims === 1 ? windId.axis : null
  const groupUsed = new Uint8Array(groups)
  for (const g of segs) groupUsed[g.group] = 1
  for (let g = 0; g < groups; g++) if (!groupUsed[g]) warnings.push(`group ${g}: no usable samples`)

  const emptyResult = (): VeFitResult => ({
    cda: new Array<number>(groups).fill(NaN),
    cdaCi95: Array.from({ length: groups }, () => [NaN, NaN] as [number, number]),
    crr: o.crr ?? NaN,
    crrCi95: [o.crr ?? NaN, o.crr ?? NaN],
    crrFixed: !crrFree,
    windE: 0,
    windN: 0,
    windFitted: false,
    offsets: pieces.map(() => NaN),
    segments: [],
    residuals: new Float64Array(s.n).fill(NaN),
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
  })
  if (segs.length === 0) {
    warnings.push('no usable samples (moving, with power and speed) to fit')
    return emptyResult()
  }

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
  const w = new Float64Array(m)
  const res = new Float64Array(m)
  let windOn = windFree
  const initWeights = (): void => {
    for (let j = 0; j < m; j++) w[j] = Number.isFinite(alt[j]) ? 1 : 0
  }
  const start = (): FitState => ({
    cda: new Float64Array(groups).fill(0.3),
    crr: o.crr ?? FALLBACK_CRR,
    wE: windOn ? 0 : (o.windE ?? 0),
    wN: windOn ? 0 : (o.windN ?? 0),
    offsets: new Float64Array(segs.length),
  })
  let P = new VeProblem(segs, groups, c.fw, crrFree, windOn, base)
  P.axis = windAxis
  let st = start()
  const lev = new Float64Array(m)
  const gls = o.gls ?? true
  // Ordinary least squares without wind first (a good start), with wind, then GLS with the AR(1)
  // coefficient of the residuals (Cochrane–Orcutt, two rounds).
  const fitAll = (): number => {
    P.phi = 0
    initWeights()
    if (windOn) {
      const P0 = new VeProblem(segs, groups, c.fw, crrFree, false, base)
      if (gaussNewton(P0, alt, st, w, res, kH, 6) < 0) return -1
      initWeights()
    }
    let r = gaussNewton(P, alt, st, w, res, kH, 40)
    // Elevation spikes (GPS): samples far off the first fit's profile are ignored.
    if (r >= 0 && s.elevation) {
      residuals(P, alt, st, w, res, lev)
      const dev: number[] = []
      for (let j = 0; j < m; j++) if (Number.isFinite(alt[j])) dev.push(lev[j]!)
      const mid = median(dev)
      const mad = median(dev.map((x) => Math.abs(x - mid)))
      const cut = Math.max(SPIKE_MIN_M, SPIKE_MADS * 1.4826 * mad)
      let spikes = 0
      for (let j = 0; j < m; j++) {
        if (Number.isFinite(alt[j]) && Math.abs(lev[j]! - mid) > cut) {
          alt[j] = NaN
          spikes++
        }
      }
      if (spikes > 0) {
        warnings.push(
          `${spikes} elevation samples more than ${cut.toFixed(1)} m off the profile ignored`,
        )
        initWeights()
        r = gaussNewton(P, alt, st, w, res, kH, 40)
      }
    }
    for (let round = 0; gls && r >= 0 && round < 2; round++) {
      residuals(P, alt, st, w, res, lev)
      P.phi = lagOne(P, lev, w)
      initWeights()
      r = gaussNewton(P, alt, st, w, res, kH, 40)
    }
    return r
  }
  const refit = (): number => {
    P = new VeProblem(segs, groups, c.fw, crrFree, windOn, base)
    P.axis = windAxis
    st = start()
    return fitAll()
  }
  let it = fitAll()
  if (windOn && it >= 0 && !(Math.hypot(st.wE, st.wN) <= MAX_FITTED_WIND_MPS)) {
    warnings.push(
      `fitted wind ${Math.hypot(st.wE, st.wN).toFixed(1)} m/s is implausible: fitted without wind`,
    )
    windOn = false
    it = refit()
  }
  const implausible = crrFree && it >= 0 && !(st.crr >= CRR_RANGE[0] && st.crr <= CRR_RANGE[1])
  if (crrFree && (it < 0 || implausible)) {
    warnings.push(
      implausible
        ? `fitted Crr ${st.crr.toFixed(4)} is implausible (too little speed variation): held at ${FALLBACK_CRR}`
        : `Crr could not be separated from CdA (too little speed variation): held at ${FALLBACK_CRR}`,
    )
    crrFree = false
    it = refit()
    if (windOn && it >= 0 && !(Math.hypot(st.wE, st.wN) <= MAX_FITTED_WIND_MPS)) {
      windOn = false
      it = refit()
    }
  }
  if (it < 0) {
    warnings.push('CdA could not be fitted (the data do not determine it)')
    return emptyResult()
  }
  residuals(P, alt, st, w, res, lev)

  // Summary of the fit (level residuals: measured − virtual elevation), back in sample indices.
  let n = 0
  let ss = 0
  const pieceSs = new Float64Array(pieces.length)
  const pieceN = new Float64Array(pieces.length)
  const residOut = new Float64Array(s.n).fill(NaN)
  for (const g of segs) {
    for (let i = g.a, j = g.ja; i < g.b; i++, j++) {
      if (!Number.isFinite(alt[j])) continue
      const r = lev[j]!
      residOut[i] = r
      ss += r * r
      n++
      pieceSs[g.piece]! += r * r
      pieceN[g.piece]!++
    }
  }
  const offsets = pieces.map(() => NaN)
  segs.forEach((g, si) => {
    if (Number.isNaN(offsets[g.piece]!)) offsets[g.piece] = st.offsets[si]!
  })

  const iv = fitIntervals({
    s,
    o,
    P,
    base,
    segs,
    groups,
    alt,
    w,
    res,
    lev,
    st,
    kH,
    n,
    crrFree,
    windOn,
    fw: c.fw,
  })

  return {
    cda: Array.from(st.cda, (x, g) => (groupUsed[g] ? x : NaN)),
    cdaCi95: iv.cdaCi95,
    crr: st.crr,
    crrCi95: iv.crrCi95,
    crrFixed: !crrFree,
    windE: st.wE,
    windN: st.wN,
    windFitted: P.windFree,
    offsets,
    segments: segs.map((g, si) => ({
      start: g.a,
      end: g.b,
      piece: g.piece,
      offsetM: st.offsets[si]!,
    })),
    residuals: residOut,
    rmseM: n > 0 ? Math.sqrt(ss / n) : NaN,
    pieceRmseM: Array.from(pieceSs, (x, p) => (pieceN[p]! > 0 ? Math.sqrt(x / pieceN[p]!) : NaN)),
    samplesUsed: n,
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

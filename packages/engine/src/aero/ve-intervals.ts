// The 95 % intervals of a virtual-elevation fit: delete-a-block jackknife (default) or a
// moving-block bootstrap of the AR(1) innovations, with the fit's φ and Huber scale held.
import type { VeFitOptions, VeFitResult, VeSeries } from './types.ts'
import { createRandom, median, quantile } from './random.ts'
import { gaussNewton, huberWeights } from './ve-gls.ts'
import { VeProblem, type FitState, type Segment } from './ve-problem.ts'

/** Jackknife standard error of leave-one-block-out estimates, and its degrees of freedom. */
function jackknifeSe(xs: number[]): [number, number] {
  const k = xs.length
  if (k < 2) return [NaN, 0]
  const mean = xs.reduce((a, b) => a + b, 0) / k
  const v = ((k - 1) / k) * xs.reduce((a, b) => a + (b - mean) ** 2, 0)
  return [Math.sqrt(v), k - 1]
}

/** Student t quantile 0.975 for `dof` degrees of freedom (table to 30, then 1.96 + 2.4/dof). */
export function tQuantile975(dof: number): number {
  const T = [
    NaN,
    12.706,
    4.303,
    3.182,
    2.776,
    2.571,
    2.447,
    2.365,
    2.306,
    2.262,
    2.228,
    2.201,
    2.179,
    2.16,
    2.145,
    2.131,
    2.12,
    2.11,
    2.101,
    2.093,
    2.086,
    2.08,
    2.074,
    2.069,
    2.064,
    2.06,
    2.056,
    2.052,
    2.048,
    2.045,
    2.042,
  ]
  if (!(dof >= 1)) return NaN
  return dof <= 30 ? T[Math.floor(dof)]! : 1.96 + 2.4 / dof
}

/** Work arrays of the refits (elevation, weights, innovations) and a copy of the fit's state. */
function scratch(st: FitState, m: number) {
  const st2: FitState = {
    ...st,
    cda: Float64Array.from(st.cda),
    crrShift: Float64Array.from(st.crrShift),
    offsets: Float64Array.from(st.offsets),
  }
  return { alt2: new Float64Array(m), w2: new Float64Array(m), res2: new Float64Array(m), st2 }
}

/** What the interval step needs of a finished fit. */
export interface IntervalContext {
  s: VeSeries
  o: VeFitOptions
  /** The fitted problem, and the base it shares its cumulative series with. */
  P: VeProblem
  base: VeProblem
  segs: Segment[]
  groups: number
  /** Elevation per fit position (NaN: ignored), the weights, innovations and level residuals. */
  alt: Float64Array
  w: Float64Array
  res: Float64Array
  lev: Float64Array
  st: FitState
  kH: number
  /** Samples with an elevation. */
  n: number
  crrFree: boolean
  windOn: boolean
  fw: number
}

export type FitIntervals = Pick<
  VeFitResult,
  | 'cdaCi95'
  | 'crrCi95'
  | 'crrShiftCi95'
  | 'crrGroupCi95'
  | 'cdaSe'
  | 'cdaSeOwn'
  | 'cdaDof'
  | 'crrSe'
  | 'crrDof'
  | 'blocks'
  | 'bootstrapCda'
  | 'bootstrapCrr'
>

/** The intervals (and standard errors, session blocks, bootstrap replicates) of a fit. */
export function fitIntervals(x: IntervalContext): FitIntervals {
  const { o, groups, st, n, crrFree } = x
  const B = o.resamples ?? 200
  const out: FitIntervals = {
    cdaCi95: [],
    crrCi95: [st.crr, st.crr],
    crrShiftCi95: Array.from(st.crrShift, () => [NaN, NaN] as [number, number]),
    crrGroupCi95: Array.from(st.crrShift, () => [NaN, NaN] as [number, number]),
    cdaSe: new Array<number>(groups).fill(NaN),
    cdaSeOwn: new Array<number>(groups).fill(NaN),
    blocks: [],
    cdaDof: new Array<number>(groups).fill(0),
    crrSe: crrFree ? NaN : 0,
    crrDof: 0,
    bootstrapCda: Array.from({ length: groups }, () => new Float64Array(B).fill(NaN)),
    bootstrapCrr: new Float64Array(B).fill(NaN),
  }
  const interval = o.interval ?? 'jackknife'
  if (B > 0 && n > 10 && interval === 'jackknife') jackknifeIntervals(x, out)
  else if (B > 0 && n > 10) bootstrapIntervals(x, out, B)
  else {
    for (let g = 0; g < groups; g++) out.cdaCi95.push([NaN, NaN])
    if (crrFree) out.crrCi95 = [NaN, NaN]
  }
  return out
}

/** What the jackknife's refits share: the held Huber scale, block length, work arrays, positions. */
interface Jackknife extends ReturnType<typeof scratch> {
  scale: number
  /** Samples per block (≈ `blockS` seconds). */
  blockLen: number
  /** Fit positions with an elevation, per group and all in order. */
  byGroup: number[][]
  all: Int32Array
}

/**
 * Delete-a-block jackknife: contiguous blocks of ≈ blockS seconds (at least 4, at most 20 per
 * group) are left out in turn and the fit is repeated (φ and the Huber scale held); variance
 * (G − 1)/G·Σ(θ₋ₖ − θ̄)², interval θ̂ ± t(0.975, G − 1)·SE.
 */
function jackknifeIntervals(x: IntervalContext, out: FitIntervals): void {
  const { s, o, P, segs, groups, alt, res, st, kH, crrFree } = x
  const scale = huberWeights(P, alt, res, kH, new Float64Array(P.m))
  const medDt = median(s.dt.subarray(1)) || 1
  const blockLen = Math.max(1, Math.round((o.blockS ?? 120) / medDt))
  const byGroup: number[][] = Array.from({ length: groups }, () => [])
  for (const g of segs)
    for (let j = g.ja; j < g.jb; j++) if (Number.isFinite(alt[j])) byGroup[g.group]!.push(j)
  const all = Int32Array.from(byGroup.flat().sort((p, q) => p - q))
  const jk: Jackknife = { ...scratch(st, P.m), scale, blockLen, byGroup, all }
  if (crrFree || groups === 1 || o.sessionBlocks || x.windOn) sessionJackknife(x, jk, out)
  for (let g = 0; groups > 1 && g < groups; g++) groupJackknife(x, jk, g, out)
  out.cdaSeOwn.splice(0, groups, ...out.cdaSe)
  carryCrrUncertainty(x, jk, out)
  for (let g = 0; g < groups; g++) {
    const hw = tQuantile975(out.cdaDof[g]!) * out.cdaSe[g]!
    out.cdaCi95.push([st.cda[g]! - hw, st.cda[g]! + hw])
  }
  if (crrFree) {
    const hw = tQuantile975(out.crrDof) * out.crrSe
    out.crrCi95 = [st.crr - hw, st.crr + hw]
  }
}

const blocksOf = (count: number, blockLen: number): number =>
  Math.max(4, Math.min(20, Math.round(count / blockLen)))

/**
 * Session blocks over all the samples: Crr's (and with one group CdA's) interval, and the
 * replicates of every group's CdA. With Crr and wind held and `o.sessionBlocks` given, replicate
 * k refits all the data with the session's block-k Crr and wind: the spread of derived
 * quantities (ΔCdA) over them is the shared parameters' share of their variance.
 */
function sessionJackknife(x: IntervalContext, jk: Jackknife, out: FitIntervals): void {
  const { o, P, alt, w, st, kH, crrFree, groups } = x
  const { all, alt2, w2, res2, st2, scale } = jk
  const held = o.sessionBlocks
  const G = blocksOf(all.length, jk.blockLen)
  const crrs: number[] = []
  const cdas: number[] = []
  const shifts: number[][] = Array.from(st.crrShift, () => [])
  for (let k = 0; k < G; k++) {
    const lo = Math.floor((k * all.length) / G)
    const hi = Math.floor(((k + 1) * all.length) / G)
    const hb = held && held.length === G ? held[k]! : null
    alt2.set(alt)
    // Held replicates keep all the data: they carry only the shared parameters' variation
    // (each run's own error is in its per-group interval).
    if (!hb) for (let q = lo; q < hi; q++) alt2[all[q]!] = NaN
    st2.cda.set(st.cda)
    st2.crr = hb && !crrFree ? hb.crr : st.crr
    st2.crrShift.set(st.crrShift)
    st2.wE = hb && !P.windFree ? hb.windE : st.wE
    st2.wN = hb && !P.windFree ? hb.windN : st.wN
    w2.set(w)
    if (gaussNewton(P, alt2, st2, w2, res2, kH, P.windFree ? 6 : 4, scale) < 0) continue
    crrs.push(st2.crr)
    cdas.push(st2.cda[0]!)
    st2.crrShift.forEach((x, c) => shifts[c]!.push(x))
    out.blocks.push({ cda: Float64Array.from(st2.cda), crr: st2.crr, windE: st2.wE, windN: st2.wN })
  }
  if (crrFree) [out.crrSe, out.crrDof] = jackknifeSe(crrs)
  for (let c = 1; crrFree && P.crrShifts > 0 && c < shifts.length; c++) {
    const [se, dof] = jackknifeSe(shifts[c]!)
    const hw = tQuantile975(dof) * se
    out.crrShiftCi95[c] = [st.crrShift[c]! - hw, st.crrShift[c]! + hw]
    const [seC, dofC] = jackknifeSe(shifts[c]!.map((x, b) => x + crrs[b]!))
    const hwC = tQuantile975(dofC) * seC
    const crr = st.crr + st.crrShift[c]!
    out.crrGroupCi95[c] = [crr - hwC, crr + hwC]
  }
  if (groups === 1) [out.cdaSe[0], out.cdaDof[0]] = jackknifeSe(cdas)
}

/** Group g's CdA: its own samples left out block by block. */
function groupJackknife(x: IntervalContext, jk: Jackknife, g: number, out: FitIntervals): void {
  const { P, base, segs, groups, alt, w, st, kH, fw } = x
  const { alt2, w2, res2, st2, scale } = jk
  const pos = Int32Array.from(jk.byGroup[g]!)
  if (pos.length < 8) return
  const G = blocksOf(pos.length, jk.blockLen)
  const cdas: number[] = []
  // With Crr and wind held, the groups share nothing: refit only this group's segments.
  let Q = P
  if (!P.crrFree && !P.windFree) {
    Q = new VeProblem(
      segs.filter((sg) => sg.group === g),
      groups,
      fw,
      false,
      false,
      base,
    )
    Q.phi = P.phi
  }
  for (let k = 0; k < G; k++) {
    const lo = Math.floor((k * pos.length) / G)
    const hi = Math.floor(((k + 1) * pos.length) / G)
    alt2.set(alt)
    for (let q = lo; q < hi; q++) alt2[pos[q]!] = NaN
    st2.cda.set(st.cda)
    st2.crr = st.crr
    st2.crrShift.set(st.crrShift)
    st2.wE = st.wE
    st2.wN = st.wN
    w2.set(w)
    if (!(gaussNewton(Q, alt2, st2, w2, res2, kH, Q.windFree ? 6 : 4, scale) >= 0)) continue
    cdas.push(st2.cda[g]!)
  }
  ;[out.cdaSe[g], out.cdaDof[g]] = jackknifeSe(cdas)
}

/** A fixed Crr's own uncertainty (from an earlier fit) carried into CdA by the sensitivity. */
function carryCrrUncertainty(x: IntervalContext, jk: Jackknife, out: FitIntervals): void {
  const { o, P, groups, alt, w, st, kH, crrFree } = x
  const { alt2, w2, res2, st2, scale } = jk
  if (crrFree || o.crrSe === undefined || !(o.crrSe > 0)) return
  const h = Math.max(1e-5, o.crrSe)
  alt2.set(alt)
  st2.cda.set(st.cda)
  st2.crr = st.crr + h
  st2.crrShift.set(st.crrShift)
  st2.wE = st.wE
  st2.wN = st.wN
  w2.set(w)
  if (gaussNewton(P, alt2, st2, w2, res2, kH, P.windFree ? 6 : 4, scale) >= 0) {
    for (let g = 0; g < groups; g++) {
      const dc = ((st2.cda[g]! - st.cda[g]!) / h) * o.crrSe
      out.cdaSe[g] = Math.sqrt(out.cdaSe[g]! ** 2 + dc * dc)
    }
  }
}

/**
 * Moving-block bootstrap of the innovations (interval: 'bootstrap'), turned back into AR(1)
 * elevation errors around the fitted profile, refitted with φ and the Huber scale held.
 */
function bootstrapIntervals(x: IntervalContext, out: FitIntervals, B: number): void {
  const { s, o, P, segs, groups, alt, w, res, lev, st, kH, n, crrFree } = x
  const m = P.m
  const bootCda = out.bootstrapCda
  const bootCrr = out.bootstrapCrr
  const scale = huberWeights(P, alt, res, kH, new Float64Array(m))
  const pool = new Float64Array(n)
  let np = 0
  for (let j = 0; j < m; j++) if (Number.isFinite(alt[j])) pool[np++] = res[j]!
  // Inflate for the parameters and offsets the fit used up.
  const infl = Math.sqrt(n / Math.max(1, n - P.k - segs.length))
  const medDt = median(s.dt.subarray(1))
  const L = Math.max(1, Math.min(np, Math.round((o.blockS ?? 30) / (medDt > 0 ? medDt : 1))))
  const rand = createRandom(o.seed ?? 1)
  const phi = P.phi
  const first = 1 / Math.sqrt(1 - phi * phi)
  const fitted = new Float64Array(m)
  for (let j = 0; j < m; j++) fitted[j] = alt[j]! - lev[j]!
  const { alt2, w2, res2, st2 } = scratch(st, m)
  for (let b = 0; b < B; b++) {
    for (const g of segs) {
      let k = 0
      let left = 0
      let e = NaN
      for (let j = g.ja; j < g.jb; j++) {
        if (!Number.isFinite(alt[j])) {
          alt2[j] = NaN
          e = NaN
          continue
        }
        if (left === 0) {
          k = Math.floor(rand() * (np - L + 1))
          left = L
        }
        const innov = infl * pool[k++]!
        left--
        e = Number.isFinite(e) ? phi * e + innov : first * innov
        alt2[j] = fitted[j]! + e
      }
    }
    st2.cda.set(st.cda)
    st2.crr = !crrFree && o.crrReplicates ? o.crrReplicates[b % o.crrReplicates.length]! : st.crr
    st2.crrShift.set(st.crrShift)
    st2.wE = st.wE
    st2.wN = st.wN
    w2.set(w)
    if (gaussNewton(P, alt2, st2, w2, res2, kH, P.windFree ? 3 : 2, scale) < 0) continue
    for (let g = 0; g < groups; g++) bootCda[g]![b] = st2.cda[g]!
    bootCrr[b] = st2.crr
  }
  for (let g = 0; g < groups; g++) {
    out.cdaCi95.push([quantile(bootCda[g]!, 0.025), quantile(bootCda[g]!, 0.975)])
  }
  if (crrFree) out.crrCi95 = [quantile(bootCrr, 0.025), quantile(bootCrr, 0.975)]
}

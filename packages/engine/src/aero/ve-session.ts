// The virtual-elevation fit of a field test's runs, in two stages. 1: one CdA per configuration
// (repeats share it), with the session's Crr and wind; 2: one CdA per run with that Crr and wind,
// each bootstrap replicate using the matching replicate of stage 1's Crr so the runs' intervals
// carry its uncertainty.
import type { AeroAnalysisInput, VeFitResult, VePiece, VeSeries } from './types.ts'
import type { ResolvedRun } from './analyze-runs.ts'
import { G0, MARTIN } from '../physics/constants.ts'
import { FALLBACK_CRR, fitVirtualElevation } from './ve.ts'

/** A fitted Crr whose 95 % half-width exceeds this is not believed (held at FALLBACK_CRR). */
const MAX_CRR_HALF_WIDTH = 0.002
/**
 * The crosswind an out-and-back's Crr interval allows for when no wind is stated, m/s, and the
 * uncertainty of a stated wind (speed, relative; direction, degrees): docs/engine/aero.md,
 * "Crosswind".
 */
export const UNSEEN_CROSSWIND_MPS = 3
const STATED_SPEED_ERROR = 0.25
const STATED_DIRECTION_ERROR_DEG = 20

/** Settings every fit of the analysis shares. */
export interface FitSettings {
  massKg: number
  drivetrainEfficiency: number
  /** The samples the fit uses (1) and leaves out (0). */
  mask: Uint8Array
  resamples: number
  seed: number
}

export interface SessionFit {
  /** Stage 1: per configuration, with the session's Crr and wind. */
  session: VeFitResult
  /** The configurations in stage 1's group order. */
  configs: string[]
  /** Stage 2: per run (group k = run k). */
  fit: VeFitResult
  /** Index of each run's first piece in stage 2's pieces. */
  firstPiece: number[]
  /** The runs' Crr: given, fitted, or FALLBACK_CRR. */
  crr: number
  /** Why the runs' Crr has no interval (null: fitted, with its interval). */
  crrHeld: string | null
  /** The tyres of the rolling-resistance groups, the first run's first (one, '', without tyres). */
  tyres: string[]
  /** Each run's rolling-resistance group (index into `tyres`). */
  tyreOf: number[]
}

/** The runs' pieces, each in the group `group(k)` of its run k. */
function piecesBy(
  runs: ResolvedRun[],
  group: (k: number) => number,
  crrGroup: (k: number) => number,
): { pieces: VePiece[]; first: number[] } {
  const pieces: VePiece[] = []
  const first: number[] = []
  runs.forEach((r, k) => {
    first.push(pieces.length)
    for (const [a, b] of r.pieces)
      pieces.push({ start: a, end: b, group: group(k), crrGroup: crrGroup(k) })
  })
  return { pieces, first }
}

export function fitSession(
  series: VeSeries,
  runs: ResolvedRun[],
  common: FitSettings,
  input: AeroAnalysisInput,
  warnings: string[],
): SessionFit {
  const configs = [...new Set(runs.map((r) => r.configuration))]
  // A Crr per tyre only where Crr is fitted: a given Crr is the session's.
  const tyres = input.crr === undefined ? [...new Set(runs.map((r) => r.spec.tyre ?? ''))] : ['']
  const tyreOf = runs.map((r) => Math.max(0, tyres.indexOf(r.spec.tyre ?? '')))
  const byTyre = (k: number) => tyreOf[k]!
  const sessionPieces = piecesBy(
    runs,
    (k) => configs.indexOf(runs[k]!.configuration),
    byTyre,
  ).pieces
  const stated = statedWindVector(input)
  const sessionFit = (crr: number | undefined) =>
    fitVirtualElevation(series, sessionPieces, {
      ...common,
      groups: configs.length,
      crr,
      crrGroups: tyres.length,
      fitWind: input.fitWind ?? true,
      ...(stated ? { statedWindE: stated[0], statedWindN: stated[1] } : {}),
    })
  let session = sessionFit(input.crr)
  let crrHeld: string | null = input.crr !== undefined ? `Crr ${input.crr} given, not fitted` : null
  // A Crr the data barely determine (runs all at one speed) would only widen every run's
  // interval: it is held at the textbook value instead, with a warning.
  const crrHalf = 0.5 * (session.crrCi95[1] - session.crrCi95[0])
  if (!session.crrFixed && crrHalf > MAX_CRR_HALF_WIDTH) {
    warnings.push(
      `virtual elevation: Crr ${session.crr.toFixed(4)} ± ${crrHalf.toFixed(4)} is not determined by the runs ` +
        `(too little speed variation): held at ${FALLBACK_CRR}; give crr for absolute CdA`,
    )
    session = sessionFit(FALLBACK_CRR)
    crrHeld = `held at ${FALLBACK_CRR}: the runs do not determine it (too little speed variation)`
  }
  if (crrHeld === null && session.crrFixed)
    crrHeld = `held at ${FALLBACK_CRR}: the runs do not determine it`
  if (!session.crrFixed && session.windAxis)
    allowForCrossWind(session, series, common, stated ? input.statedWind : undefined, warnings)
  for (const w of session.warnings) warnings.push(`virtual elevation: ${w}`)
  const { pieces, first: firstPiece } = piecesBy(runs, (k) => k, byTyre)
  const fit = fitVirtualElevation(series, pieces, {
    ...common,
    groups: runs.length,
    crr: Number.isFinite(session.crr) ? session.crr : FALLBACK_CRR,
    crrGroups: tyres.length,
    crrShifts: session.crrShift,
    crrSe: session.crrFixed ? undefined : session.crrSe,
    sessionBlocks: session.blocks,
    fitWind: false,
    windE: session.windE,
    windN: session.windN,
  })
  const crr = input.crr ?? (Number.isFinite(session.crr) ? session.crr : FALLBACK_CRR)
  return { session, configs, fit, firstPiece, crr, crrHeld, tyres, tyreOf }
}

/** The stated wind as the vector the air moves towards (east, north, m/s), or null. */
function statedWindVector(input: AeroAnalysisInput): [number, number] | null {
  const w = input.statedWind
  if (!w || !(w.speedMps >= 0) || !Number.isFinite(w.fromDeg)) return null
  const from = (w.fromDeg * Math.PI) / 180
  return [-w.speedMps * Math.sin(from), -w.speedMps * Math.cos(from)]
}

/**
 * On an out-and-back the fit sees only the wind along the road. A crosswind c acts on both legs
 * alike: its drag, ½ρ(CdA + Fw)·(|Va|·v − v²) ≈ ρ(CdA + Fw)·c²/4, barely depends on the speed and
 * reads as rolling resistance. With a stated wind its crosswind is in the fit, and Crr's interval
 * is widened by what the stated wind's own uncertainty could change; without one, it is widened
 * down by what a crosswind of UNSEEN_CROSSWIND_MPS would add, and a warning says so.
 */
function allowForCrossWind(
  session: VeFitResult,
  series: VeSeries,
  common: FitSettings,
  stated: AeroAnalysisInput['statedWind'],
  warnings: string[],
): void {
  let rho = 0
  let n = 0
  for (let i = 0; i < series.n; i++) {
    if (series.valid[i] === 1 && Number.isFinite(series.rho[i])) {
      rho += series.rho[i]!
      n++
    }
  }
  const cdas = session.cda.filter((x) => Number.isFinite(x))
  if (n === 0 || cdas.length === 0 || !session.windAxis) return
  const cda = cdas.reduce((a, b) => a + b, 0) / cdas.length
  // Crr per (m/s)² of crosswind.
  const perC2 = ((rho / n) * (cda + MARTIN.spokeDragAreaM2)) / (4 * common.massKg * G0)
  const [lo, hi] = session.crrCi95
  if (!stated) {
    const c = UNSEEN_CROSSWIND_MPS
    const bias = perC2 * c * c
    session.crrCi95 = [lo - bias, hi]
    session.crrGroupCi95 = session.crrGroupCi95.map(([a, b]) => [a - bias, b])
    warnings.push(
      `virtual elevation: Crr ${session.crr.toFixed(4)} includes the drag of any crosswind, which an ` +
        `out-and-back cannot see (a ${c} m/s crosswind reads as +${bias.toFixed(4)}); its interval ` +
        `allows for that: state the wind to separate them`,
    )
    return
  }
  const [cMin, c, cMax] = crossWindRange(stated, session.windAxis)
  const widen = ([a, b]: [number, number]): [number, number] => [
    a - perC2 * (cMax * cMax - c * c),
    b + perC2 * (c * c - cMin * cMin),
  ]
  session.crrCi95 = widen([lo, hi])
  session.crrGroupCi95 = session.crrGroupCi95.map(widen)
}

/** The stated wind's component across the road: at its least, as stated, and at its most. */
function crossWindRange(
  stated: { speedMps: number; fromDeg: number },
  axis: [number, number],
): [number, number, number] {
  const road = Math.atan2(axis[0], axis[1])
  const cross = (speed: number, fromDeg: number) =>
    speed * Math.abs(Math.sin((fromDeg * Math.PI) / 180 - road))
  const c = cross(stated.speedMps, stated.fromDeg)
  let cMin = c
  let cMax = c
  for (const ds of [-1, 0, 1]) {
    for (let dd = -STATED_DIRECTION_ERROR_DEG; dd <= STATED_DIRECTION_ERROR_DEG; dd += 5) {
      const x = cross(stated.speedMps * (1 + ds * STATED_SPEED_ERROR), stated.fromDeg + dd)
      cMin = Math.min(cMin, x)
      cMax = Math.max(cMax, x)
    }
  }
  return [cMin, c, cMax]
}

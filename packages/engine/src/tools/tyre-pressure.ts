import {
  optionalBoolean,
  optionalChoice,
  optionalNumber,
  requireChoice,
  requireNumber,
  requireObject,
  ToolInputError,
} from './validate.ts'

/**
 * Tyre-pressure recommendation — our model, not SILCA's, Zipp's or ENVE's (their algorithms are
 * not public). Basis: Frank Berto's 15 % tyre-drop data as curve-fitted by BikeTinker and
 * reproduced in dgabbe/btpress (docs/engine/science.md §7.1), taken at the MEAN wheel load (half the system
 * mass), then
 *  - lifted by CALIBRATION_FACTOR to the level of the established calculators, and
 *  - split front/rear by (2·share)^SPLIT_EXPONENT instead of by the static load itself,
 * then multiplied by factors for surface, wet roads, tyre/rim type and speed whose magnitudes are
 * our assumptions (docs/engine/science.md §7.3), and capped at the hookless rim limit (ETRTO/ISO 5775: 5 bar)
 * and the tyre's printed range.
 *
 * Why not Berto per wheel on its static load: with the offset of the
 * fit (−7.17 psi) a 40/60 split gives 75 + 9 kg on a 28 mm tubeless tyre 41.9 / 66.1 psi, rear/front
 * 1.58, while SILCA, Zipp and ENVE put both tyres in the high 50s to high 60s with the rear
 * 5–15 % above the front: the front carries braking and cornering loads its static share ignores.
 *
 * Published values calibrated against (the tests check each within ANCHOR_TOLERANCE):
 *  A1 Zipp/SRAM AXS guide, reported by dropba.rs/blog/hookless-roasting: bike + kit 12 kg, 28 mm
 *     on a 23 mm internal hooked rim, dry road: the recommendation reaches 72.5 psi (rear) at a
 *     rider mass of 73 kg (85 kg system); hookless lowers it by ≈5 psi.
 *  A2 Slowtwitch, "Hookless Rim and Tire Compatibility Update" (slowtwitch.com): 200 lb system
 *     (90.7 kg), 28 mm, average pavement: SILCA's calculator "in the high-70s psi", Zipp's
 *     published data "low to mid 60s psi"; a 30 mm tyre on a Zipp 353 NSW: 56 psi average,
 *     "perhaps 54 front and 58 back" (rear/front 1.07).
 *  A3 Slowtwitch, "Update on Hookless Wheels" (2024): the hookless wheel makers' charts and
 *     calculators for 28c agree on "61 psi plus or minus", "add a pound or 2 for the rear tire and
 *     subtract same for the front on a road bike"; SILCA "more like 76 psi".
 *  A4 The calculators of SILCA, Zipp and ENVE: 75 + 9 kg, 28 mm tubeless on a 23 mm rim, normal roads: SILCA, Zipp and ENVE give
 *     both tyres in the high 50s to high 60s psi with the rear 5–15 % above the front.
 * CALIBRATION_FACTOR is the least-squares fit (in log) of A1 (rear 72.5 psi), A2 (SILCA 77.5 and
 * Zipp 63 psi means) and A4 (63 psi mean); SPLIT_EXPONENT puts the rear 10 % above the front at
 * 40/60, the middle of A4's 5–15 % (A2: 7 %, A3: 3–7 %). Gravel: no published calculator value was
 * found in the sources searched; gravel keeps the same calibration and the surface factor.
 */

export const PA_PER_PSI = 6894.757293168
export const PA_PER_BAR = 100_000
const LB_PER_KG = 1 / 0.45359237

/** Widest tyre of the fit's published table (docs/engine/science.md §7.1); wider is extrapolation. */
export const WIDEST_FITTED_MM = 40
/** ETRTO/ISO 5775 maximum for hookless (tubeless straight side) rims: 5 bar = 72.5 psi. */
export const HOOKLESS_MAX_PA = 5 * PA_PER_BAR
/** Below this we stop lowering: rim strikes and burping dominate; our practical floor. */
export const MIN_PRESSURE_PA = 1.0 * PA_PER_BAR
/** Berto's data were taken on ≈19 mm internal rims (dgabbe notes); labels refer to about that. */
export const REFERENCE_RIM_INTERNAL_MM = 19
/** Mounted width grows ≈0.4 mm per mm of extra rim internal width (industry rule of thumb). */
export const WIDTH_GAIN_PER_RIM_MM = 0.4

export const TYRE_TYPES = ['tube', 'tubeless', 'hookless'] as const
export const SURFACES = ['smooth', 'normal', 'rough', 'gravel'] as const
export const BIKE_TYPES = ['road', 'tt', 'gravel'] as const
export const WIDTH_KINDS = ['measured', 'labelled'] as const
export type TyreType = (typeof TYRE_TYPES)[number]
export type Surface = (typeof SURFACES)[number]
export type BikeType = (typeof BIKE_TYPES)[number]
export type WidthKind = (typeof WIDTH_KINDS)[number]

/** Level of the established calculators over Berto's 15 % drop at the mean wheel load (A1–A4). */
export const CALIBRATION_FACTOR = 1.16
/** Front/rear split: P_wheel ∝ (2·share)^γ; γ = ln 1.10 / ln 1.5 gives rear/front 1.10 at 40/60. */
export const SPLIT_EXPONENT = Math.log(1.1) / Math.log(1.5)
/** The published values above are matched within this relative tolerance (tests). */
export const ANCHOR_TOLERANCE = 0.06

/** Default share of the system mass on the front wheel (docs/engine/science.md §7.3: 0.40–0.45 road, 0.40 TT). */
export const DEFAULT_FRONT_SHARE: Record<BikeType, number> = { road: 0.4, tt: 0.42, gravel: 0.38 }
/** Surface factors (docs/engine/science.md §7.3: ordering supported by SILCA/Zipp behaviour; magnitudes ours). */
export const SURFACE_FACTOR: Record<Surface, number> = {
  smooth: 1.0,
  normal: 0.93,
  rough: 0.85,
  gravel: 0.8,
}
/** Wet roads: lower for grip (Zipp's guide asks dry/wet); −5 % is our assumption. */
export const WET_FACTOR = 0.95
/**
 * Tubeless runs a little lower than a tube (supple, no pinch flat): −4 % (docs/engine/science.md §7.3,
 * −3…−5 %). Hookless: Zipp's guide lowers ≈5 psi against hooked tubeless at ≈70 psi → −7 %.
 */
export const TYRE_TYPE_FACTOR: Record<TyreType, number> = {
  tube: 1.0,
  tubeless: 0.96,
  hookless: 0.93,
}

export type TyrePressureInput = {
  /** Rider mass with clothing, kg. */
  riderMassKg: number
  /** Bike plus kit (bottles, tools, shoes…), kg. */
  bikeMassKg: number
  /** Bike type, for the default front/rear split. Default "road". */
  bikeType?: BikeType
  /** Share of the system mass on the front wheel (0.3–0.6); default by bike type. */
  frontShare?: number
  /** Tyre width in mm, as measured on the rim or as printed on the tyre. */
  tyreWidthMm: number
  /** "measured" (default "labelled": estimated from the rim's internal width). */
  widthKind?: WidthKind
  /** Rim internal width in mm (corrects a labelled width). Default 19. */
  rimInternalWidthMm?: number
  tyreType: TyreType
  surface: Surface
  /** Wet roads. Default false. */
  wet?: boolean
  /** Typical riding speed, m/s (optional). */
  speedMps?: number
  /** The tyre's printed pressure range, Pa (optional). */
  tyreMinPressurePa?: number
  tyreMaxPressurePa?: number
}

export type PressureLimit = 'hookless-cap' | 'tyre-max' | 'tyre-min' | 'floor'

export type WheelPressure = {
  loadKg: number
  pressurePa: number
  bar: number
  psi: number
  /** The model's value before any cap or floor. */
  uncappedPsi: number
  limitedBy: PressureLimit | null
}

export type ToolWarning = { code: string; message: string }

export type TyrePressureResult = {
  front: WheelPressure
  rear: WheelPressure
  systemMassKg: number
  frontShare: number
  /** The width the model used (measured, or estimated from label and rim). */
  effectiveWidthMm: number
  widthSource: 'measured' | 'estimated'
  /**
   * Multipliers on the Berto value at the mean wheel load: `calibration` (CALIBRATION_FACTOR),
   * surface, wet, tyre type, speed; `total` is their product.
   */
  factors: {
    calibration: number
    surface: number
    wet: number
    tyreType: number
    speed: number
    total: number
  }
  /** Pressure at the mean wheel load (before the front/rear split), psi, uncapped. */
  meanPsi: number
  /** Uncapped rear over front pressure: ((1 − frontShare)/frontShare)^SPLIT_EXPONENT. */
  rearToFrontRatio: number
  /** Hookless only: the rider mass (kg) at which each wheel reaches the 5 bar cap. */
  capReachedAtRiderMassKg: { front: number; rear: number } | null
  basis: string
  assumptions: string[]
  warnings: ToolWarning[]
  /** Pressure against system mass with everything else fixed, for a small chart. */
  series: { systemMassKg: number[]; frontPa: number[]; rearPa: number[] }
}

/** The BikeTinker fit of Berto's 15 % drop data (docs/engine/science.md §7.1), psi for one wheel. */
export function bertoPsi(wheelLoadKg: number, widthMm: number): number {
  return (153.6 * wheelLoadKg * LB_PER_KG) / widthMm ** 1.5785 - 7.1685
}

/** Front/rear split of the mean-load pressure for a wheel carrying `share` of the system mass. */
export function splitFactor(share: number): number {
  return (2 * share) ** SPLIT_EXPONENT
}

/** Estimated mounted width of a tyre from its label and the rim's internal width. */
export function estimateMeasuredWidthMm(labelledMm: number, rimInternalMm: number): number {
  return labelledMm + WIDTH_GAIN_PER_RIM_MM * (rimInternalMm - REFERENCE_RIM_INTERNAL_MM)
}

/**
 * Speed factor — our assumption: faster riding loads the tyre harder in corners and on impacts;
 * +0.25 % per km/h above 30 km/h, −0.25 % per km/h below, within −3 %…+4 %; paved surfaces only.
 */
export function speedFactor(speedMps: number | undefined, surface: Surface): number {
  if (speedMps === undefined || surface === 'gravel') return 1
  return Math.min(1.04, Math.max(0.97, 1 + 0.0025 * (speedMps * 3.6 - 30)))
}

/** Validates a raw (e.g. JSON) input; throws ToolInputError with "expected X, got Y". */
export function parseTyrePressureInput(raw: unknown): TyrePressureInput {
  const o = requireObject('input', raw)
  const input: TyrePressureInput = {
    riderMassKg: requireNumber('riderMassKg', o.riderMassKg, 20, 250),
    bikeMassKg: requireNumber('bikeMassKg', o.bikeMassKg, 3, 60),
    bikeType: optionalChoice('bikeType', o.bikeType, BIKE_TYPES, 'road'),
    tyreWidthMm: requireNumber('tyreWidthMm', o.tyreWidthMm, 18, 75),
    widthKind: optionalChoice('widthKind', o.widthKind, WIDTH_KINDS, 'labelled'),
    tyreType: requireChoice('tyreType', o.tyreType, TYRE_TYPES),
    surface: requireChoice('surface', o.surface, SURFACES),
    wet: optionalBoolean('wet', o.wet, false),
  }
  const frontShare = optionalNumber('frontShare', o.frontShare, 0.3, 0.6)
  if (frontShare !== undefined) input.frontShare = frontShare
  const rim = optionalNumber('rimInternalWidthMm', o.rimInternalWidthMm, 12, 40)
  if (rim !== undefined) input.rimInternalWidthMm = rim
  const speed = optionalNumber('speedMps', o.speedMps, 0, 25)
  if (speed !== undefined) input.speedMps = speed
  const min = optionalNumber('tyreMinPressurePa', o.tyreMinPressurePa, 0.5e5, 15e5)
  if (min !== undefined) input.tyreMinPressurePa = min
  const max = optionalNumber('tyreMaxPressurePa', o.tyreMaxPressurePa, 1e5, 15e5)
  if (max !== undefined) input.tyreMaxPressurePa = max
  if (min !== undefined && max !== undefined && min >= max) {
    throw new ToolInputError(
      'tyreMinPressurePa',
      `tyreMinPressurePa: expected less than tyreMaxPressurePa (${max}), got ${min}`,
    )
  }
  return input
}

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits

export function recommendTyrePressure(raw: TyrePressureInput | unknown): TyrePressureResult {
  const input = parseTyrePressureInput(raw)
  const bikeType = input.bikeType ?? 'road'
  const frontShare = input.frontShare ?? DEFAULT_FRONT_SHARE[bikeType]
  const systemMassKg = input.riderMassKg + input.bikeMassKg
  const rimMm = input.rimInternalWidthMm ?? REFERENCE_RIM_INTERNAL_MM
  const measured = input.widthKind === 'measured'
  const effectiveWidthMm = measured
    ? input.tyreWidthMm
    : estimateMeasuredWidthMm(input.tyreWidthMm, rimMm)
  const factors = {
    calibration: CALIBRATION_FACTOR,
    surface: SURFACE_FACTOR[input.surface],
    wet: input.wet ? WET_FACTOR : 1,
    tyreType: TYRE_TYPE_FACTOR[input.tyreType],
    speed: speedFactor(input.speedMps, input.surface),
    total: 1,
  }
  factors.total =
    factors.calibration * factors.surface * factors.wet * factors.tyreType * factors.speed

  /** Pressure (Pa, uncapped) of a wheel with `share` of the system mass `massKg`. */
  const uncappedPa = (massKg: number, share: number) =>
    bertoPsi(massKg / 2, effectiveWidthMm) * factors.total * splitFactor(share) * PA_PER_PSI
  const limit = (pa: number): [number, PressureLimit | null] => {
    if (input.tyreType === 'hookless' && pa > HOOKLESS_MAX_PA)
      return [HOOKLESS_MAX_PA, 'hookless-cap']
    if (input.tyreMaxPressurePa !== undefined && pa > input.tyreMaxPressurePa) {
      return [input.tyreMaxPressurePa, 'tyre-max']
    }
    if (input.tyreMinPressurePa !== undefined && pa < input.tyreMinPressurePa) {
      return [input.tyreMinPressurePa, 'tyre-min']
    }
    if (pa < MIN_PRESSURE_PA) return [MIN_PRESSURE_PA, 'floor']
    return [pa, null]
  }
  const wheel = (share: number): WheelPressure => {
    const loadKg = systemMassKg * share
    const raw = uncappedPa(systemMassKg, share)
    const [pa, limitedBy] = limit(raw)
    return {
      loadKg: round(loadKg, 2),
      pressurePa: Math.round(pa),
      bar: round(pa / PA_PER_BAR, 2),
      psi: round(pa / PA_PER_PSI, 1),
      uncappedPsi: round(raw / PA_PER_PSI, 1),
      limitedBy,
    }
  }
  const front = wheel(frontShare)
  const rear = wheel(1 - frontShare)

  // Inverse of the (linear in mass) model: the system mass at which a wheel reaches the cap.
  const capMass = (share: number) => {
    const psi = HOOKLESS_MAX_PA / PA_PER_PSI / factors.total / splitFactor(share)
    const meanLoadKg = ((psi + 7.1685) * effectiveWidthMm ** 1.5785) / (153.6 * LB_PER_KG)
    return round(2 * meanLoadKg - input.bikeMassKg, 1)
  }
  const capReachedAtRiderMassKg =
    input.tyreType === 'hookless'
      ? { front: capMass(frontShare), rear: capMass(1 - frontShare) }
      : null

  const warnings: ToolWarning[] = []
  const names = { front, rear }
  for (const [name, w] of Object.entries(names)) {
    if (w.limitedBy === 'hookless-cap') {
      warnings.push({
        code: 'hookless-cap',
        message: `${name}: the model asks for ${w.uncappedPsi} psi (${round(w.uncappedPsi / 14.5038, 2)} bar) but hookless rims are limited to 5 bar / 72.5 psi; a wider tyre would bring the pressure under the cap.`,
      })
    } else if (w.limitedBy === 'tyre-max') {
      warnings.push({
        code: 'above-tyre-max',
        message: `${name}: the model asks for ${w.uncappedPsi} psi, above the tyre's printed maximum; capped there. A wider tyre suits this load better.`,
      })
    } else if (w.limitedBy === 'tyre-min') {
      warnings.push({
        code: 'below-tyre-min',
        message: `${name}: the model asks for ${w.uncappedPsi} psi, below the tyre's printed minimum; raised to it.`,
      })
    } else if (w.limitedBy === 'floor') {
      warnings.push({
        code: 'below-floor',
        message: `${name}: the model asks for ${w.uncappedPsi} psi, below 1 bar (14.5 psi) where rim strikes are likely; raised to 1 bar. A narrower tyre suits this load better.`,
      })
    }
  }
  if (
    capReachedAtRiderMassKg &&
    front.limitedBy !== 'hookless-cap' &&
    rear.limitedBy !== 'hookless-cap' &&
    capReachedAtRiderMassKg.rear - input.riderMassKg < 10
  ) {
    warnings.push({
      code: 'hookless-cap-near',
      message: `rear: this setup reaches the 5 bar hookless limit at a rider mass of ${capReachedAtRiderMassKg.rear} kg.`,
    })
  }
  if (effectiveWidthMm > WIDEST_FITTED_MM) {
    warnings.push({
      code: 'wide-tyre-extrapolated',
      message: `the Berto fit comes from road tyres; at ${round(effectiveWidthMm, 1)} mm it is extrapolated and reads low at light loads (the front especially): treat it as a lower bound.`,
    })
  }
  if (input.tyreType === 'hookless' && effectiveWidthMm < 25) {
    warnings.push({
      code: 'hookless-narrow-tyre',
      message: `hookless rims need tyres of at least 25 mm (ETRTO); the tyre is about ${round(effectiveWidthMm, 1)} mm wide.`,
    })
  }

  const series = { systemMassKg: [] as number[], frontPa: [] as number[], rearPa: [] as number[] }
  const low = Math.max(30, Math.floor((systemMassKg - 40) / 5) * 5)
  for (let m = low; m <= low + 80; m += 5) {
    series.systemMassKg.push(m)
    series.frontPa.push(Math.round(limit(uncappedPa(m, frontShare))[0]))
    series.rearPa.push(Math.round(limit(uncappedPa(m, 1 - frontShare))[0]))
  }

  return {
    front,
    rear,
    systemMassKg: round(systemMassKg, 2),
    frontShare,
    effectiveWidthMm: round(effectiveWidthMm, 1),
    widthSource: measured ? 'measured' : 'estimated',
    factors: {
      calibration: factors.calibration,
      surface: factors.surface,
      wet: factors.wet,
      tyreType: factors.tyreType,
      speed: round(factors.speed, 4),
      total: round(factors.total, 4),
    },
    meanPsi: round(uncappedPa(systemMassKg, 0.5) / PA_PER_PSI, 1),
    rearToFrontRatio: round(splitFactor(1 - frontShare) / splitFactor(frontShare), 3),
    capReachedAtRiderMassKg,
    basis: `Our model: Berto's 15 % tyre-drop curve (BikeTinker fit, P = 153.6·L/W^1.5785 − 7.1685 psi, L in lb, W in mm) at the mean wheel load, ×${CALIBRATION_FACTOR} to the level of SILCA, Zipp and ENVE, split front/rear by (2·share)^${round(SPLIT_EXPONENT, 3)} (rear ≈10 % above the front at 40/60), scaled for surface, wet roads, tyre type and speed.`,
    assumptions: [
      `front/rear split ${Math.round(frontShare * 100)}/${Math.round((1 - frontShare) * 100)}${input.frontShare === undefined ? ` (default for ${bikeType})` : ''}`,
      measured
        ? `measured width ${input.tyreWidthMm} mm`
        : `labelled ${input.tyreWidthMm} mm on a ${rimMm} mm internal rim ≈ ${round(effectiveWidthMm, 1)} mm mounted (+0.4 mm per mm of rim over 19 mm)`,
      `surface ×${factors.surface} (${input.surface}), wet ×${factors.wet}, ${input.tyreType} ×${factors.tyreType}, speed ×${round(factors.speed, 3)}: factor magnitudes are our assumptions`,
      `level ×${CALIBRATION_FACTOR} fitted to published SILCA and Zipp values for 28 mm road tyres (within ±${ANCHOR_TOLERANCE * 100} %); SILCA reads ≈15 % above Zipp and ENVE, and we sit between them`,
      'the Berto fit was made on ≈19 mm internal rims; expect ±10–15 % between calculators',
    ],
    warnings,
    series,
  }
}

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
 * Tyre-pressure recommendation — our model, not SILCA's or Zipp's (their algorithms are not
 * public). Basis: Frank Berto's 15 % tyre-drop data as curve-fitted by BikeTinker and reproduced
 * in dgabbe/btpress (science.md §7.1), per wheel, then multiplied by factors for surface, wet
 * roads, tyre/rim type and speed whose magnitudes are our assumptions (science.md §7.3), and
 * capped at the hookless rim limit (ETRTO/ISO 5775: 5 bar) and the tyre's printed range.
 */

export const PA_PER_PSI = 6894.757293168
export const PA_PER_BAR = 100_000
const LB_PER_KG = 1 / 0.45359237

/** Widest tyre of the fit's published table (science.md §7.1); wider is extrapolation. */
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

/** Default share of the system mass on the front wheel (science.md §7.3: 0.40–0.45 road, 0.40 TT). */
export const DEFAULT_FRONT_SHARE: Record<BikeType, number> = { road: 0.4, tt: 0.42, gravel: 0.38 }
/** Surface factors (science.md §7.3: ordering supported by SILCA/Zipp behaviour; magnitudes ours). */
export const SURFACE_FACTOR: Record<Surface, number> = {
  smooth: 1.0,
  normal: 0.93,
  rough: 0.85,
  gravel: 0.8,
}
/** Wet roads: lower for grip (Zipp's guide asks dry/wet); −5 % is our assumption. */
export const WET_FACTOR = 0.95
/**
 * Tubeless runs a little lower than a tube (supple, no pinch flat): −4 % (science.md §7.3,
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
  factors: { surface: number; wet: number; tyreType: number; speed: number; total: number }
  /** Hookless only: the rider mass (kg) at which each wheel reaches the 5 bar cap. */
  capReachedAtRiderMassKg: { front: number; rear: number } | null
  basis: string
  assumptions: string[]
  warnings: ToolWarning[]
  /** Pressure against system mass with everything else fixed, for a small chart. */
  series: { systemMassKg: number[]; frontPa: number[]; rearPa: number[] }
}

/** The BikeTinker fit of Berto's 15 % drop data (science.md §7.1), psi for one wheel. */
export function bertoPsi(wheelLoadKg: number, widthMm: number): number {
  return (153.6 * wheelLoadKg * LB_PER_KG) / widthMm ** 1.5785 - 7.1685
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
    surface: SURFACE_FACTOR[input.surface],
    wet: input.wet ? WET_FACTOR : 1,
    tyreType: TYRE_TYPE_FACTOR[input.tyreType],
    speed: speedFactor(input.speedMps, input.surface),
    total: 1,
  }
  factors.total = factors.surface * factors.wet * factors.tyreType * factors.speed

  const uncappedPa = (loadKg: number) =>
    bertoPsi(loadKg, effectiveWidthMm) * factors.total * PA_PER_PSI
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
  const wheel = (loadKg: number): WheelPressure => {
    const raw = uncappedPa(loadKg)
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
  const front = wheel(systemMassKg * frontShare)
  const rear = wheel(systemMassKg * (1 - frontShare))

  // Inverse of the (linear in load) model: the system mass at which a wheel reaches the cap.
  const capMass = (share: number) => {
    const psi = HOOKLESS_MAX_PA / PA_PER_PSI / factors.total
    const loadKg = ((psi + 7.1685) * effectiveWidthMm ** 1.5785) / (153.6 * LB_PER_KG)
    return round(loadKg / share - input.bikeMassKg, 1)
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
    series.frontPa.push(Math.round(limit(uncappedPa(m * frontShare))[0]))
    series.rearPa.push(Math.round(limit(uncappedPa(m * (1 - frontShare)))[0]))
  }

  return {
    front,
    rear,
    systemMassKg: round(systemMassKg, 2),
    frontShare,
    effectiveWidthMm: round(effectiveWidthMm, 1),
    widthSource: measured ? 'measured' : 'estimated',
    factors: {
      surface: factors.surface,
      wet: factors.wet,
      tyreType: factors.tyreType,
      speed: round(factors.speed, 4),
      total: round(factors.total, 4),
    },
    capReachedAtRiderMassKg,
    basis:
      "Our model: Berto's 15 % tyre-drop curve (BikeTinker fit, P = 153.6·L/W^1.5785 − 7.1685 psi per wheel, L in lb, W in mm), scaled for surface, wet roads, tyre type and speed.",
    assumptions: [
      `front/rear split ${Math.round(frontShare * 100)}/${Math.round((1 - frontShare) * 100)}${input.frontShare === undefined ? ` (default for ${bikeType})` : ''}`,
      measured
        ? `measured width ${input.tyreWidthMm} mm`
        : `labelled ${input.tyreWidthMm} mm on a ${rimMm} mm internal rim ≈ ${round(effectiveWidthMm, 1)} mm mounted (+0.4 mm per mm of rim over 19 mm)`,
      `surface ×${factors.surface} (${input.surface}), wet ×${factors.wet}, ${input.tyreType} ×${factors.tyreType}, speed ×${round(factors.speed, 3)}: factor magnitudes are our assumptions`,
      'the fit was made on ≈19 mm internal rims; expect ±10–15 % between calculators',
    ],
    warnings,
    series,
  }
}

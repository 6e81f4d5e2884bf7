// The published figures behind the fuel plan (docs/engine/science.md §12): carbohydrate oxidation
// by intensity, the intake guideline by duration, fluid by air temperature, sodium per litre.

/**
 * Critical power as a fraction of the peak power of a ramp test (Wmax), the intensity scale of the
 * oxidation table. CP lies at about 75–80 % of ramp Wmax; the engine uses the middle, 0.77.
 */
export const CP_FRACTION_OF_WMAX = 0.77

/**
 * Whole-body carbohydrate oxidation of trained cyclists against intensity, van Loon, Greenhaff,
 * Constantin-Teodosiu, Saris and Wagenmakers (2001, J Physiol 536:295), three 30-min stages:
 *
 * | intensity (% Wmax) | ≈ % VO2max | CHO oxidation (g/min) |
 * |---|---|---|
 * | 40 | 44 | 0.6 |
 * | 55 | 57 | 1.2 |
 * | 75 | 72 | 2.9 |
 *
 * Between the rows the rate is interpolated linearly; below 40 % Wmax it falls in proportion to
 * power (the carbohydrate share of the energy is held at its 40 % value); above 75 % it follows
 * the 55–75 % slope up to 100 % Wmax, where it stops rising (the oxidative ceiling).
 */
export const CHO_OXIDATION_TABLE: readonly { fractionWmax: number; gPerMin: number }[] = [
  { fractionWmax: 0.4, gPerMin: 0.6 },
  { fractionWmax: 0.55, gPerMin: 1.2 },
  { fractionWmax: 0.75, gPerMin: 2.9 },
]

/** Carbohydrate oxidation (g/min) at `powerW` for a rider of critical power `cpW`. */
export function choOxidationGPerMin(powerW: number, cpW: number): number {
  const t = CHO_OXIDATION_TABLE
  const x = Math.min(Math.max(powerW, 0) / (cpW / CP_FRACTION_OF_WMAX), 1)
  const first = t[0]!
  if (x <= first.fractionWmax) return (first.gPerMin * x) / first.fractionWmax
  for (let k = 1; k < t.length; k++) {
    const hi = t[k]!
    const lo = t[k - 1]!
    if (x <= hi.fractionWmax || k === t.length - 1) {
      const slope = (hi.gPerMin - lo.gPerMin) / (hi.fractionWmax - lo.fractionWmax)
      return lo.gPerMin + slope * (x - lo.fractionWmax)
    }
  }
  return first.gPerMin // unreachable: the last row extrapolates
}

/**
 * Carbohydrate intake during exercise by its duration, Jeukendrup (2014, Sports Med 44 Suppl 1:
 * S25): under 45 min none; 45–75 min small amounts or a mouth rinse; 1–2 h up to 30 g/h; 2–3 h up
 * to 60 g/h; beyond 2.5 h up to 90 g/h of glucose and fructose together (multiple transportable
 * carbohydrates: one sugar alone is absorbed at about 60 g/h). The bands overlap in the paper; the
 * engine takes 75 min, 2 h and 2.5 h as the bounds.
 */
export const INTAKE_GUIDELINE: readonly { fromS: number; gPerH: number; advice: string }[] = [
  { fromS: 0, gPerH: 0, advice: 'none needed under 45 min' },
  { fromS: 45 * 60, gPerH: 0, advice: 'small amounts or a carbohydrate mouth rinse (45–75 min)' },
  { fromS: 75 * 60, gPerH: 30, advice: 'up to 30 g/h (1–2 h)' },
  { fromS: 2 * 3600, gPerH: 60, advice: 'up to 60 g/h (2–3 h)' },
  {
    fromS: 2.5 * 3600,
    gPerH: 90,
    advice: 'up to 90 g/h of glucose and fructose together (over 2.5 h)',
  },
]

/** The guideline band of a ride lasting `durationS`. */
export function intakeGuideline(durationS: number): (typeof INTAKE_GUIDELINE)[number] {
  let band = INTAKE_GUIDELINE[0]!
  for (const b of INTAKE_GUIDELINE) if (durationS >= b.fromS) band = b
  return band
}

/** Rides shorter than this get no feeds (Jeukendrup 2014: nothing is needed). */
export const NO_FEEDS_UNDER_S = 45 * 60

/** Above this intake one sugar alone is not absorbed: glucose and fructose (Jeukendrup 2014). */
export const SINGLE_SUGAR_MAX_G_PER_H = 60

/**
 * Fluid by air temperature within the 0.4–0.8 l/h of the ACSM position stand on exercise and
 * fluid replacement (Sawka et al. 2007, MSSE 39:377): the lower end for cool days, the upper for
 * hot ones. Sweat losses differ between riders by more than these bands: weighing before and
 * after a training ride gives one's own rate.
 */
export const FLUID_BANDS: readonly { belowC: number; band: FluidBand; mlPerH: number }[] = [
  { belowC: 15, band: 'cool', mlPerH: 400 },
  { belowC: 25, band: 'mild', mlPerH: 600 },
  { belowC: Infinity, band: 'hot', mlPerH: 800 },
]

export type FluidBand = 'cool' | 'mild' | 'hot'

/** Air temperature assumed when none is known (°C): the mild band. */
export const DEFAULT_TEMPERATURE_C = 20

export function fluidBand(temperatureC: number): (typeof FLUID_BANDS)[number] {
  return FLUID_BANDS.find((b) => temperatureC < b.belowC) ?? FLUID_BANDS[FLUID_BANDS.length - 1]!
}

/**
 * Sodium per litre of drink: ACSM 2007 (Sawka et al.) advises 20–30 meq/l (460–690 mg/l); the
 * engine uses the middle, 25 meq/l × 23 mg/meq.
 */
export const SODIUM_MG_PER_L = 575

/**
 * Carbohydrate stored as glycogen in a trained, carbohydrate-fed rider: about 400–500 g in muscle
 * and about 100 g in the liver (Jeukendrup and Gleeson, Sport Nutrition, 2nd ed. 2010). The
 * default 500 g is their sum at the lower muscle figure; a rider who loads carbohydrate for days
 * may hold more, one who trains fasted less.
 */
export const DEFAULT_GLYCOGEN_STORE_G = 500

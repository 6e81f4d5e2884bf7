// The rider's capacity along the ride: CP lowered by heat and altitude (per segment, from the air
// and the road), CP and W′ lowered by the work already done (durability). docs/engine/science.md
// §3.4 gives the sources; in short:
//   durability  CP(W) = CP·(1 − d·W/10⁶ J), W′ the same, d the fraction lost per 1,000 kJ
//               (−10.1 ± 6.5 % of 20-min power after 1,000 kJ in amateurs, 2–5 % in trained
//               riders);
//   altitude    CP·f(x), f = 0.0016x³ − 0.0157x² − 0.027x + 1.0025 (x km), capped at 1: the fit of
//               Townsend et al. "Prediction of critical power and W′ in hypoxia" used by scheibo's
//               AltitudeAdjust (300 W at 2,000 m → 270 W); W′ is not changed by hypoxia there;
//   heat        CP·(1 − k·(T − 17 °C)) above 17 °C: acclimatised k = 0.4 %/°C (a 40 km time trial
//               at 32 °C was ridden at 309 W against 329 W at 17 °C, −6 %); not acclimatised
//               k = 1.9 %/°C (a 43 km time trial at 37 °C took 17 % longer than in the cool: in
//               this model, with the thinner hot air counted, a flat 43 km ridden by the W′ plan
//               takes 17 % longer at 38 % less CP, spread over the 20 °C; test/capacity.test.ts).
// When W′ falls with durability, the W′ already spent stays spent: the balance falls with it.
import type { Course } from '../course/types.ts'
import type { Environment, ModelOptions, Rider } from './model.ts'

export const HEAT_THRESHOLD_C = 17
export const HEAT_LOSS_PER_C = { acclimatised: 0.004, unacclimatised: 0.019 } as const
/** Lowest capacity factor: a model input beyond this is outside what the sources measured. */
export const MIN_CAPACITY = 0.3

/** Townsend et al. fit (scheibo AltitudeAdjust): power at altitude over power at sea level. */
export function altitudePowerFactor(altitudeM: number): number {
  const x = Math.max(0, altitudeM) / 1000
  return 0.0016 * x ** 3 - 0.0157 * x ** 2 - 0.027 * x + 1.0025
}

/** CP factor of the heat (1 at or below 17 °C). */
export function heatPowerFactor(temperatureC: number, acclimatised: boolean): number {
  const k = acclimatised ? HEAT_LOSS_PER_C.acclimatised : HEAT_LOSS_PER_C.unacclimatised
  return Math.max(MIN_CAPACITY, 1 - k * Math.max(0, temperatureC - HEAT_THRESHOLD_C))
}

export type RiderLevel = 'well-trained' | 'trained' | 'recreational'

/**
 * The durability to plan with when the rider has not measured theirs: by level, read from CP per
 * kg (docs/engine/science.md §3.4). Amateurs lose 10.1 ± 6.5 % of their 20-minute power after
 * 1,000 kJ (Barsumyan et al. 2025); well-trained riders 2–5 %, so 3.5 % above 4.5 W/kg of CP,
 * 6 % from 3.5 W/kg, 10 % below.
 */
export function durabilityByLevel(
  cpW: number,
  massKg: number,
): { durability: number; level: RiderLevel; cpPerKg: number } {
  const cpPerKg = cpW / massKg
  if (cpPerKg >= 4.5) return { durability: 0.035, level: 'well-trained', cpPerKg }
  if (cpPerKg >= 3.5) return { durability: 0.06, level: 'trained', cpPerKg }
  return { durability: 0.1, level: 'recreational', cpPerKg }
}

/** Durability factor on CP and W′ after `workJ` of work. */
export function durabilityFactor(durability: number, workJ: number): number {
  return Math.max(MIN_CAPACITY, 1 - (durability * workJ) / 1e6)
}

/** Air temperature of each segment: the air stretch covering its middle, else the course-wide one. */
function segmentTemperatures(course: Course, env: Environment): Float64Array | null {
  const air = env.airSegments ?? []
  if (env.temperatureC === undefined && air.length === 0) return null
  const out = new Float64Array(course.n)
  let k = 0
  for (let i = 0; i < course.n; i++) {
    const mid = 0.5 * (course.start[i]! + course.start[i + 1]!)
    while (k < air.length && air[k]!.endM <= mid) k++
    const a = air[k]
    const t = a && a.startM <= mid ? a.temperatureC : env.temperatureC
    out[i] = t ?? HEAT_THRESHOLD_C
  }
  return out
}

/**
 * The static CP factor of each segment (heat × altitude), or null where neither is asked. Heat
 * needs a temperature (the environment's or its air stretches').
 */
export function staticCapacity(
  course: Course,
  rider: Rider,
  env: Environment,
  opts: ModelOptions,
): Float64Array | null {
  const temps = opts.heat ? segmentTemperatures(course, env) : null
  if (!temps && !opts.altitude) return null
  const out = new Float64Array(course.n).fill(1)
  for (let i = 0; i < course.n; i++) {
    if (temps) out[i] = heatPowerFactor(temps[i]!, rider.heatAcclimatised === true)
    if (opts.altitude) {
      const alt = 0.5 * (course.altitude[i]! + course.altitude[i + 1]!)
      out[i] = out[i]! * Math.min(1, altitudePowerFactor(alt))
    }
  }
  return out
}

/** What the model says of capacity: a static factor, durability, the optimizer's frozen work. */
export interface CapacityModel {
  readonly capacity: Float64Array | null
  readonly durability: number
  readonly workBefore: Float64Array | null
}

/** Capacity varies along the ride. */
export const capacityVaries = (m: CapacityModel): boolean => m.capacity !== null || m.durability > 0

/** Durability factor before segment i, `workJ` being the work done so far (or the frozen one). */
export function durabilityAt(m: CapacityModel, i: number, workJ: number): number {
  if (m.durability <= 0) return 1
  const frozen = m.workBefore && i < m.workBefore.length ? m.workBefore[i]! : null
  return durabilityFactor(m.durability, frozen ?? workJ)
}

export interface CapacitySummary {
  minJ: number
  finalJ: number
  exhaustedAtS: number | null
  /** CP and W′ at the finish (W, J) */
  finalCpW: number
  finalWPrimeJ: number
}

/**
 * Skiba 2015 W′ balance with CP and W′ of each interval from the capacity model (heat, altitude,
 * durability on the work done before the interval). When W′ falls, the W′ spent stays spent.
 */
export function wPrimeBalanceAlong(
  m: CapacityModel,
  power: ArrayLike<number>,
  duration: ArrayLike<number>,
  count: number,
  cpW: number,
  w0J: number,
  out: Float64Array,
): CapacitySummary {
  let w = w0J
  let min = w
  let wCap = w0J
  let work = 0
  let clock = 0
  let exhaustedAtS: number | null = null
  let cp = cpW
  for (let i = 0; i < count; i++) {
    const g = durabilityAt(m, i, work)
    cp = cpW * g * (m.capacity ? m.capacity[i]! : 1)
    w -= wCap - w0J * g
    wCap = w0J * g
    const p = power[i]!
    const t = duration[i]!
    const before = w
    w = p >= cp ? w - (p - cp) * t : wCap - (wCap - w) * Math.exp((-(cp - p) * t) / wCap)
    if (w < min) min = w
    if (exhaustedAtS === null && w <= 0 && p > cp) {
      exhaustedAtS = clock + Math.max(0, before) / (p - cp)
    }
    clock += t
    work += p * t
    out[i] = w
  }
  const g = durabilityAt(m, count, work)
  const last = m.capacity && count > 0 ? m.capacity[count - 1]! : 1
  return { minJ: min, finalJ: w, exhaustedAtS, finalCpW: cpW * g * last, finalWPrimeJ: w0J * g }
}

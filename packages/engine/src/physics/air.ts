// Air density (docs/engine/science.md §2): humid-air ideal gas with Tetens saturation pressure, the ISA
// troposphere, and the barometric formula used to vary density with altitude along a course.
import { G0 } from './constants.ts'

/** Specific gas constants (J/(kg·K)) used by jmackie/rouleur `_util.py`. */
export const R_DRY = 287.05
export const R_VAPOUR = 461.495
/** ISA constants as in scheibo/calc `Rho`. */
export const MOLAR_MASS_AIR = 0.0289644
export const R_UNIVERSAL = 8.31432
export const LAPSE_RATE = 0.0065
export const ISA_SEA_LEVEL_PA = 101325
export const ISA_SEA_LEVEL_K = 288.15
const KELVIN = 273.15
/** g·M/(R·L) = 5.2559 */
const BARO_EXPONENT = (G0 * MOLAR_MASS_AIR) / (R_UNIVERSAL * LAPSE_RATE)

/** Saturation vapour pressure over water (Pa), Tetens/Magnus form. */
export function saturationVapourPressurePa(temperatureC: number): number {
  return 610.78 * Math.pow(10, (7.5 * temperatureC) / (temperatureC + 237.3))
}

/**
 * Density of humid air (kg/m³) from temperature, STATION pressure (not sea-level QNH) and
 * relative humidity in 0..1.
 */
export function airDensity(temperatureC: number, pressurePa: number, relativeHumidity = 0): number {
  const t = temperatureC + KELVIN
  const pv = relativeHumidity * saturationVapourPressurePa(temperatureC)
  return (pressurePa - pv) / (R_DRY * t) + pv / (R_VAPOUR * t)
}

/** ISA troposphere temperature (K) at geopotential altitude h (m). */
export function isaTemperatureK(altitudeM: number): number {
  return ISA_SEA_LEVEL_K - LAPSE_RATE * altitudeM
}

/** ISA troposphere pressure (Pa) at altitude h (m). */
export function isaPressurePa(altitudeM: number): number {
  return ISA_SEA_LEVEL_PA * Math.pow(1 - (LAPSE_RATE * altitudeM) / ISA_SEA_LEVEL_K, BARO_EXPONENT)
}

/** Dry ISA density (kg/m³) at altitude h (m): ρ = p·M/(R·T). */
export function isaDensity(altitudeM: number): number {
  return (isaPressurePa(altitudeM) * MOLAR_MASS_AIR) / (R_UNIVERSAL * isaTemperatureK(altitudeM))
}

/** Isothermal-atmosphere pressure (Pa) at altitude h for air at t °C (scheibo/calc `AirPressure`). */
export function isothermalPressurePa(altitudeM: number, temperatureC: number): number {
  return (
    ISA_SEA_LEVEL_PA *
    Math.exp((-G0 * MOLAR_MASS_AIR * altitudeM) / (R_UNIVERSAL * (temperatureC + KELVIN)))
  )
}

/**
 * Conditions measured at a reference altitude, carried to another altitude with the standard
 * lapse rate and the barometric formula (relative humidity kept constant).
 */
export interface ReferenceAir {
  temperatureC: number
  /** Station pressure at the reference altitude (Pa). */
  pressurePa: number
  relativeHumidity: number
  referenceAltitudeM: number
}

export function airDensityAtAltitude(ref: ReferenceAir, altitudeM: number): number {
  const dh = altitudeM - ref.referenceAltitudeM
  const t0 = ref.temperatureC + KELVIN
  const t = t0 - LAPSE_RATE * dh
  const p = ref.pressurePa * Math.pow(t / t0, BARO_EXPONENT)
  return airDensity(t - KELVIN, p, ref.relativeHumidity)
}

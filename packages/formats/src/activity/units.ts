// Units written next to a value (a CSV header's "(km/h)", a FIT developer field's "units") → the
// factor (and offset) to SI. null = not recognised, so the caller infers or assumes and says so.

export const MPH = 0.44704
export const MILE = 1609.344
export const FOOT = 0.3048

/** Lower-case letters and digits, plus '/' and '%' (so "km/h", "kmh" and "KM/H " compare). */
export function unitKey(units: string | null | undefined): string {
  return (units ?? '')
    .toLowerCase()
    .replace(/°/g, 'deg')
    .replace(/[^a-z0-9/%]/g, '')
}

/** Speed to m/s. */
export function speedFactor(units: string | null | undefined): number | null {
  const u = unitKey(units)
  if (/^(m\/s|mps|ms|meterspersecond|metrespersecond|m\/sec)$/.test(u)) return 1
  if (/^(km\/h|kmh|kph|kmph|km\/hr|kilometersperhour|kilometresperhour)$/.test(u)) return 1 / 3.6
  if (/^(mph|mi\/h|mileperhour|milesperhour|mp\/h)$/.test(u)) return MPH
  if (/^(kn|kt|kts|knot|knots)$/.test(u)) return 1852 / 3600
  return null
}

/** Distance to m. */
export function distanceFactor(units: string | null | undefined): number | null {
  const u = unitKey(units)
  if (/^(m|meter|meters|metre|metres)$/.test(u)) return 1
  if (/^(km|kilometer|kilometers|kilometre|kilometres)$/.test(u)) return 1000
  if (/^(mi|mile|miles)$/.test(u)) return MILE
  if (/^(ft|feet|foot)$/.test(u)) return FOOT
  return null
}

/** Temperature to °C: [scale, offset] with °C = v·scale + offset. */
export function temperatureTransform(units: string | null | undefined): [number, number] | null {
  const u = unitKey(units)
  if (/^(c|degc|celsius|degreescelsius|degreesc)$/.test(u)) return [1, 0]
  if (/^(f|degf|fahrenheit|degreesfahrenheit|degreesf)$/.test(u)) return [5 / 9, (-32 * 5) / 9]
  if (/^(k|kelvin)$/.test(u)) return [1, -273.15]
  return null
}

/** Pressure to Pa. */
export function pressureFactor(units: string | null | undefined): number | null {
  const u = unitKey(units)
  if (/^(pa|pascal|pascals)$/.test(u)) return 1
  if (/^(hpa|mbar|mb|millibar|hectopascal|hectopascals)$/.test(u)) return 100
  if (/^(kpa|kilopascal|kilopascals)$/.test(u)) return 1000
  if (/^(bar)$/.test(u)) return 1e5
  if (/^(inhg)$/.test(u)) return 3386.389
  if (/^(mmhg|torr)$/.test(u)) return 133.322
  if (/^(psi)$/.test(u)) return 6894.757
  return null
}

/** Angle to rad. */
export function angleFactor(units: string | null | undefined): number | null {
  const u = unitKey(units)
  if (/^(deg|degree|degrees)$/.test(u)) return Math.PI / 180
  if (/^(rad|radian|radians)$/.test(u)) return 1
  return null
}

/** Density to kg/m³. */
export function densityFactor(units: string | null | undefined): number | null {
  const u = unitKey(units)
  if (/^(kg\/m3|kgm3|kg\/m\^3|kg\/cum|g\/l|gl)$/.test(u)) return 1
  if (/^(g\/m3|gm3)$/.test(u)) return 0.001
  return null
}

/** Median of the finite values (NaN when there are none). */
export function median(values: ArrayLike<number>, keep: (v: number) => boolean = () => true) {
  const a: number[] = []
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!
    if (Number.isFinite(v) && keep(v)) a.push(v)
  }
  if (a.length === 0) return NaN
  a.sort((x, y) => x - y)
  const m = a.length >> 1
  return a.length % 2 ? a[m]! : (a[m - 1]! + a[m]!) / 2
}

/**
 * Pressure without units, by magnitude: hPa (300–1100) or Pa (30 000–110 000); kPa (30–110).
 * Returns the factor to Pa, or null when the values fit none.
 */
export function inferPressureFactor(med: number): number | null {
  if (med >= 30_000 && med <= 110_000) return 1
  if (med >= 300 && med <= 1100) return 100
  if (med >= 30 && med <= 110) return 1000
  return null
}

/** Air density without units, by magnitude: kg/m³ (0.7–1.5) or g/m³ (700–1500). */
export function inferDensityFactor(med: number): number | null {
  if (med >= 0.7 && med <= 1.5) return 1
  if (med >= 700 && med <= 1500) return 0.001
  return null
}

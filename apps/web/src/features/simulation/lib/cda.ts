// Estimated drag area from height and mass when the rider does not know their CdA.
// Frontal area A = a·h^0.725·m^0.425 + b (h in m, m in kg) with a drag coefficient per position,
// as scibo/calc implements it (docs/engine/science.md §7 table "anthropometric (scheibo)"):
//   drops (hoods/drops on a road bike): a 0.0276, b 0.1647, Cd 0.88
//   aero (time-trial extensions):       a 0.0293, b 0.0604, Cd 0.70

export type CdaPosition = 'drops' | 'aero'

const COEFFICIENTS: Record<CdaPosition, { a: number; b: number; cd: number }> = {
  drops: { a: 0.0276, b: 0.1647, cd: 0.88 },
  aero: { a: 0.0293, b: 0.0604, cd: 0.7 },
}

/** CdA (m²) of a rider of `heightM` and `massKg` in `position`; NaN for out-of-range inputs. */
export function anthropometricCda(heightM: number, massKg: number, position: CdaPosition): number {
  if (!(heightM > 0.5 && heightM < 2.6 && massKg > 20 && massKg < 300)) return Number.NaN
  const c = COEFFICIENTS[position]
  return c.cd * (c.a * heightM ** 0.725 * massKg ** 0.425 + c.b)
}

/** Which estimate fits a bike type's positions: extensions on TT/triathlon bikes. */
export function estimatePositions(
  bikeType: string,
  heightM: number,
  massKg: number,
): { name: string; cda: number }[] {
  const drops = anthropometricCda(heightM, massKg, 'drops')
  const aero = anthropometricCda(heightM, massKg, 'aero')
  if (bikeType === 'triathlon' || bikeType === 'time_trial') {
    return [
      { name: 'Extensions', cda: aero },
      { name: 'Base bar', cda: drops },
    ]
  }
  // Road bikes: on the hoods ≈ drops estimate; the drops ≈ 10 % less (docs/engine/science.md §7 ranges).
  return [
    { name: 'Drops', cda: drops * 0.9 },
    { name: 'Hoods', cda: drops },
  ]
}

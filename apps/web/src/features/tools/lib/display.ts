import type { UnitSystem } from '../../../lib/units.ts'
import { pressure } from '../../../components/quantity.ts'

// How the tools show their results (the inputs' conversions are the form kit's:
// components/quantity.ts).

/** "4.63 bar" / "67.2 psi". */
export function formatPressure(pa: number, system: UnitSystem): string {
  return `${pressure.toDisplay(pa, system).toFixed(pressure.digits(system))} ${pressure.unit(system)}`
}

/** The same pressure in the other unit, for a secondary line: "67.2 psi" / "4.63 bar". */
export function formatPressureOther(pa: number, system: UnitSystem): string {
  return formatPressure(pa, system === 'metric' ? 'imperial' : 'metric')
}

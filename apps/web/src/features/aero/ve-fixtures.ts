// Test and benchmark helper: a run's stored fit in still air, as the sliders start from it.
import type { RunParamsJson } from './ve.ts'

/** CdA 0.3 m², Crr 0.004, 80 kg, 97.6 % drivetrain, no wind; the trace starts at `offsetM`. */
export function stillAirParams(offsetM: number): RunParamsJson {
  return {
    cda: 0.3,
    crr: 0.004,
    mass_kg: 80,
    drivetrain_efficiency: 0.976,
    wind_e: 0,
    wind_n: 0,
    offset_m: offsetM,
  }
}

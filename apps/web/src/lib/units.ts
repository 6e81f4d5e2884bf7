import { createContext, useContext } from 'react'

/**
 * The user's unit system (Quick settings: metric/imperial). Every number the app shows goes
 * through these conversions. The engine and the API are SI; conversion happens only here.
 */
export type UnitSystem = 'metric' | 'imperial'

export type UnitsState = {
  system: UnitSystem
  setSystem(system: UnitSystem): void
}

export const UnitsContext = createContext<UnitsState>({ system: 'metric', setSystem: () => {} })

export function useUnits(): UnitsState {
  return useContext(UnitsContext)
}

export const KG_PER_LB = 0.45359237
export const M_PER_MI = 1609.344
export const M_PER_FT = 0.3048
export const PA_PER_PSI = 6894.757293168
export const PA_PER_BAR = 100_000
export const MM_PER_IN = 25.4

export type Quantity = 'mass' | 'distance' | 'elevation' | 'speed' | 'length' | 'height'

/** Converts an SI value (kg, m, m/s…) to the display unit of `system`. */
export function toDisplay(q: Quantity, si: number, system: UnitSystem): number {
  if (system === 'metric') {
    switch (q) {
      case 'distance':
        return si / 1000
      case 'speed':
        return si * 3.6
      case 'height':
        return si * 100
      default:
        return si
    }
  }
  switch (q) {
    case 'mass':
      return si / KG_PER_LB
    case 'distance':
      return si / M_PER_MI
    case 'elevation':
    case 'length':
      return si / M_PER_FT
    case 'speed':
      return (si * 3600) / M_PER_MI
    case 'height':
      return si / 0.0254
  }
}

/** Inverse of toDisplay. */
export function fromDisplay(q: Quantity, shown: number, system: UnitSystem): number {
  return shown / toDisplay(q, 1, system)
}

export function unitLabel(q: Quantity, system: UnitSystem): string {
  const metric = {
    mass: 'kg',
    distance: 'km',
    elevation: 'm',
    speed: 'km/h',
    length: 'm',
    height: 'cm',
  }
  const imperial = {
    mass: 'lb',
    distance: 'mi',
    elevation: 'ft',
    speed: 'mph',
    length: 'ft',
    height: 'in',
  }
  return (system === 'metric' ? metric : imperial)[q]
}

/** Formats an SI value with its display unit, e.g. "72.5 kg" or "159.8 lb". */
export function formatQuantity(q: Quantity, si: number, system: UnitSystem, digits = 1): string {
  return `${toDisplay(q, si, system).toFixed(digits)} ${unitLabel(q, system)}`
}

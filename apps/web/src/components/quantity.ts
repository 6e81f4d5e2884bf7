// How a form's numeric inputs convert between SI (what the engine and the API take) and what the
// user sees in their unit system, and how a typed text becomes a number. Shared by every form.
import {
  PA_PER_BAR,
  PA_PER_PSI,
  fromDisplay,
  toDisplay,
  unitLabel,
  type Quantity,
  type UnitSystem,
} from '../lib/units.ts'

/** One input's conversion: SI ⇄ shown value, its unit label and the digits an input box keeps. */
export type Converter = {
  toDisplay(si: number, system: UnitSystem): number
  fromDisplay(shown: number, system: UnitSystem): number
  unit(system: UnitSystem): string
  digits(system: UnitSystem): number
}

/** A quantity of lib/units (mass, speed, distance…) in the user's system. */
export function quantity(q: Quantity, digits = 1): Converter {
  return {
    toDisplay: (si, s) => toDisplay(q, si, s),
    fromDisplay: (v, s) => fromDisplay(q, v, s),
    unit: (s) => unitLabel(q, s),
    digits: () => digits,
  }
}

/** A value shown as it is in both systems (W, mm, s…), with a fixed number of digits. */
export function fixedUnit(unit: string, digits = 1): Converter {
  return {
    toDisplay: (v) => v,
    fromDisplay: (v) => v,
    unit: () => unit,
    digits: () => digits,
  }
}

/** Pressures show in bar (metric) or psi (imperial). */
export const pressure: Converter = {
  toDisplay: (pa, s) => pa / (s === 'metric' ? PA_PER_BAR : PA_PER_PSI),
  fromDisplay: (v, s) => v * (s === 'metric' ? PA_PER_BAR : PA_PER_PSI),
  unit: (s) => (s === 'metric' ? 'bar' : 'psi'),
  digits: (s) => (s === 'metric' ? 2 : 1),
}

/** Tyre and rim widths are millimetres in both systems, as they are printed on tyres. */
export const millimetres: Converter = fixedUnit('mm')

/** A fraction (0…1) shown as a whole percentage. */
export const percent: Converter = {
  toDisplay: (f) => f * 100,
  fromDisplay: (p) => p / 100,
  unit: () => '%',
  digits: () => 0,
}

/** Formats for an input box: no trailing zeros ("72.5", "4", "159.8"); '' when not finite. */
export function formatInput(si: number, c: Converter, system: UnitSystem): string {
  if (!Number.isFinite(si)) return ''
  return String(Number(c.toDisplay(si, system).toFixed(c.digits(system))))
}

/** Parses what the user typed (a comma as decimal separator is accepted); NaN when not a number. */
export function parseInput(text: string): number {
  const t = text.trim().replace(',', '.')
  if (t === '' || !/^[-+]?(\d+\.?\d*|\.\d+)$/.test(t)) return Number.NaN
  return Number(t)
}

/**
 * The SI value of a typed text: undefined when the box is empty and the field optional, NaN when
 * it does not hold a number, else the shown value converted from `system`.
 */
export function textToSi(
  text: string,
  c: Converter,
  system: UnitSystem,
  optional: boolean,
): number | undefined {
  if (optional && text.trim() === '') return undefined
  const shown = parseInput(text)
  return Number.isNaN(shown) ? Number.NaN : c.fromDisplay(shown, system)
}

/** What a quantity input holds: the SI value is the truth, the text what the box shows. */
export type QuantityState = { system: UnitSystem; si: number | undefined; text: string }

/**
 * The state after the user switched unit systems: the box is rewritten from the SI value (75 kg
 * becomes 165.3 lb without drifting); a box that holds no number keeps its text.
 */
export function switchSystem(
  state: QuantityState,
  c: Converter,
  system: UnitSystem,
): QuantityState {
  if (state.system === system) return state
  const text =
    state.si === undefined || Number.isNaN(state.si) ? state.text : formatInput(state.si, c, system)
  return { system, si: state.si, text }
}

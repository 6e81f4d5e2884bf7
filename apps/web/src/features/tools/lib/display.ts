import {
  PA_PER_BAR,
  PA_PER_PSI,
  fromDisplay,
  toDisplay,
  unitLabel,
  type Quantity,
  type UnitSystem,
} from '../../../lib/units.ts'

/**
 * How each input of the tools converts between SI (what the engine takes) and what the user
 * sees. Pressures show in bar (metric) or psi (imperial); tyre and rim widths are millimetres in
 * both systems, as they are printed on tyres everywhere.
 */
export type Converter = {
  toDisplay(si: number, system: UnitSystem): number
  fromDisplay(shown: number, system: UnitSystem): number
  unit(system: UnitSystem): string
  digits(system: UnitSystem): number
}

export function quantity(q: Quantity, digits = 1): Converter {
  return {
    toDisplay: (si, s) => toDisplay(q, si, s),
    fromDisplay: (v, s) => fromDisplay(q, v, s),
    unit: (s) => unitLabel(q, s),
    digits: () => digits,
  }
}

export const pressure: Converter = {
  toDisplay: (pa, s) => pa / (s === 'metric' ? PA_PER_BAR : PA_PER_PSI),
  fromDisplay: (v, s) => v * (s === 'metric' ? PA_PER_BAR : PA_PER_PSI),
  unit: (s) => (s === 'metric' ? 'bar' : 'psi'),
  digits: (s) => (s === 'metric' ? 2 : 1),
}

export const millimetres: Converter = {
  toDisplay: (mm) => mm,
  fromDisplay: (mm) => mm,
  unit: () => 'mm',
  digits: () => 1,
}

/** Formats for an input box: no trailing zeros ("72.5", "4", "159.8"). */
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

/** "4.63 bar" / "67.2 psi". */
export function formatPressure(pa: number, system: UnitSystem): string {
  return `${pressure.toDisplay(pa, system).toFixed(pressure.digits(system))} ${pressure.unit(system)}`
}

/** The same pressure in the other unit, for a secondary line: "67.2 psi" / "4.63 bar". */
export function formatPressureOther(pa: number, system: UnitSystem): string {
  return formatPressure(pa, system === 'metric' ? 'imperial' : 'metric')
}

/** "1 min 26 s", "45 s", "−12 s". */
export function formatDuration(seconds: number): string {
  const sign = seconds < 0 ? '−' : ''
  const s = Math.round(Math.abs(seconds))
  if (s < 60) return `${sign}${s} s`
  const m = Math.floor(s / 60)
  return `${sign}${m} min ${s % 60} s`
}

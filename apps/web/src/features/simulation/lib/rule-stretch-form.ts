// Stretches of the course with a rule of their own (a feed zone ridden at most at some speed or
// power, a neutral start, a climb at a set power): rows in the user's units ⇄ the optimization's
// `inputs.rules.stretches` (m, W, m/s). The ranges are the API's (packages/contracts simulation.ts).
import type { PacingRules } from '@veloptima/contracts'
import { fromDisplay, toDisplay, unitLabel, type UnitSystem } from '../../../lib/units.ts'

type StoredStretch = NonNullable<PacingRules['stretches']>[number]

export type StretchKind = 'max_power' | 'power' | 'max_speed'

export const STRETCH_KINDS: readonly { value: StretchKind; label: string }[] = [
  { value: 'max_power', label: 'At most (W)' },
  { value: 'power', label: 'Hold (W)' },
  { value: 'max_speed', label: 'Speed limit' },
]

export type StretchRow = {
  start: string
  end: string
  kind: StretchKind
  value: string
  label: string
}

const trim = (x: number, d: number) => String(Number(x.toFixed(d)))

export function stretchRowOf(s: StoredStretch, system: UnitSystem): StretchRow {
  const kind: StretchKind =
    s.power_w !== undefined ? 'power' : s.max_speed_mps !== undefined ? 'max_speed' : 'max_power'
  const value =
    kind === 'power'
      ? String(s.power_w)
      : kind === 'max_speed'
        ? trim(toDisplay('speed', s.max_speed_mps!, system), 1)
        : String(s.max_power_w)
  return {
    start: trim(toDisplay('distance', s.start_m, system), 3),
    end: trim(toDisplay('distance', s.end_m, system), 3),
    kind,
    value,
    label: s.label ?? '',
  }
}

/**
 * The rows in SI; each message under `stretch<i>.<field>` names the stretch, the field and the
 * value. Stretches must lie inside the course (when its length is known) with end > start.
 */
export function readStretchRows(
  rows: readonly StretchRow[],
  system: UnitSystem,
  courseLengthM: number | undefined,
  errors: Record<string, string>,
): StoredStretch[] {
  const dUnit = unitLabel('distance', system)
  const sUnit = unitLabel('speed', system)
  const maxShown = courseLengthM !== undefined ? toDisplay('distance', courseLengthM, system) : null
  return rows.map((r, i) => {
    const name = `Rule stretch ${i + 1}`
    const num = (
      key: string,
      label: string,
      text: string,
      lo: number,
      hi: number,
      unit: string,
    ) => {
      const v = Number(text.trim().replace(',', '.'))
      if (text.trim() === '' || !Number.isFinite(v)) {
        errors[`stretch${i}.${key}`] =
          `${name} ${label}: enter a number${text.trim() ? ` (got “${text}”)` : ''}.`
        return null
      }
      if (v < lo || v > hi) {
        errors[`stretch${i}.${key}`] =
          `${name} ${label} must be between ${lo} and ${hi} ${unit} (got ${v}).`
      }
      return v
    }
    const start = num('start', 'start', r.start, 0, Infinity, dUnit)
    const end = num('end', 'end', r.end, 0, Infinity, dUnit)
    if (start !== null && end !== null && end <= start)
      errors[`stretch${i}.end`] =
        `${name} end must be after its start (${start} ${dUnit}), got ${end} ${dUnit}.`
    else if (end !== null && maxShown !== null && end > maxShown + 0.0005)
      errors[`stretch${i}.end`] =
        `${name} end must be inside the course (at most ${maxShown.toFixed(2)} ${dUnit}), got ${end} ${dUnit}.`
    const speedLo = Number(toDisplay('speed', 0.5, system).toFixed(1))
    const speedHi = Math.round(toDisplay('speed', 30, system))
    const value =
      r.kind === 'max_speed'
        ? num('value', 'speed limit', r.value, speedLo, speedHi, sUnit)
        : num('value', r.kind === 'power' ? 'power' : 'power cap', r.value, 0, 3000, 'W')
    const out: StoredStretch = {
      start_m: fromDisplay('distance', start ?? 0, system),
      end_m: fromDisplay('distance', end ?? 0, system),
    }
    if (r.kind === 'max_speed') out.max_speed_mps = fromDisplay('speed', value ?? 0, system)
    else if (r.kind === 'power') out.power_w = value ?? 0
    else out.max_power_w = value ?? 0
    if (r.label.trim()) out.label = r.label.trim().slice(0, 100)
    return out
  })
}

// Wheel presets for equipment options: the engine's wheel drag model (decision 0004: ΔCdA by yaw
// against a 30 mm wheel, typical masses) as an option's `cda_delta_by_yaw` and `mass_delta_kg`,
// so an equipment optimization accounts for the yaw the course and the wind give each wheel.
import { FRONT_WHEELS, REAR_WHEELS, WHEELS, YAW_STEP_DEG, type WheelClass } from '@veloptima/engine'

export type WheelPreset = `front:${(typeof FRONT_WHEELS)[number]}` | `rear:${WheelClass}`

export const WHEEL_PRESETS: { value: WheelPreset; label: string }[] = [
  ...FRONT_WHEELS.map((id) => ({
    value: `front:${id}` as WheelPreset,
    label: `Front ${WHEELS[id].label.replace(' (shallow baseline)', '')}`,
  })),
  ...REAR_WHEELS.map((id) => ({
    value: `rear:${id}` as WheelPreset,
    label: `Rear ${WHEELS[id].label.replace(' (shallow baseline)', '').replace(' (rear only)', '')}`,
  })),
]

function parts(preset: WheelPreset): { end: 'front' | 'rear'; id: WheelClass } {
  const [end, id] = preset.split(':') as ['front' | 'rear', WheelClass]
  return { end, id }
}

/** ΔCdA (m²) by yaw (°) of a preset against a 30 mm wheel: [[0, Δ], [2.5, Δ], …, [20, Δ]]. */
export function presetYawTable(preset: WheelPreset): [number, number][] {
  const { end, id } = parts(preset)
  const table = end === 'front' ? WHEELS[id].frontDeltaCda : WHEELS[id].rearDeltaCda
  if (!table) throw new Error(`${preset}: no table for this wheel`)
  return table.map((d, i) => [i * YAW_STEP_DEG, d])
}

/** Mass of a preset wheel against a 30 mm wheel (kg). */
export function presetMassDeltaKg(preset: WheelPreset): number {
  const { end, id } = parts(preset)
  const mass = (w: WheelClass) => (end === 'front' ? WHEELS[w].frontMassKg : WHEELS[w].rearMassKg)
  return Math.round(((mass(id) ?? 0) - (mass('30') ?? 0)) * 1000) / 1000
}

/** The preset whose table this is, or null (a table of the user's own). */
export function presetOfTable(table: readonly (readonly [number, number])[]): WheelPreset | null {
  for (const { value } of WHEEL_PRESETS) {
    const t = presetYawTable(value)
    if (
      t.length === table.length &&
      t.every(([y, d], i) => y === table[i]![0] && d === table[i]![1])
    )
      return value
  }
  return null
}

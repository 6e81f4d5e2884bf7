// The fuel plan's input checked once at the entry; every error names the field and the value.
import { EngineInputError, requireNumber } from '../sim/validate.ts'
import type { FuelInput } from './types.ts'

const SERIES = ['startM', 'lengthM', 'durationS', 'powerW', 'grade'] as const
const OPTIONAL_SERIES = ['radiusM', 'headingRad', 'temperatureC'] as const

/** Throws EngineInputError ("field: expected X, got Y") on the first bad value. */
export function validateFuelInput(input: FuelInput): void {
  requireNumber('cpW', input.cpW, 0, 5000, true)
  const o = input.options ?? {}
  if (o.gutToleranceGPerH !== undefined) {
    requireNumber('options.gutToleranceGPerH', o.gutToleranceGPerH, 30, 150)
  }
  if (o.temperatureC !== undefined) requireNumber('options.temperatureC', o.temperatureC, -40, 60)
  if (o.glycogenStoreG !== undefined) {
    requireNumber('options.glycogenStoreG', o.glycogenStoreG, 0, 2000, true)
  }
  const r = input.ride
  const n = requireNumber('ride.count', r.count, 0, 1e7)
  if (!Number.isInteger(n))
    throw new EngineInputError('ride.count', `expected an integer, got ${n}`)
  for (const key of [...SERIES, ...OPTIONAL_SERIES]) {
    const a = r[key]
    if (a === undefined && (OPTIONAL_SERIES as readonly string[]).includes(key)) continue
    if (!a || a.length < n) {
      throw new EngineInputError(
        `ride.${key}`,
        `expected ${n} values, got ${a ? a.length : 'nothing'}`,
      )
    }
  }
  for (let i = 0; i < n; i++) {
    requireNumber(`ride.lengthM[${i}]`, r.lengthM[i], 0, 1e6, true)
    requireNumber(`ride.durationS[${i}]`, r.durationS[i], 0, 1e6)
    requireNumber(`ride.powerW[${i}]`, r.powerW[i], 0, 5000)
    requireNumber(`ride.grade[${i}]`, r.grade[i], -1, 1)
    requireNumber(`ride.startM[${i}]`, r.startM[i], 0, 1e8)
    if (r.temperatureC) requireNumber(`ride.temperatureC[${i}]`, r.temperatureC[i], -40, 60)
  }
}

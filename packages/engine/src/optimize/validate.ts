// Validation of the optimizer's input, once at the entry ("expected X, got Y").
import { EngineInputError, requireNumber, validateSimulationInput } from '../sim/validate.ts'
import type { PacingInput } from './pacing.ts'
import { MAX_TARGETS_LIMIT } from './rideable.ts'

const CONSTRAINTS = ['w_prime_balance', 'normalized_power', 'average_power', 'work']

export function validatePacingInput(input: PacingInput): void {
  const s = input.pacing
  if (!s || typeof s !== 'object') {
    throw new EngineInputError('pacing', `expected optimizer settings, got ${String(s)}`)
  }
  const c = s.constraint as { type?: unknown; powerW?: unknown; workJ?: unknown } | undefined
  if (!c || typeof c !== 'object' || !CONSTRAINTS.includes(c.type as string)) {
    throw new EngineInputError(
      'constraint.type',
      `expected one of ${CONSTRAINTS.join(', ')}, got ${JSON.stringify(c?.type ?? c) ?? 'nothing'}`,
    )
  }
  const lo = requireNumber('min_power_w', s.minPowerW ?? 0, 0, 5000)
  if (s.maxPowerW !== undefined) requireNumber('max_power_w', s.maxPowerW, lo, 5000, true)
  const hi = Math.min(s.maxPowerW ?? Infinity, input.rider?.maxPowerW ?? Infinity)
  if (!Number.isFinite(hi)) {
    throw new EngineInputError(
      'rider.max_power_w',
      'expected a maximum power (the upper bound of the optimized power), got nothing',
    )
  }
  if (!(hi > lo)) {
    throw new EngineInputError(
      'rider.max_power_w',
      `expected more than min_power_w ${lo}, got ${hi}`,
    )
  }
  if (c.type === 'w_prime_balance') {
    requireNumber('rider.cp_w', input.rider?.cpW, 0, 5000, true)
    requireNumber('rider.w_prime_j', input.rider?.wPrimeJ, 0, 1e6, true)
  } else if (c.type === 'work') {
    requireNumber('constraint.work_j', c.workJ, 0, 1e9, true)
  } else {
    requireNumber('constraint.power_w', c.powerW, 0, 5000, true)
  }
  if (
    s.maxTargets !== undefined &&
    !(Number.isInteger(s.maxTargets) && s.maxTargets >= 1 && s.maxTargets <= MAX_TARGETS_LIMIT)
  ) {
    throw new EngineInputError(
      'max_targets',
      `expected a whole number from 1 to ${MAX_TARGETS_LIMIT}, got ${String(s.maxTargets)}`,
    )
  }
  if (s.minSectionM !== undefined) requireNumber('min_section_m', s.minSectionM, 0, 100000)
  if (s.tolerance !== undefined) requireNumber('tolerance', s.tolerance, 1e-15, 1e-2)
  validateSimulationInput({ ...input, pacing: { type: 'constant', powerW: lo } })
  const w = input.warmStart
  if (w !== undefined && w.length !== input.course.n) {
    throw new EngineInputError('warm_start', `expected ${input.course.n} powers, got ${w.length}`)
  }
  const f = input.dragFactor
  if (f !== undefined) {
    if (f.length !== input.course.n) {
      throw new EngineInputError(
        'drag_factor',
        `expected ${input.course.n} values, got ${f.length}`,
      )
    }
    for (let i = 0; i < f.length; i++) requireNumber(`drag_factor[${i}]`, f[i], 0, 10, true)
  }
}

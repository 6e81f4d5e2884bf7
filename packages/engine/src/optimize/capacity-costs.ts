// What heat, altitude and durability cost: the plan's time minus the time of the plan optimized
// without that one effect (sim/capacity.ts), in seconds, as the wind's cost is shown beside the
// plan. One more optimization per effect the scenario asks for.
import { optimizePacing, type PositionedPacingInput } from './positions.ts'

export interface CapacityCosts {
  heatS?: number
  altitudeS?: number
  durabilityS?: number
}

/** The effects the input asks for, each with the input that leaves it out. */
function withoutEach(input: PositionedPacingInput): [keyof CapacityCosts, PositionedPacingInput][] {
  const out: [keyof CapacityCosts, PositionedPacingInput][] = []
  const options = input.options ?? {}
  if (options.heat) out.push(['heatS', { ...input, options: { ...options, heat: false } }])
  if (options.altitude) {
    out.push(['altitudeS', { ...input, options: { ...options, altitude: false } }])
  }
  if ((input.rider.durability ?? 0) > 0) {
    out.push(['durabilityS', { ...input, rider: { ...input.rider, durability: 0 } }])
  }
  return out
}

/** Seconds each asked effect costs the plan that took `timeS`; empty when none is asked. */
export function capacityCosts(input: PositionedPacingInput, timeS: number): CapacityCosts {
  const costs: CapacityCosts = {}
  for (const [key, without] of withoutEach(input)) {
    const r = optimizePacing(without)
    const t = r.status === 'optimal' ? (r.plan?.timeS ?? r.timeS) : NaN
    if (Number.isFinite(t)) costs[key] = timeS - t
  }
  return costs
}

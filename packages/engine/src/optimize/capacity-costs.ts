// What heat, altitude and durability (sim/capacity.ts) and each of the rider's rules
// (sim/rules.ts) cost: the plan's time minus the time of the plan optimized without that one
// effect or rule, in seconds. One more optimization per effect or rule the scenario asks for. A
// rule may cost less than nothing: coasting a dip into a hairpin is what the per-segment optimum
// does, and a plan of few targets that is told to do it keeps more of the optimum's gain.
import { optimizePacing, type PositionedPacingInput } from './positions.ts'

export interface CapacityCosts {
  heatS?: number
  altitudeS?: number
  durabilityS?: number
  easyStartS?: number
  coastS?: number
  descentCapS?: number
  stretchesS?: number
}

const RULES = [
  ['easyStartS', 'easyStart'],
  ['coastS', 'coast'],
  ['descentCapS', 'descentCap'],
  ['stretchesS', 'stretches'],
] as const

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
  const rules = options.rules
  for (const [key, rule] of RULES) {
    if (!rules || rules[rule] === undefined) continue
    const { [rule]: _left, ...rest } = rules
    out.push([key, { ...input, options: { ...options, rules: rest } }])
  }
  return out
}

/** Whether the input asks for any effect or rule whose cost is computed. */
export function costsAsked(input: PositionedPacingInput): boolean {
  return withoutEach(input).length > 0
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

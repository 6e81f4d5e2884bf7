// The plan's rows as the rider rides them under their rules (sim/rules.ts): a row a rule crosses
// is split, the part the rule holds becoming its own row ("Coast", "At most 240 W", "Held
// 280 W") without a target, so the race sheet, the trainer files and the head-unit files carry
// what the simulation rode. Targets keep their own parts.
import type { RuleStretchOutput } from './run-output.ts'

type Row = { start_m: number; end_m: number; power_w: number; label: string; target?: number }

const ruleLabel = (r: RuleStretchOutput): string =>
  r.kind === 'coast'
    ? 'Coast'
    : r.kind === 'cap'
      ? `At most ${Math.round(r.power_w)} W`
      : `Held ${Math.round(r.power_w)} W`

/** The power a rule leaves of `powerW` (the plan's own where it does not bind). */
const applied = (r: RuleStretchOutput, powerW: number): number =>
  r.kind === 'fixed' ? r.power_w : Math.min(powerW, r.power_w)

/**
 * Rows split at the rules that change their power. `measure` gives a piece its own figures (its
 * grade, speed, duration, elapsed time) from the ride. `parts[k]`: the new indices of row k's
 * pieces that keep its target.
 */
export function splitRowsByRules<R extends Row>(
  rows: readonly R[],
  stretches: readonly RuleStretchOutput[],
  measure: (row: R, startM: number, endM: number) => R,
): { rows: R[]; parts: number[][] } {
  const out: R[] = []
  const parts: number[][] = []
  const ruled = new Set<number>()
  /** A piece [from, end) of `row`: a rule's row (no target) or the row's own. */
  const piece = (
    row: R,
    from: number,
    end: number,
    rule: { label: string; power: number } | null,
  ) => {
    const m = measure(row, from, end)
    if (!rule) return m
    const { target: _t, ...rest } = m
    return { ...(rest as R), power_w: rule.power, label: rule.label }
  }
  for (const row of rows) {
    const own: number[] = []
    let at = row.start_m
    const push = (end: number, stretch: RuleStretchOutput | null) => {
      if (end - at < 0.05) return
      const power = stretch ? applied(stretch, row.power_w) : row.power_w
      const rule = stretch && power !== row.power_w ? { label: ruleLabel(stretch), power } : null
      const k = out.length - 1
      const last = out[k]
      // the same piece again (the row's own after a rule that did not bind, or one rule across
      // two rows): it grows
      const grows =
        last !== undefined &&
        (rule
          ? ruled.has(k) && last.label === rule.label && last.power_w === power
          : own.includes(k))
      if (grows) out[k] = piece(row, last.start_m, end, rule)
      else {
        if (rule) ruled.add(out.length)
        else own.push(out.length)
        out.push(piece(row, at, end, rule))
      }
      at = end
    }
    for (const r of stretches) {
      if (r.end_m <= row.start_m || r.start_m >= row.end_m) continue
      push(Math.max(row.start_m, r.start_m), null)
      push(Math.min(row.end_m, r.end_m), r)
    }
    push(row.end_m, null)
    parts.push(own)
  }
  return { rows: out, parts }
}

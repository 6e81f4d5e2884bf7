// The largest x in a bracket whose constraint excess is not positive: regula falsi (Illinois
// variant) with a bisection safeguard. The excess of our one-parameter families is smooth and
// increasing, so this takes 6–10 evaluations where bisection takes 25–40. Deterministic: stops on
// the bracket width, never on time.

/**
 * `good` has excess ≤ 0, `bad` has excess > 0 (either order on the axis). Returns the last good x
 * once |bad − good| ≤ tol. `excess` may return +Infinity/NaN-free large values; a non-finite
 * excess is treated as "bad" and bisected.
 */
export function boundaryOf(
  excess: (x: number) => number,
  good: number,
  eGood: number,
  bad: number,
  eBad: number,
  tol: number,
  maxSteps = 60,
): number {
  let side = 0
  let lastWidth = Math.abs(bad - good)
  for (let k = 0; k < maxSteps && Math.abs(bad - good) > tol; k++) {
    let x: number
    const interpolate = Number.isFinite(eGood) && Number.isFinite(eBad) && eBad - eGood > 0
    if (interpolate && k % 4 !== 3) {
      x = good + ((bad - good) * (0 - eGood)) / (eBad - eGood)
      // stay strictly inside, away from the ends by a sliver, so the bracket always shrinks
      const lo = Math.min(good, bad)
      const hi = Math.max(good, bad)
      const sliver = 1e-3 * (hi - lo)
      x = Math.min(hi - sliver, Math.max(lo + sliver, x))
    } else x = 0.5 * (good + bad)
    const e = excess(x)
    if (e <= 0) {
      good = x
      eGood = e
      if (side === -1) eBad *= 0.5
      side = -1
    } else {
      bad = x
      eBad = Number.isFinite(e) ? e : eBad
      if (side === 1) eGood *= 0.5
      side = 1
    }
    const w = Math.abs(bad - good)
    if (k % 4 === 3) lastWidth = w
    else if (w > 0.5 * lastWidth && k % 4 === 2) side = 0
  }
  return good
}

/** A feasible x (`good`, −1 when none) and the first infeasible one beyond it (−1 when none). */
export interface Bracket {
  good: number
  eGood: number
  bad: number
  eBad: number
}

/** From `from` towards `to` (above or below it): `first`, then four times longer each step. */
export function* steps(from: number, to: number, first: number): Generator<number> {
  let x = from
  let step = first
  while (x !== to) {
    x = to > from ? Math.min(to, x + step) : Math.max(to, x - step)
    yield x
    step *= 4
  }
}

/**
 * A bracket for `boundaryOf` grown from x0: up while the excess is not positive, or down until it
 * is not (an infinite excess, a stall, ends the way down).
 */
export function grow(
  excess: (x: number) => number,
  x0: number,
  up: Iterable<number>,
  down: Iterable<number>,
): Bracket {
  const b: Bracket = { good: -1, eGood: 0, bad: -1, eBad: 0 }
  const e0 = excess(x0)
  if (e0 <= 0) {
    b.good = x0
    b.eGood = e0
    for (const x of up) {
      const e = excess(x)
      if (e > 0) {
        b.bad = x
        b.eBad = e
        break
      }
      b.good = x
      b.eGood = e
    }
    return b
  }
  b.bad = x0
  b.eBad = e0
  for (const x of down) {
    const e = excess(x)
    if (e <= 0) {
      b.good = x
      b.eGood = e
      break
    }
    // a stall (not a constraint excess) below this point cannot be cured by less power
    if (e === Infinity) break
    b.bad = x
    b.eBad = e
  }
  return b
}

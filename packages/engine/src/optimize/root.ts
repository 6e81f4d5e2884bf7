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

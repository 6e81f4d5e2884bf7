// Elevation profile helpers of course building: interpolation, gap filling, smoothing, the
// steepest window, spikes (median of five).

const finite = Number.isFinite

/** Linear interpolation of y at x over increasing xs, with a moving cursor for sorted queries. */
export function interpolator(xs: Float64Array, ys: Float64Array): (x: number) => number {
  let j = 0
  const n = xs.length
  return (x: number): number => {
    if (x <= xs[0]!) return ys[0]!
    if (x >= xs[n - 1]!) return ys[n - 1]!
    if (x < xs[j]! || x > xs[Math.min(j + 8, n - 1)]!) {
      // Far from the cursor: binary search (queries are mostly, not always, increasing).
      let a = 0
      let b = n - 1
      while (b - a > 1) {
        const c = (a + b) >> 1
        if (xs[c]! < x) a = c
        else b = c
      }
      j = a
    }
    while (j < n - 2 && xs[j + 1]! < x) j++
    const x0 = xs[j]!
    const x1 = xs[j + 1]!
    const t = x1 > x0 ? (x - x0) / (x1 - x0) : 0
    return ys[j]! + t * (ys[j + 1]! - ys[j]!)
  }
}

export function median5(a: number, b: number, c: number, d: number, e: number): number {
  const s = [a, b, c, d, e].sort((x, y) => x - y)
  return s[2]!
}

/** The steepest (by absolute grade) window of at least `window` metres: its first boundary k. */
export function steepestWindow(
  alt: Float64Array,
  start: Float64Array,
  window: number,
): { k: number; grade: number } {
  const n = start.length - 1
  let best = { k: 0, grade: (alt[n]! - alt[0]!) / start[n]! }
  let j = 0
  for (let k = 0; k < n; k++) {
    if (j <= k) j = k + 1
    while (j < n && start[j]! - start[k]! < window) j++
    const run = start[j]! - start[k]!
    if (run < window) break
    const g = (alt[j]! - alt[k]!) / run
    if (Math.abs(g) > Math.abs(best.grade)) best = { k, grade: g }
  }
  return best
}

export function diff(a: Float64Array): Float64Array {
  const out = new Float64Array(a.length - 1)
  for (let i = 0; i < out.length; i++) out[i] = a[i + 1]! - a[i]!
  return out
}

/** Fills NaN entries of ys by linear interpolation over xs (held flat beyond the ends). */
export function fillGaps(xs: Float64Array, ys: ArrayLike<number>, out: Float64Array): void {
  const m = xs.length
  let prev = -1
  for (let i = 0; i < m; i++) {
    if (!finite(ys[i]!)) continue
    out[i] = ys[i]!
    if (prev < 0) for (let k = 0; k < i; k++) out[k] = ys[i]!
    else if (i - prev > 1) {
      for (let k = prev + 1; k < i; k++) {
        const t = (xs[k]! - xs[prev]!) / (xs[i]! - xs[prev]!)
        out[k] = ys[prev]! + t * (ys[i]! - ys[prev]!)
      }
    }
    prev = i
  }
  for (let k = prev + 1; k < m; k++) out[k] = ys[prev]!
}

/** Centred moving average of half-width `half` samples, in place (ends use shorter windows). */
export function movingAverage(a: Float64Array, half: number): void {
  const n = a.length
  const src = a.slice()
  // Symmetric windows that shrink near the ends: the course starts and ends where the file says.
  const prefix = new Float64Array(n + 1)
  for (let i = 0; i < n; i++) prefix[i + 1] = prefix[i]! + src[i]!
  for (let i = 0; i < n; i++) {
    const h = Math.min(half, i, n - 1 - i)
    a[i] = (prefix[i + h + 1]! - prefix[i - h]!) / (2 * h + 1)
  }
}

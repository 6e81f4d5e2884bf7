// Deterministic pseudo-random numbers for the bootstrap (no Math.random in the engine).

/** Uniforms in [0, 1) from a seed, scrambled so nearby seeds give unrelated streams. */
export function createRandom(seed: number): () => number {
  return mulberry32((Math.floor(seed) ^ 0x9e3779b9) >>> 0)
}

/** Mulberry32: a small, fast 32-bit generator from a 32-bit state; uniforms in [0, 1). */
export function mulberry32(state: number): () => number {
  let a = state >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Quantile q ∈ [0, 1] of the finite values of a list (linear interpolation), NaN if none. */
export function quantile(values: ArrayLike<number>, q: number): number {
  const v: number[] = []
  for (let i = 0; i < values.length; i++) if (Number.isFinite(values[i])) v.push(values[i]!)
  if (v.length === 0) return NaN
  v.sort((a, b) => a - b)
  const x = q * (v.length - 1)
  const lo = Math.floor(x)
  const hi = Math.min(v.length - 1, lo + 1)
  return v[lo]! + (v[hi]! - v[lo]!) * (x - lo)
}

/** Median of the finite values, NaN if none. */
export function median(values: ArrayLike<number>): number {
  return quantile(values, 0.5)
}

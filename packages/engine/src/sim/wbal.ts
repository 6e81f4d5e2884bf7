// W′ balance (docs/engine/science.md §3.2): Skiba 2015 differential and Skiba 2012 integral models, over
// piecewise-constant power (per-second samples or simulation segments of any duration).

export type WPrimeModel = 'skiba2015' | 'skiba2012'

/** Skiba 2012 time constant τ_W′ = 546·e^(−0.01·D_CP) + 316 (s). */
export function skiba2012Tau(dcpW: number): number {
  return 546 * Math.exp(-0.01 * dcpW) + 316
}

/** Bartram et al. 2018 refit for elite riders: τ_W′ = 2287.2·D_CP^(−0.688) (s). */
export function bartramTau(dcpW: number): number {
  return 2287.2 * Math.pow(dcpW, -0.688)
}

/**
 * One interval of the Skiba 2015 differential model, exact for constant power P over t seconds:
 * above CP W′ falls linearly; below CP it recovers exponentially with τ = W′0/(CP − P).
 */
export function wbalStep2015(
  w: number,
  powerW: number,
  t: number,
  cpW: number,
  w0J: number,
): number {
  if (powerW >= cpW) return w - (powerW - cpW) * t
  return w0J - (w0J - w) * Math.exp((-(cpW - powerW) * t) / w0J)
}

export interface WPrimeSummary {
  minJ: number
  finalJ: number
  /** Time (s) at which W′ balance first reached zero, or null. */
  exhaustedAtS: number | null
}

/**
 * W′ balance at the end of each interval (written into `out`, same length as `power`).
 * Skiba 2012 uses one D_CP per session: CP minus the time-weighted mean of the below-CP power.
 */
export function wPrimeBalance(
  power: ArrayLike<number>,
  duration: ArrayLike<number>,
  count: number,
  cpW: number,
  w0J: number,
  model: WPrimeModel,
  out: Float64Array,
): WPrimeSummary {
  let min = w0J
  let w = w0J
  let exhaustedAtS: number | null = null
  let clock = 0
  if (model === 'skiba2015') {
    for (let i = 0; i < count; i++) {
      const p = power[i]!
      const t = duration[i]!
      const before = w
      w = wbalStep2015(w, p, t, cpW, w0J)
      if (w < min) min = w
      if (exhaustedAtS === null && w <= 0 && p > cpW) exhaustedAtS = clock + before / (p - cpW)
      clock += t
      out[i] = w
    }
    return { minJ: min, finalJ: w, exhaustedAtS }
  }
  let belowT = 0
  let belowE = 0
  for (let i = 0; i < count; i++) {
    const p = power[i]!
    if (p < cpW) {
      belowT += duration[i]!
      belowE += p * duration[i]!
    }
  }
  const dcp = belowT > 0 ? cpW - belowE / belowT : 0
  const tau = skiba2012Tau(dcp)
  // S(t) = ∫ W′exp(u)·e^(−(t−u)/τ) du, advanced exactly over each constant-power interval.
  let s = 0
  for (let i = 0; i < count; i++) {
    const p = power[i]!
    const t = duration[i]!
    const decay = Math.exp(-t / tau)
    s = s * decay + (p > cpW ? (p - cpW) * tau * (1 - decay) : 0)
    w = w0J - s
    if (w < min) min = w
    if (exhaustedAtS === null && w <= 0) exhaustedAtS = clock + t
    clock += t
    out[i] = w
  }
  return { minJ: min, finalJ: w, exhaustedAtS }
}

// Skiba 2015 differential W′ balance over one segment of constant power, with its partial
// derivatives (for the adjoint sweep). docs/engine/science.md §3.2:
//   P ≥ CP:  W⁺ = W − (P − CP)·t
//   P < CP:  W⁺ = W′ − (W′ − W)·exp(−(CP − P)·t / W′)

export interface WbalPartials {
  /** W′ balance after the segment */
  w: number
  dW: number
  dP: number
  dT: number
}

function exactStep(w: number, p: number, t: number, cp: number, wPrime: number, out: WbalPartials) {
  if (p >= cp) {
    out.w = w - (p - cp) * t
    out.dW = 1
    out.dP = -t
    out.dT = -(p - cp)
    return
  }
  const e = Math.exp((-(cp - p) * t) / wPrime)
  const gap = wPrime - w
  out.w = wPrime - gap * e
  out.dW = e
  // d/dP of −gap·exp(−(CP − P)·t/W′) = −gap·e·t/W′ ; d/dt = gap·e·(CP − P)/W′
  out.dP = (-gap * e * t) / wPrime
  out.dT = (gap * e * (cp - p)) / wPrime
}

/**
 * The Skiba 2015 map has a kink at P = CP (below CP its slope in P is scaled by (W′ − W)/W′),
 * which stalls quasi-Newton methods when many segments sit at CP. For the optimizer's inner
 * iterations the two branches are blended with a C¹ smoothstep over CP ± band; with band = 0 this
 * is the exact model. The returned plan is always judged and repaired on the exact model.
 */
export function skibaStep(
  w: number,
  p: number,
  t: number,
  cp: number,
  wPrime: number,
  band: number,
  out: WbalPartials,
): void {
  if (band <= 0 || p >= cp + band || p <= cp - band) return exactStep(w, p, t, cp, wPrime, out)
  // above-CP branch evaluated at p
  const wa = w - (p - cp) * t
  const aP = -t
  const aT = -(p - cp)
  // below-CP branch evaluated at p (the exponential is smooth through CP)
  const e = Math.exp((-(cp - p) * t) / wPrime)
  const gap = wPrime - w
  const wb = wPrime - gap * e
  const bW = e
  const bP = (-gap * e * t) / wPrime
  const bT = (gap * e * (cp - p)) / wPrime
  const z = (p - (cp - band)) / (2 * band)
  const s = z * z * (3 - 2 * z)
  const ds = (6 * z * (1 - z)) / (2 * band)
  out.w = (1 - s) * wb + s * wa
  out.dW = (1 - s) * bW + s
  out.dP = (1 - s) * bP + s * aP + ds * (wa - wb)
  out.dT = (1 - s) * bT + s * aT
}

/**
 * The split form used by the optimizer: power P = CP + a − b with a, b ≥ 0. W′ first drains by
 * a·t, then recovers over the same time at the rate of b below CP:
 *   W⁺ = W′ − (W′ − (W − a·t))·exp(−b·t/W′).
 * When one of a, b is zero this is exactly Skiba 2015; when both are positive the rider ends with
 * less W′ than at the net power, so an optimum never uses both. Smooth in (a, b, t): the kink of
 * the model at CP becomes a bound (a = 0 or b = 0) that a projected method handles exactly.
 */
export interface SplitPartials {
  w: number
  dW: number
  dA: number
  dB: number
  dT: number
}

export function skibaSplitStep(
  w: number,
  a: number,
  b: number,
  t: number,
  wPrime: number,
  out: SplitPartials,
): void {
  const wd = w - a * t
  const e = Math.exp((-b * t) / wPrime)
  const gap = wPrime - wd
  out.w = wPrime - gap * e
  out.dW = e
  out.dA = -t * e
  out.dB = (gap * e * t) / wPrime
  out.dT = -a * e + (gap * e * b) / wPrime
}

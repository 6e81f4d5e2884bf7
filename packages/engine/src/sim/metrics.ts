// Load metrics over power series (docs/engine/science.md §3.3).

/**
 * Normalized Power (Coggan): fourth root of the mean of the fourth power of the 30-s rolling mean
 * of 1-Hz power, counted from the 30th second. Shorter series give their mean power.
 */
export function normalizedPower(power1Hz: ArrayLike<number>, count = power1Hz.length): number {
  if (count === 0) return 0
  const win = 30
  if (count < win) {
    let s = 0
    for (let i = 0; i < count; i++) s += power1Hz[i]!
    return s / count
  }
  let sum = 0
  for (let i = 0; i < win - 1; i++) sum += power1Hz[i]!
  let acc = 0
  let k = 0
  for (let i = win - 1; i < count; i++) {
    sum += power1Hz[i]!
    const m = sum / win
    acc += m * m * m * m
    k++
    sum -= power1Hz[i - win + 1]!
  }
  return Math.pow(acc / k, 0.25)
}

/** Power held constant over intervals of given durations, averaged into 1-s bins. */
export function resampleTo1Hz(
  power: ArrayLike<number>,
  duration: ArrayLike<number>,
  count: number,
): Float64Array {
  let total = 0
  for (let i = 0; i < count; i++) total += duration[i]!
  const bins = Math.ceil(total - 1e-9)
  const out = new Float64Array(Math.max(0, bins))
  let t = 0
  for (let i = 0; i < count; i++) {
    const p = power[i]!
    let rest = duration[i]!
    while (rest > 0) {
      const b = Math.min(Math.floor(t), bins - 1)
      const take = Math.min(rest, b + 1 - t)
      out[b]! += p * take
      if (take <= 0) break
      t += take
      rest -= take
    }
  }
  // The last bin may be shorter than a second: turn its energy into mean power.
  if (bins > 0) {
    const lastLen = total - (bins - 1)
    if (lastLen > 0 && lastLen < 1) out[bins - 1] = out[bins - 1]! / lastLen
  }
  return out
}

/** Normalized Power of piecewise-constant power over intervals. */
export function normalizedPowerOfIntervals(
  power: ArrayLike<number>,
  duration: ArrayLike<number>,
  count: number,
): number {
  return normalizedPower(resampleTo1Hz(power, duration, count))
}

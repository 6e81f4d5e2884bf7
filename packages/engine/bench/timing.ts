// The timing loop every benchmark shares: warm-up calls, then timed calls, their times sorted.
// Nothing here asserts time.

// The engine's tsconfig has no DOM or Node types: the global this module uses.
declare const performance: { now(): number }

/** The times (ms) of `runs` calls of `fn` after `warmup` untimed ones, fastest first. */
export function sortedTimes(runs: number, warmup: number, fn: () => void): number[] {
  for (let k = 0; k < warmup; k++) fn()
  const times: number[] = []
  for (let k = 0; k < runs; k++) {
    const t0 = performance.now()
    fn()
    times.push(performance.now() - t0)
  }
  return times.sort((a, b) => a - b)
}

/** The median of times sorted by `sortedTimes` (the upper one of an even count). */
export const medianOf = (sorted: readonly number[]): number =>
  sorted[Math.floor(sorted.length / 2)]!

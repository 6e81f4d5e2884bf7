// The session's files merged end to end on one clock, laps numbered across files.
import { OPTIONAL_SAMPLE_CHANNELS, type ActivitySamples } from '@veloptima/engine'

/** Files further apart than this are on different clocks (another day): never one time line. */
export const SAME_CLOCK_S = 12 * 3600

const FLOAT_CHANNELS = ['speed', 'power', ...OPTIONAL_SAMPLE_CHANNELS] as const

/** The files' samples end to end on the session clock; laps numbered across files. */
export function mergeActivities(parts: { samples: ActivitySamples; offsetS: number }[]) {
  const n = parts.reduce((sum, p) => sum + p.samples.t.length, 0)
  const t = new Float64Array(n)
  const lap = new Int32Array(n)
  const merged: Record<string, Float64Array | null> = {}
  for (const c of FLOAT_CHANNELS) {
    merged[c] = parts.some((p) => p.samples[c] != null) ? new Float64Array(n).fill(NaN) : null
  }
  let at = 0
  let lapBase = 0
  let last = -Infinity
  for (const { samples, offsetS } of parts) {
    const m = samples.t.length
    let laps = 0
    for (let i = 0; i < m; i++) {
      // Strictly increasing even if two files overlap in time (a second device on the same ride).
      const time = Math.max(offsetS + samples.t[i]!, last + 1e-3)
      t[at + i] = time
      last = time
      lap[at + i] = lapBase + samples.lap[i]!
      laps = Math.max(laps, samples.lap[i]! + 1)
    }
    for (const c of FLOAT_CHANNELS) {
      const src = samples[c]
      if (src && merged[c]) merged[c].set(src, at)
    }
    at += m
    lapBase += Math.max(1, laps)
  }
  return {
    ...(merged as Record<(typeof FLOAT_CHANNELS)[number], Float64Array | null>),
    speed: merged.speed!,
    power: merged.power!,
    t,
    lap,
    startEpochS: NaN,
  } as ActivitySamples
}

/**
 * The clock of each file (index into `files`): files share one when both carry their recording
 * time, lie within SAME_CLOCK_S of each other and sit on the session clock by it.
 */
export function clocksOf(files: { offsetS: number; startEpochS: number }[]): number[] {
  const clock = files.map((_, i) => i)
  const root = (i: number): number => (clock[i] === i ? i : (clock[i] = root(clock[i]!)))
  files.forEach((a, i) => {
    for (let j = 0; j < i; j++) {
      const b = files[j]!
      const de = a.startEpochS - b.startEpochS
      if (
        Number.isFinite(de) &&
        Math.abs(de) <= SAME_CLOCK_S &&
        Math.abs(de - (a.offsetS - b.offsetS)) < 1
      )
        clock[root(i)] = root(j)
    }
  })
  return files.map((_, i) => root(i))
}

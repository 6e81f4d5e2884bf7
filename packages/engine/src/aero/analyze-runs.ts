// A run of the analysis resolved to sample index ranges: from its pieces, its lap, or its time range.
import type { ActivitySamples, RunSource, RunSpec } from './types.ts'

export interface ResolvedRun {
  spec: RunSpec
  label: string
  configuration: string
  source: RunSource
  startT: number
  endT: number
  /** Index ranges [a, b) of the samples used. */
  pieces: Array<[number, number]>
}

/** First index with t ≥ x. */
function lowerBound(t: Float64Array, x: number): number {
  let lo = 0
  let hi = t.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (t[mid]! < x) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** Index range [a, b) of the samples with startT ≤ t ≤ endT. */
function timeRange(t: Float64Array, startT: number, endT: number): [number, number] {
  return [lowerBound(t, startT), lowerBound(t, endT + 1e-9)]
}

export function resolveRun(s: ActivitySamples, r: RunSpec, k: number): ResolvedRun {
  let pieces: Array<[number, number]>
  let source: RunSource = r.source ?? (r.lap !== undefined ? 'lap' : 'time_range')
  if (r.pieces && r.pieces.length > 0) {
    pieces = r.pieces.map(([a, b]) => timeRange(s.t, a, b))
  } else if (r.lap !== undefined && r.startT === undefined) {
    let a = -1
    let b = -1
    for (let i = 0; i < s.t.length; i++) {
      if (s.lap[i] === r.lap) {
        if (a < 0) a = i
        b = i + 1
      }
    }
    pieces = a < 0 ? [] : [[a, b]]
    source = 'lap'
  } else {
    pieces = [timeRange(s.t, r.startT!, r.endT!)]
  }
  pieces = pieces.filter(([a, b]) => b > a)
  const first = pieces[0]
  const last = pieces[pieces.length - 1]
  return {
    spec: r,
    label: r.label ?? (r.lap !== undefined ? `lap ${r.lap + 1}` : `run ${k + 1}`),
    configuration: r.configuration ?? '',
    source,
    startT: first ? s.t[first[0]]! : (r.startT ?? NaN),
    endT: last ? s.t[last[1] - 1]! : (r.endT ?? NaN),
    pieces,
  }
}

// Sections and levels of the rideable plan (decision 0002), read from a per-control power profile:
// optimal 1-D clustering of the powers into levels, and dynamic programming over section ends
// (every section at least `minLength` long, made of whole control segments) — sections that
// follow the profile each at its own mean (`freeSections`) or at one of given levels
// (`segmentLevels`), alternately with the levels (`levelSections`). Pure functions of the
// profile; the plans are built and timed in rideable.ts.

/** Renumbers targets 0…T−1 in order of first use; returns T. */
export function compactTargets(targetOf: Int32Array): number {
  const map = new Map<number, number>()
  for (let k = 0; k < targetOf.length; k++) {
    const t = targetOf[k]!
    let m = map.get(t)
    if (m === undefined) {
      m = map.size
      map.set(t, m)
    }
    targetOf[k] = m
  }
  return map.size
}

/** Time-weighted moving mean of `power` over ±`half` controls. */
export function movingMean(power: Float64Array, time: Float64Array, half: number): Float64Array {
  const K = power.length
  const out = new Float64Array(K)
  for (let k = 0; k < K; k++) {
    let e = 0
    let t = 0
    for (let q = Math.max(0, k - half); q <= Math.min(K - 1, k + half); q++) {
      e += power[q]! * time[q]!
      t += time[q]!
    }
    out[k] = t > 0 ? e / t : power[k]!
  }
  return out
}

/** Time-weighted mean of `power` over the controls of each target. */
export function targetMeans(
  targetOf: Int32Array,
  T: number,
  power: Float64Array,
  time: Float64Array,
) {
  const e = new Float64Array(T)
  const t = new Float64Array(T)
  for (let k = 0; k < targetOf.length; k++) {
    e[targetOf[k]!] = e[targetOf[k]!]! + power[k]! * time[k]!
    t[targetOf[k]!] = t[targetOf[k]!]! + time[k]!
  }
  for (let q = 0; q < T; q++) e[q] = t[q]! > 0 ? e[q]! / t[q]! : 0
  return e
}

/**
 * Sections at least `minLength` long: the shortest run of one target shorter than that joins the
 * neighbouring run whose target power is closer to the run's own power (the per-segment optimum's),
 * until none is left. Rewrites targetOf in place.
 */
export function enforceMinLength(
  targetOf: Int32Array,
  level: Float64Array,
  power: Float64Array,
  time: Float64Array,
  length: Float64Array,
  minLength: number,
): void {
  type Run = { first: number; last: number; target: number; len: number; e: number; t: number }
  const runs: Run[] = []
  for (let k = 0; k < targetOf.length; k++) {
    const prev = runs[runs.length - 1]
    const tk = time[k]!
    if (prev && prev.target === targetOf[k]) {
      prev.last = k
      prev.len += length[k]!
      prev.e += power[k]! * tk
      prev.t += tk
    } else {
      runs.push({
        first: k,
        last: k,
        target: targetOf[k]!,
        len: length[k]!,
        e: power[k]! * tk,
        t: tk,
      })
    }
  }
  const join = (a: Run, b: Run) => {
    a.last = b.last
    a.len += b.len
    a.e += b.e
    a.t += b.t
  }
  while (runs.length > 1) {
    let g = -1
    for (let q = 0; q < runs.length; q++) {
      if (runs[q]!.len < minLength - 1e-9 && (g < 0 || runs[q]!.len < runs[g]!.len)) g = q
    }
    if (g < 0) break
    const r = runs[g]!
    const p = r.t > 0 ? r.e / r.t : 0
    const left = runs[g - 1]
    const right = runs[g + 1]
    const dl = left ? Math.abs(level[left.target]! - p) : Infinity
    const dr = right ? Math.abs(level[right.target]! - p) : Infinity
    const into = dl <= dr ? left! : right!
    r.target = into.target
    // the run takes its neighbour's target; equal neighbours become one run
    if (left && left.target === r.target) {
      join(left, r)
      runs.splice(g, 1)
      g--
    }
    const cur = runs[g]!
    const nxt = runs[g + 1]
    if (nxt && nxt.target === cur.target) {
      join(cur, nxt)
      runs.splice(g + 1, 1)
    }
  }
  for (const r of runs) for (let k = r.first; k <= r.last; k++) targetOf[k] = r.target
}

/**
 * Optimal 1-D clustering of the controls' powers into at most M levels, minimizing the
 * time-weighted squared deviation (dynamic programming over the sorted powers, rounded to 0.5 W).
 * Returns the level of each control.
 */
export function clusterLevels(power: Float64Array, time: Float64Array, M: number): Int32Array {
  const K = power.length
  const keyOf = new Float64Array(K)
  const byKey = new Map<number, number>()
  for (let k = 0; k < K; k++) {
    keyOf[k] = Math.round(power[k]! * 2) / 2
    byKey.set(keyOf[k]!, (byKey.get(keyOf[k]!) ?? 0) + Math.max(time[k]!, 1e-9))
  }
  const values = [...byKey.keys()].sort((a, b) => a - b)
  const U = values.length
  const L = Math.min(M, U)
  // prefix sums of weight, weight·x, weight·x²
  const w = new Float64Array(U + 1)
  const wx = new Float64Array(U + 1)
  const wxx = new Float64Array(U + 1)
  for (let u = 0; u < U; u++) {
    const x = values[u]!
    const wt = byKey.get(x)!
    w[u + 1] = w[u]! + wt
    wx[u + 1] = wx[u]! + wt * x
    wxx[u + 1] = wxx[u]! + wt * x * x
  }
  const cost = (a: number, b: number) => {
    // values a…b−1
    const W = w[b]! - w[a]!
    const S = wx[b]! - wx[a]!
    return Math.max(0, wxx[b]! - wxx[a]! - (S * S) / W)
  }
  // D[l][b]: best cost of the first b values in l clusters
  const D = new Float64Array((L + 1) * (U + 1)).fill(Infinity)
  const arg = new Int32Array((L + 1) * (U + 1))
  D[0] = 0
  for (let l = 1; l <= L; l++) {
    for (let b = l; b <= U; b++) {
      let m = Infinity
      let am = l - 1
      for (let a = l - 1; a < b; a++) {
        const c = D[(l - 1) * (U + 1) + a]! + cost(a, b)
        if (c < m) {
          m = c
          am = a
        }
      }
      D[l * (U + 1) + b] = m
      arg[l * (U + 1) + b] = am
    }
  }
  const clusterOfValue = new Int32Array(U)
  let b = U
  for (let l = L; l >= 1; l--) {
    const a = arg[l * (U + 1) + b]!
    for (let u = a; u < b; u++) clusterOfValue[u] = l - 1
    b = a
  }
  const index = new Map<number, number>()
  values.forEach((v, u) => index.set(v, clusterOfValue[u]!))
  const out = new Int32Array(K)
  for (let k = 0; k < K; k++) out[k] = index.get(keyOf[k]!)!
  return out
}

/**
 * Dynamic programming over section ends: the split of controls 0…K−1 into sections of at least
 * `minLength` (the whole course is one section when it is shorter) that minimizes Σ cost(j, k)
 * over its sections [j, k), where `cost` gives the cost of a section and the level it rides
 * (−1: its own). A section of 2·minLength + the longest control or more can always be cut in two
 * at the same level and no more cost, so only sections shorter than that are searched. Returns the
 * ends (k) in order and the level of each section, or null when no split exists.
 */
function sectionEnds(
  length: Float64Array,
  minLength: number,
  cost: (j: number, k: number) => { c: number; level: number },
): { ends: number[]; levels: number[] } | null {
  const K = length.length
  const at = new Float64Array(K + 1)
  let longest = 0
  for (let k = 0; k < K; k++) {
    at[k + 1] = at[k]! + length[k]!
    longest = Math.max(longest, length[k]!)
  }
  const window = 2 * minLength + longest
  const f = new Float64Array(K + 1).fill(Infinity)
  const from = new Int32Array(K + 1)
  const lev = new Int32Array(K + 1)
  f[0] = 0
  for (let k = 1; k <= K; k++) {
    for (let j = k - 1; j >= 0; j--) {
      const len = at[k]! - at[j]!
      if (len > window && f[k]! < Infinity) break
      // too short, unless it is the whole course (shorter than one section)
      if (len < minLength - 1e-9 && !(j === 0 && k === K)) continue
      if (f[j] === Infinity) continue
      const r = cost(j, k)
      const c = f[j]! + r.c
      if (c < f[k]!) {
        f[k] = c
        from[k] = j
        lev[k] = r.level
      }
    }
  }
  if (f[K] === Infinity) return null
  const ends: number[] = []
  const levels: number[] = []
  for (let k = K; k > 0; k = from[k]!) {
    ends.push(k)
    levels.push(lev[k]!)
  }
  return { ends: ends.reverse(), levels: levels.reverse() }
}

/** Prefix sums of weight, weight·power and weight·power² over the controls. */
function moments(power: Float64Array, weight: Float64Array) {
  const K = power.length
  const s0 = new Float64Array(K + 1)
  const s1 = new Float64Array(K + 1)
  const s2 = new Float64Array(K + 1)
  for (let k = 0; k < K; k++) {
    const w = Math.max(weight[k]!, 1e-9)
    s0[k + 1] = s0[k]! + w
    s1[k + 1] = s1[k]! + w * power[k]!
    s2[k + 1] = s2[k]! + w * power[k]! * power[k]!
  }
  return { s0, s1, s2 }
}

/**
 * Sections of at least `minLength` over the controls, each riding one of the given levels, that
 * deviate least from the per-segment optimum (Σ time·(power − level)²).
 */
export function segmentLevels(
  power: Float64Array,
  time: Float64Array,
  length: Float64Array,
  levels: Float64Array,
  minLength: number,
): Int32Array {
  const { s0, s1, s2 } = moments(power, time)
  const L = levels.length
  const best = { c: Infinity, level: 0 }
  const r = sectionEnds(length, minLength, (j, k) => {
    const w0 = s0[k]! - s0[j]!
    const w1 = s1[k]! - s1[j]!
    const w2 = s2[k]! - s2[j]!
    best.c = Infinity
    for (let l = 0; l < L; l++) {
      const q = levels[l]!
      const c = w2 - 2 * q * w1 + q * q * w0
      if (c < best.c) {
        best.c = c
        best.level = l
      }
    }
    return best
  })
  const out = new Int32Array(power.length)
  if (!r) return out
  let a = 0
  r.ends.forEach((e, q) => {
    out.fill(r.levels[q]!, a, e)
    a = e
  })
  return out
}

/**
 * The shortest sections (at least `minLength`) that follow the optimum's power: each section its
 * own level, minimizing Σ time·(power − section mean)²; long flat stretches are then cut into
 * sections of about minLength, so the sections' own optimum has as much freedom as the rider can
 * follow.
 */
export function freeSections(
  power: Float64Array,
  time: Float64Array,
  length: Float64Array,
  minLength: number,
): Int32Array {
  const K = power.length
  const { s0, s1, s2 } = moments(power, time)
  const own = { c: 0, level: -1 }
  const r = sectionEnds(length, minLength, (j, k) => {
    const w1 = s1[k]! - s1[j]!
    own.c = s2[k]! - s2[j]! - (w1 * w1) / (s0[k]! - s0[j]!)
    return own
  })
  const out = new Int32Array(K)
  if (!r) return out
  const at = new Float64Array(K + 1)
  for (let k = 0; k < K; k++) at[k + 1] = at[k]! + length[k]!
  let q = 0
  let startK = 0
  for (const e of r.ends) {
    let a = startK
    for (let k = startK; k < e; k++) {
      const done = at[k + 1]! - at[a]!
      const rest = at[e]! - at[k + 1]!
      if (done >= 2 * minLength - 1e-9 && rest >= minLength - 1e-9) {
        out.fill(q++, a, k + 1)
        a = k + 1
      }
    }
    out.fill(q++, a, e)
    startK = e
  }
  return out
}

/**
 * Levels and sections together: from the optimal clustering of the powers into M levels, the
 * best sections for the levels (`segmentLevels`) and the levels for the sections (time-weighted
 * means), alternately, until the sections no longer change (at most 10 rounds).
 */
export function levelSections(
  power: Float64Array,
  time: Float64Array,
  length: Float64Array,
  M: number,
  minLength: number,
): Int32Array {
  let targetOf = clusterLevels(power, time, M)
  let T = compactTargets(targetOf)
  for (let round = 0; round < 10; round++) {
    const levels = targetMeans(targetOf, T, power, time)
    const next = segmentLevels(power, time, length, levels, minLength)
    const T2 = compactTargets(next)
    let same = T2 === T
    for (let k = 0; same && k < next.length; k++) same = next[k] === targetOf[k]
    targetOf = next
    T = T2
    if (same) break
  }
  return targetOf
}

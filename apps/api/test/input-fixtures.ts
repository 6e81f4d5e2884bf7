// Course files made here (a planned GPX route, a recorded GPX ride, a TCX with distances, our JSON
// course), seeded mutations of them and of JSON bodies, and a plain check of a stored course
// against the invariants of docs/limits-input.md, written independently of the API's validation.
// Used by the input-*.int.test.ts files.

import { rng } from '../../../packages/engine/test/random.ts'

export { rng }

const M_PER_DEG = 111_320

type Pt = { lat: number; lon: number; ele: number; time?: number; dist?: number }

/** Points every `stepM` metres along a road that bends slowly, with an elevation profile. */
function road(opts: {
  lat: number
  lon: number
  points: number
  stepM: number
  turnDegPerStep: number
  ele: (d: number) => number
  speedMps?: number
}): Pt[] {
  const out: Pt[] = []
  let { lat, lon } = opts
  let heading = 30
  let d = 0
  for (let i = 0; i < opts.points; i++) {
    const p: Pt = { lat, lon, ele: opts.ele(d), dist: d }
    if (opts.speedMps) p.time = Date.UTC(2025, 5, 14, 8) / 1000 + d / opts.speedMps
    out.push(p)
    heading += opts.turnDegPerStep * Math.sin(i / 40)
    const r = (heading * Math.PI) / 180
    lat += (opts.stepM * Math.cos(r)) / M_PER_DEG
    lon += (opts.stepM * Math.sin(r)) / (M_PER_DEG * Math.cos((lat * Math.PI) / 180))
    d += opts.stepM
  }
  return out
}

const iso = (s: number) => new Date(s * 1000).toISOString().replace('.000Z', 'Z')

function gpx(name: string, pts: Pt[]): string {
  const body = pts
    .map(
      (p) =>
        `<trkpt lat="${p.lat.toFixed(6)}" lon="${p.lon.toFixed(6)}"><ele>${p.ele.toFixed(1)}</ele>${p.time !== undefined ? `<time>${iso(p.time)}</time>` : ''}</trkpt>`,
    )
    .join('\n')
  return `<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="veloptima-test" xmlns="http://www.topografix.com/GPX/1/1"><trk><name>${name}</name><trkseg>\n${body}\n</trkseg></trk></gpx>\n`
}

function tcx(pts: Pt[]): string {
  const body = pts
    .map(
      (p) =>
        `<Trackpoint><Time>${iso(p.time!)}</Time><Position><LatitudeDegrees>${p.lat.toFixed(6)}</LatitudeDegrees><LongitudeDegrees>${p.lon.toFixed(6)}</LongitudeDegrees></Position><AltitudeMeters>${p.ele.toFixed(1)}</AltitudeMeters><DistanceMeters>${p.dist!.toFixed(1)}</DistanceMeters></Trackpoint>`,
    )
    .join('\n')
  return `<?xml version="1.0" encoding="UTF-8"?>\n<TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2"><Activities><Activity Sport="Biking"><Id>${iso(pts[0]!.time!)}</Id><Lap StartTime="${iso(pts[0]!.time!)}"><Track>\n${body}\n</Track></Lap></Activity></Activities></TrainingCenterDatabase>\n`
}

export type CourseFixture = { name: string; text: string; distanceM: number }

/**
 * Four course files made here: a planned 6 km climb (GPX, no timestamps), a recorded 1.6 km ride
 * (GPX, 1 s), a 2.4 km ride with distances (TCX, 2 s) and a 5 km JSON course.
 */
export function courseFixtures(): CourseFixture[] {
  const climb = road({
    lat: 45.1,
    lon: 6.05,
    points: 200,
    stepM: 30,
    turnDegPerStep: 3,
    ele: (d) => 700 + 0.06 * d + 4 * Math.sin(d / 300),
  })
  const ride = road({
    lat: 48.77,
    lon: 9.18,
    points: 200,
    stepM: 8,
    turnDegPerStep: 1.5,
    speedMps: 8,
    ele: (d) => 250 + 10 * Math.sin(d / 400) + 0.3 * Math.sin(d * 7),
  })
  const tt = road({
    lat: 47.2,
    lon: -1.55,
    points: 150,
    stepM: 16,
    turnDegPerStep: 1,
    speedMps: 8,
    ele: (d) => 30 + 3 * Math.sin(d / 500),
  })
  const loop = road({
    lat: 52.37,
    lon: 4.9,
    points: 200,
    stepM: 25,
    turnDegPerStep: 4,
    ele: (d) => 5 + 2 * Math.sin(d / 700),
  })
  const json = JSON.stringify({
    name: 'Generated loop',
    points: loop.map((p) => ({ lat: +p.lat.toFixed(6), lon: +p.lon.toFixed(6), ele_m: p.ele })),
  })
  return [
    { name: 'climb.gpx', text: gpx('Generated climb', climb), distanceM: 199 * 30 },
    { name: 'ride.gpx', text: gpx('Generated ride', ride), distanceM: 199 * 8 },
    { name: 'tt.tcx', text: tcx(tt), distanceM: 149 * 16 },
    { name: 'loop.json', text: json, distanceM: 199 * 25 },
  ]
}

/** A random replacement for a value in a course file: plausible, absurd, or not a number. */
function randomValue(r: () => number, kind: string): string {
  const u = r()
  if (kind === 'time') {
    if (u < 0.2) return 'not a time'
    if (u < 0.3) return ''
    return new Date(Date.UTC(1990 + Math.floor(r() * 60), 0, 1) + r() * 3e10).toISOString()
  }
  if (u < 0.08) return 'NaN'
  if (u < 0.14) return r() < 0.5 ? 'Infinity' : '-1e999'
  if (u < 0.2) return 'abc'
  if (u < 0.25) return ''
  if (u < 0.55) return String((r() - 0.5) * 2e6)
  const span = kind === 'lat' ? 200 : kind === 'lon' ? 400 : kind === 'dist' ? 1e5 : 12000
  return String((r() - 0.5) * span)
}

const FIELDS: readonly { kind: string; re: RegExp }[] = [
  { kind: 'ele', re: /(<ele>)([^<]*)(<\/ele>)/g },
  { kind: 'ele', re: /(<AltitudeMeters>)([^<]*)(<\/AltitudeMeters>)/g },
  { kind: 'dist', re: /(<DistanceMeters>)([^<]*)(<\/DistanceMeters>)/g },
  { kind: 'lat', re: /(lat=")([^"]*)(")/g },
  { kind: 'lat', re: /(<LatitudeDegrees>)([^<]*)(<\/LatitudeDegrees>)/g },
  { kind: 'lat', re: /("lat":)([^,}]*)([,}])/g },
  { kind: 'lon', re: /(lon=")([^"]*)(")/g },
  { kind: 'lon', re: /(<LongitudeDegrees>)([^<]*)(<\/LongitudeDegrees>)/g },
  { kind: 'lon', re: /("lon":)([^,}]*)([,}])/g },
  { kind: 'ele', re: /("ele_m":)([^,}]*)([,}])/g },
  { kind: 'time', re: /(<time>)([^<]*)(<\/time>)/g },
  { kind: 'time', re: /(<Time>)([^<]*)(<\/Time>)/g },
]

/** Replaces the value of the `k`th match of `re` in `text` through `f`. */
function replaceAt(text: string, re: RegExp, k: number, f: (v: string) => string): string {
  let i = 0
  return text.replace(re, (m, a: string, v: string, b: string) => (i++ === k ? a + f(v) + b : m))
}

export type Mutant = { label: string; name: string; bytes: Uint8Array; baseM: number }

/**
 * The mutated copy number `seed` of one of `files` (replayable): 1–6 values replaced, 1–3
 * consecutive points moved by up to 20° (a GPS spike), a truncation or byte flips.
 */
export function courseMutant(seed: number, files: readonly CourseFixture[]): Mutant {
  const r = rng(seed)
  const file = files[Math.floor(r() * files.length)]!
  let text = file.text
  const how = r()
  let what: string
  if (how < 0.4) {
    const k = 1 + Math.floor(r() * 6)
    for (let j = 0; j < k; j++) {
      const f = FIELDS[Math.floor(r() * FIELDS.length)]!
      const hits = text.match(f.re)?.length ?? 0
      if (hits === 0) continue
      text = replaceAt(text, f.re, Math.floor(r() * hits), () => randomValue(r, f.kind))
    }
    what = `${k} values replaced`
  } else if (how < 0.75) {
    const kind = r() < 0.5 ? 'lat' : 'lon'
    const fields = FIELDS.filter((f) => f.kind === kind && (text.match(f.re)?.length ?? 0) > 0)
    const f = fields[0]!
    const hits = text.match(f.re)!.length
    const at = Math.floor(r() * hits)
    const run = 1 + Math.floor(r() * 3)
    const deg = (r() < 0.5 ? -1 : 1) * 10 ** (-3 + r() * 4.3) // 0.001° to 20°
    for (let j = at; j < Math.min(hits, at + run); j++) {
      text = replaceAt(text, f.re, j, (v) => {
        const moved = Number(v) + deg
        const lim = kind === 'lat' ? 90 : 180
        return String(Math.max(-lim, Math.min(lim, moved)))
      })
    }
    what = `${run} points from ${at} moved ${deg.toFixed(4)}° in ${kind}`
  } else if (how < 0.85) {
    const cut = Math.floor(r() * text.length)
    text = text.slice(0, cut)
    what = `cut at ${cut}`
  } else {
    const bytes = new TextEncoder().encode(text)
    const flips = 1 + Math.floor(r() * 8)
    for (let j = 0; j < flips; j++) bytes[Math.floor(r() * bytes.length)] = Math.floor(r() * 256)
    return {
      label: `seed ${seed}: ${file.name} ${flips} bytes flipped`,
      name: file.name,
      bytes,
      baseM: file.distanceM,
    }
  }
  return {
    label: `seed ${seed}: ${file.name} ${what}`,
    name: file.name,
    bytes: new TextEncoder().encode(text),
    baseM: file.distanceM,
  }
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json }

/** Every path to a value in `v` (objects and arrays included). */
function paths(v: Json, at: (string | number)[] = [], out: (string | number)[][] = []) {
  out.push(at)
  if (Array.isArray(v)) {
    // Long arrays: a few of their items, not all.
    const n = v.length
    for (const i of n > 8 ? [0, 1, n >> 1, n - 2, n - 1] : v.keys()) paths(v[i]!, [...at, i], out)
  } else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) paths(x, [...at, k], out)
  }
  return out
}

const ABSURD: readonly Json[] = [
  1e6,
  -1e6,
  1e9,
  -1e9,
  1e308,
  -1e308,
  0,
  -1,
  0.5,
  1000,
  -5,
  null,
  'text',
  '',
  true,
  [],
  {},
  [1, 2, 3],
  { a: 1 },
]

/**
 * The mutated JSON text number `seed` of `base` (replayable): values replaced by absurd ones,
 * keys removed or added (some with a large value), values nested deep, numbers written as
 * 1e999, or the text cut or corrupted.
 */
export function jsonMutant(seed: number, base: Json): { label: string; text: string } {
  const r = rng(seed)
  const v = structuredClone(base)
  const ops: string[] = []
  const k = 1 + Math.floor(r() * 4)
  for (let j = 0; j < k; j++) {
    const all = paths(v)
    const path = all[Math.floor(r() * all.length)]!
    const op = r()
    const parent = path.length ? getAt(v, path.slice(0, -1)) : undefined
    const key = path[path.length - 1]
    if (op < 0.45) {
      const x = structuredClone(ABSURD[Math.floor(r() * ABSURD.length)]!)
      if (path.length === 0) continue
      setAt(parent, key!, x)
      ops.push(`${path.join('.')}=${JSON.stringify(x)}`)
    } else if (op < 0.6 && path.length > 0 && parent && !Array.isArray(parent)) {
      delete (parent as Record<string, Json>)[key as string]
      ops.push(`-${path.join('.')}`)
    } else if (op < 0.75) {
      const target = getAt(v, path)
      if (target && typeof target === 'object' && !Array.isArray(target)) {
        const big = r() < 0.2
        target[`x${Math.floor(r() * 1000)}`] = big ? 'y'.repeat(200_000) : Math.floor(r() * 100)
        ops.push(`+${path.join('.')}.x${big ? ' (200 KB)' : ''}`)
      }
    } else if (op < 0.85 && path.length > 0) {
      const depth = 1 + Math.floor(r() * 120)
      let x: Json = getAt(v, path) ?? 0
      for (let d = 0; d < depth; d++) x = [x]
      setAt(parent, key!, x)
      ops.push(`${path.join('.')} nested ${depth} deep`)
    } else if (path.length > 0) {
      setAt(parent, key!, 424242.5)
      ops.push(`${path.join('.')}=1e999`)
    }
  }
  let text = JSON.stringify(v).replace(/424242\.5/g, '1e999')
  if (r() < 0.1) {
    const cut = Math.floor(r() * text.length)
    text = text.slice(0, cut)
    ops.push(`cut at ${cut}`)
  } else if (r() < 0.05) {
    const at = Math.floor(r() * text.length)
    text = text.slice(0, at) + '"\\' + text.slice(at)
    ops.push(`corrupted at ${at}`)
  }
  return { label: `seed ${seed}: ${ops.join(', ')}`, text }
}

function getAt(v: Json, path: (string | number)[]): Json | undefined {
  let x: Json | undefined = v
  for (const p of path) {
    if (x === null || typeof x !== 'object') return undefined
    x = (x as Record<string | number, Json>)[p]
  }
  return x
}

function setAt(parent: Json | undefined, key: string | number, x: Json) {
  if (parent && typeof parent === 'object') (parent as Record<string | number, Json>)[key] = x
}

/** Haversine distance (m) on a sphere: independent of the engine's ellipsoid. */
export function haversine(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const R = 6371008.8
  const rad = Math.PI / 180
  const h =
    Math.sin(((lat2 - lat1) * rad) / 2) ** 2 +
    Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lon2 - lon1) * rad) / 2) ** 2
  return 2 * R * Math.asin(Math.min(1, Math.sqrt(h)))
}

type StoredCourse = {
  track: { lat: number[]; lon: number[]; ele: number[]; distance: number[] } | null
  segments: { start: number; end: number; grade: number; altitude: number }[]
  stats: {
    distance: number
    ascent: number
    descent: number
    max_grade: number
    min_grade: number
  } | null
}

const inRange = (v: unknown, lo: number, hi: number) =>
  typeof v === 'number' && Number.isFinite(v) && v >= lo && v <= hi

/**
 * Why a stored course is impossible, or null: coordinates, elevations and distances out of range,
 * segments that do not follow each other, a grade over 100 m beyond ±50 %, statistics that do
 * not match the segments, a track point more than `maxStepM` from the one before it, or a course
 * longer than `maxLengthM`.
 */
export function impossibleCourse(
  c: StoredCourse,
  limits: { maxStepM?: number; maxLengthM?: number } = {},
): string | null {
  const segs = c.segments ?? []
  for (let i = 0; i < segs.length; i++) {
    const s = segs[i]!
    if (!inRange(s.start, 0, 2e6) || !inRange(s.end, 0, 2e6) || !(s.end > s.start))
      return `segment ${i}: ${s.start}–${s.end} m`
    if (i > 0 && Math.abs(s.start - segs[i - 1]!.end) > 0.05) return `segment ${i} starts apart`
    if (!inRange(s.grade, -1, 1)) return `segment ${i}: grade ${s.grade}`
    if (!inRange(s.altitude, -500, 9000)) return `segment ${i}: altitude ${s.altitude}`
  }
  const length = segs.length ? segs[segs.length - 1]!.end - segs[0]!.start : 0
  if (limits.maxLengthM !== undefined && length > limits.maxLengthM)
    return `length ${length} m, more than ${limits.maxLengthM} m`
  // Every stretch of at least 100 m (plain search over boundaries): within ±50 %.
  const x = [segs[0]?.start ?? 0]
  const z = [segs[0]?.altitude ?? 0]
  for (const s of segs) {
    x.push(s.end)
    z.push(z[z.length - 1]! + s.grade * (s.end - s.start))
  }
  for (const a of z) if (!inRange(a, -501, 9001)) return `the grades reach ${a} m`
  for (let k = 0; k < segs.length; k++) {
    let j = k + 1
    while (j < segs.length && x[j]! - x[k]! < 100) j++
    const run = x[j]! - x[k]!
    if (run < 100 && k > 0) break
    const g = (z[j]! - z[k]!) / run
    if (!(Math.abs(g) <= 0.5 + 1e-9)) return `grade ${g} over ${run} m from ${x[k]} m`
  }
  const st = c.stats
  if (st) {
    if (!inRange(st.distance, 0, 2e6)) return `stats.distance ${st.distance}`
    if (segs.length && Math.abs(st.distance - length) > Math.max(1, 0.005 * length))
      return `stats.distance ${st.distance} m, segments ${length} m`
    for (const k of ['ascent', 'descent'] as const)
      if (!inRange(st[k], 0, st.distance + 1)) return `stats.${k} ${st[k]}`
    for (const k of ['max_grade', 'min_grade'] as const)
      if (!inRange(st[k], -0.5, 0.5)) return `stats.${k} ${st[k]}`
  }
  const t = c.track
  if (t) {
    const n = t.lat.length
    if ([t.lon, t.ele, t.distance].some((a) => a.length !== n)) return 'track columns differ'
    for (let i = 0; i < n; i++) {
      if (!inRange(t.lat[i], -90, 90)) return `track.lat.${i} ${t.lat[i]}`
      if (!inRange(t.lon[i], -180, 180)) return `track.lon.${i} ${t.lon[i]}`
      if (!inRange(t.ele[i], -500, 9000)) return `track.ele.${i} ${t.ele[i]}`
      if (!inRange(t.distance[i], 0, 2e6)) return `track.distance.${i} ${t.distance[i]}`
      if (i > 0 && t.distance[i]! < t.distance[i - 1]!) return `track.distance.${i} decreases`
      if (i > 0 && limits.maxStepM !== undefined) {
        const step = haversine(t.lat[i - 1]!, t.lon[i - 1]!, t.lat[i]!, t.lon[i]!)
        if (step > limits.maxStepM) return `track points ${i - 1}–${i} ${step.toFixed(0)} m apart`
      }
    }
    if (segs.length && n > 0 && t.distance[n - 1]! > length + Math.max(1, 0.005 * length))
      return `track ends at ${t.distance[n - 1]} m, segments at ${length} m`
  }
  return null
}

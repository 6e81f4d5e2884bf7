// Seeded mutations of the real-world files (scripts/test-data.ts), shared by the unit fuzz
// test (a few hundred) and `npm run bench -- fuzz-import` (2,000+): each mutated copy either
// imports as a course that is physically possible or is refused with an ImportError; anything
// else (another exception, or an impossible course accepted) is reported with its seed.
import { importCourse, ImportError } from '../src/index.ts'
import type { ImportedCourse } from '../src/index.ts'
import { needs } from '../../../scripts/test-data.ts'
import { mulberry32 } from '../../engine/src/aero/random.ts'

/** mulberry32 seeded with the seed itself: small, fast, deterministic. */
export function rng(seed: number): () => number {
  return mulberry32(seed >>> 0)
}

export interface FuzzFile {
  path: string
  weight: number
}

/** The files mutated, weighted (xmldom takes over a second on the 2,870-point Stuttgart GPX and
 * the 3,965-point TCX, so they are drawn rarely). */
export const FUZZ_FILES: readonly FuzzFile[] = [
  { path: 'courses/alpe-dhuez.gpx', weight: 6 },
  { path: 'courses/mont-ventoux-bedoin.gpx', weight: 4 },
  { path: 'courses/galibier-briancon.gpx', weight: 4 },
  { path: 'courses/tt-beton-classic.gpx', weight: 6 },
  { path: 'courses/crank-the-kanc.gpx', weight: 4 },
  { path: 'courses/stuttgart-recorded-missing-ele.gpx', weight: 0.5 },
  { path: 'aero/open-air-helmet.tcx', weight: 0.5 },
  { path: 'aero/helmet-test-2018-10-03-08-36-06.fit', weight: 4 },
  { path: 'rides/edge810-vector-power.fit', weight: 1 },
]

/** The fast ones (under ~100 ms an import), for the unit suite. */
export const FAST_FUZZ_FILES: readonly FuzzFile[] = FUZZ_FILES.filter(
  (f) => !/stuttgart|open-air|edge810/.test(f.path),
)

const cache = new Map<string, Uint8Array>()
function bytesOf(path: string): Uint8Array {
  let b = cache.get(path)
  if (!b) {
    b = new Uint8Array(needs(path).read(path))
    cache.set(path, b)
  }
  return b
}

/** A random replacement for a value in a text file: plausible, absurd, or not a number. */
function randomValue(r: () => number, kind: 'ele' | 'lat' | 'lon' | 'time'): string {
  const u = r()
  if (kind === 'time') {
    if (u < 0.15) return 'not a time'
    if (u < 0.25) return ''
    const ms = Date.UTC(1900 + Math.floor(r() * 1100), 0, 1) + r() * 3e10
    const d = new Date(ms)
    return Number.isFinite(d.getTime()) ? d.toISOString() : '2019-13-45T99:00:00Z'
  }
  if (u < 0.08) return 'NaN'
  if (u < 0.14) return r() < 0.5 ? 'Infinity' : '-Infinity'
  if (u < 0.18) return '1e999'
  if (u < 0.22) return 'abc'
  if (u < 0.26) return ''
  if (u < 0.55) return String((r() - 0.5) * 2e6) // ±1,000,000
  const span = kind === 'lat' ? 200 : kind === 'lon' ? 400 : 12000
  return String((r() - 0.5) * span) // around the valid range, sometimes just outside
}

const FIELDS: readonly { kind: 'ele' | 'lat' | 'lon' | 'time'; re: RegExp }[] = [
  { kind: 'ele', re: /(<ele>)([^<]*)(<\/ele>)/g },
  { kind: 'ele', re: /(<AltitudeMeters>)([^<]*)(<\/AltitudeMeters>)/g },
  { kind: 'lat', re: /(lat=")([^"]*)(")/g },
  { kind: 'lat', re: /(<LatitudeDegrees>)([^<]*)(<\/LatitudeDegrees>)/g },
  { kind: 'lon', re: /(lon=")([^"]*)(")/g },
  { kind: 'lon', re: /(<LongitudeDegrees>)([^<]*)(<\/LongitudeDegrees>)/g },
  { kind: 'time', re: /(<time>)([^<]*)(<\/time>)/g },
  { kind: 'time', re: /(<Time>)([^<]*)(<\/Time>)/g },
]

/** Replaces 1–6 random values (ele/lat/lon/time) of a GPX or TCX text. */
function mutateText(text: string, r: () => number): string {
  let out = text
  const k = 1 + Math.floor(r() * 6)
  for (let j = 0; j < k; j++) {
    const f = FIELDS[Math.floor(r() * FIELDS.length)]!
    const hits = [...out.matchAll(f.re)]
    if (hits.length === 0) continue
    const h = hits[Math.floor(r() * hits.length)]!
    const at = h.index + h[1]!.length
    out = out.slice(0, at) + randomValue(r, f.kind) + out.slice(at + h[2]!.length)
  }
  return out
}

export interface Mutant {
  label: string
  bytes: Uint8Array
}

/** The mutated copy number `seed` (replayable): value replacements, a truncation or byte flips. */
export function mutant(seed: number, files: readonly FuzzFile[] = FUZZ_FILES): Mutant {
  const r = rng(seed)
  const total = files.reduce((a, f) => a + f.weight, 0)
  let pick = r() * total
  const file = files.find((f) => (pick -= f.weight) < 0) ?? files[0]!
  const src = bytesOf(file.path)
  const text = !file.path.endsWith('.fit')
  const how = r()
  if (text && how < 0.7) {
    const t = mutateText(new TextDecoder().decode(src), r)
    return {
      label: `seed ${seed}: ${file.path} values replaced`,
      bytes: new TextEncoder().encode(t),
    }
  }
  if (how < 0.8) {
    const cut = Math.floor(r() * src.length)
    return { label: `seed ${seed}: ${file.path} cut at ${cut}`, bytes: src.slice(0, cut) }
  }
  const bad = src.slice()
  const flips = 1 + Math.floor(r() * 8)
  for (let j = 0; j < flips; j++) bad[Math.floor(r() * bad.length)] = Math.floor(r() * 256)
  return { label: `seed ${seed}: ${file.path} ${flips} bytes flipped`, bytes: bad }
}

/** Why an accepted course is impossible (a plain check, independent of the importer), or null. */
export function impossibility(c: ImportedCourse): string | null {
  const { track, course } = c
  const n = track.lat.length
  for (let i = 0; i < n; i++) {
    for (const [name, v] of [
      ['lat', track.lat[i]!],
      ['lon', track.lon[i]!],
      ['ele', track.ele[i]!],
      ['time', track.time[i]!],
      ['distance', track.distance[i]!],
    ] as const) {
      if (v === Infinity || v === -Infinity) return `point ${i}: ${name} ${v}`
    }
    if (Math.abs(track.lat[i]!) > 90) return `point ${i}: latitude ${track.lat[i]}`
    if (Math.abs(track.lon[i]!) > 180) return `point ${i}: longitude ${track.lon[i]}`
    if (track.ele[i]! < -500 || track.ele[i]! > 9000) return `point ${i}: elevation ${track.ele[i]}`
  }
  // Consecutive timestamped points with positions: no faster than 180 km/h (+100 m of GPS slack).
  let p = -1
  for (let i = 0; i < n; i++) {
    if (!Number.isFinite(track.time[i]!) || !Number.isFinite(track.lat[i]!)) continue
    if (!Number.isFinite(track.lon[i]!)) continue
    if (p >= 0) {
      const dt = track.time[i]! - track.time[p]!
      const R = 6371008.8
      const rad = Math.PI / 180
      const dLat = (track.lat[i]! - track.lat[p]!) * rad
      const dLon = (track.lon[i]! - track.lon[p]!) * rad
      const h =
        Math.sin(dLat / 2) ** 2 +
        Math.cos(track.lat[p]! * rad) * Math.cos(track.lat[i]! * rad) * Math.sin(dLon / 2) ** 2
      const d = 2 * R * Math.asin(Math.min(1, Math.sqrt(h)))
      // 1 % margin: haversine on a sphere vs the importer's ellipsoid
      if (dt >= 0 && d > 1.01 * (50 * dt + 100)) return `points ${p}–${i}: ${d} m in ${dt} s`
    }
    p = i
  }
  const total = course.start[course.n]!
  if (!(total > 0 && total <= 2_000_000)) return `length ${total} m`
  for (let i = 0; i <= course.n; i++) {
    const a = course.altitude[i]!
    if (!Number.isFinite(a) || a < -500 || a > 9000) return `altitude ${a} at boundary ${i}`
  }
  // Every stretch of at least 100 m (plain search): no steeper than ±50 %.
  for (let k = 0; k < course.n; k++) {
    let j = k + 1
    while (j < course.n && course.start[j]! - course.start[k]! < 100) j++
    const run = course.start[j]! - course.start[k]!
    if (run < 100 && k > 0) break
    const g = (course.altitude[j]! - course.altitude[k]!) / run
    if (!(Math.abs(g) <= 0.5 + 1e-9)) return `grade ${g} over ${run} m from ${course.start[k]} m`
  }
  return null
}

export interface FuzzTally {
  accepted: number
  refused: Record<string, number>
  /** Labels of copies that threw something other than an ImportError. */
  crashes: string[]
  /** Labels of impossible courses that were accepted, with the reason. */
  impossible: string[]
}

/** Imports mutated copies `from`…`to − 1` and tallies the outcomes. */
export function fuzz(from: number, to: number, files: readonly FuzzFile[] = FUZZ_FILES): FuzzTally {
  const tally: FuzzTally = { accepted: 0, refused: {}, crashes: [], impossible: [] }
  for (let seed = from; seed < to; seed++) {
    const m = mutant(seed, files)
    let c: ImportedCourse
    try {
      c = importCourse(m.bytes, m.label)
    } catch (e) {
      if (e instanceof ImportError) {
        tally.refused[e.code] = (tally.refused[e.code] ?? 0) + 1
        if (!e.message.startsWith(m.label)) tally.crashes.push(`${m.label}: message without file`)
      } else {
        tally.crashes.push(`${m.label}: ${(e as Error).stack ?? String(e)}`)
      }
      continue
    }
    tally.accepted++
    const why = impossibility(c)
    if (why) tally.impossible.push(`${m.label}: ${why}`)
  }
  return tally
}

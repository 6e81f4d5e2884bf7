// Per-sample quantities the virtual-elevation trace and fit need, computed once per file:
// time steps, air density, heading from GPS, calibrated air speed and the usable-sample flags.
import { metresPerRadian } from '../course/geo.ts'
import { airDensity, isaDensity, isaPressurePa } from '../physics/air.ts'
import { G0 } from '../physics/constants.ts'
import type { ActivitySamples, AeroEnvironment, TrackGeometry, VeSeries, VeTrack } from './types.ts'
import { median } from './random.ts'

/** Below this ground speed (m/s) a sample counts as stopped: Chung's slope divides by v. */
export const MIN_MOVING_SPEED_MPS = 1
/** A gap between samples longer than this (s) breaks the trace (the file paused). */
export const MAX_SAMPLE_GAP_S = 5
/** Air density used when nothing in the input or the file gives it (ISA sea level). */
export const DEFAULT_AIR_DENSITY = 1.225

export interface PrepareVeOptions {
  /** Constant air density, kg/m³ (wins over everything else). */
  airDensity?: number
  environment?: AeroEnvironment
  /** Multiplies the measured dynamic pressure: air speed used = √cal · airspeed. */
  calibrationFactor?: number
  /** Use the measured air speed for the aero term when the file has one (default false). */
  useAirspeed?: boolean
  /** Velodrome model (`VeTrack`): the geometry, or true for the defaults; default off. */
  track?: TrackGeometry | boolean
  /**
   * Replace the elevation by its mean over every pass through the same spot (square cells of
   * this size, m; `positionAveragedElevation`); default off (the samples' own elevation).
   */
  elevationCellM?: number
}

/** Two visits of a cell more than this apart (s) are two passes. */
const PASS_GAP_S = 60

/**
 * The elevation of each sample as the mean of every sample recorded in the same square cell
 * (`cellM`, by GPS position) over the whole file, and the share of samples whose cell was passed
 * again more than 60 s later or earlier (`revisited`). On a road ridden repeatedly (out and back,
 * loops) an altitude channel that drifts or lags between passes then gives one road profile, the
 * same for every pass; samples without a position keep their own elevation. Null without GPS or
 * elevation.
 */
export function positionAveragedElevation(
  s: ActivitySamples,
  cellM: number,
): { elevation: Float64Array; revisited: number } | null {
  const pos = localPositions(s)
  const alt = s.altitude
  if (!pos || !alt) return null
  const n = s.t.length
  const cells = new Map<string, { sum: number; count: number; first: number; last: number }>()
  const keys: (string | null)[] = new Array<string | null>(n).fill(null)
  for (let i = 0; i < n; i++) {
    const x = pos.x[i]!
    const y = pos.y[i]!
    const z = alt[i]!
    if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(z)) continue
    const key = `${Math.round(x / cellM)},${Math.round(y / cellM)}`
    keys[i] = key
    const c = cells.get(key)
    if (c) {
      c.sum += z
      c.count++
      c.last = s.t[i]!
    } else cells.set(key, { sum: z, count: 1, first: s.t[i]!, last: s.t[i]! })
  }
  const elevation = Float64Array.from(alt)
  let placed = 0
  let again = 0
  for (let i = 0; i < n; i++) {
    const key = keys[i]
    if (key === null || key === undefined) continue
    const c = cells.get(key)!
    elevation[i] = c.sum / c.count
    placed++
    if (c.last - c.first > PASS_GAP_S) again++
  }
  if (placed === 0) return null
  return { elevation, revisited: again / placed }
}

/** Default velodrome: 250 m lap, bends of radius 22 m (55 % of the lap), centre of mass 0.95 m. */
export const DEFAULT_TRACK: Required<TrackGeometry> = {
  lapLengthM: 250,
  bendRadiusM: 22,
  comHeightM: 0.95,
}

/**
 * The velodrome terms per sample (`VeTrack`). The position on the lap is the wheel distance
 * (∫v dt) modulo the lap length, the file starting at the start of a straight: straight, bend,
 * straight, bend. Over whole laps the result does not depend on that phase.
 */
export function trackSeries(
  speed: Float64Array,
  dt: Float64Array,
  geometry: TrackGeometry = {},
): VeTrack {
  const g = { ...DEFAULT_TRACK, ...geometry }
  const { lapLengthM: L, bendRadiusM: R, comHeightM: h } = g
  const bend = Math.min(Math.PI * R, L / 2)
  const straight = L / 2 - bend
  const n = speed.length
  const comSpeed = new Float64Array(n)
  const comHeight = new Float64Array(n)
  const normalFactor = new Float64Array(n)
  let x = 0
  for (let i = 0; i < n; i++) {
    const v = speed[i]!
    if (i > 0 && Number.isFinite(v) && Number.isFinite(dt[i]!)) x += v * dt[i]!
    const u = x % (L / 2)
    const inBend = u >= straight
    if (!inBend || !Number.isFinite(v)) {
      comSpeed[i] = v
      comHeight[i] = h
      normalFactor[i] = 1
      continue
    }
    const tan = (v * v) / (G0 * R)
    const cos = 1 / Math.sqrt(1 + tan * tan)
    const sin = tan * cos
    comSpeed[i] = (v * (R - h * sin)) / R
    comHeight[i] = h * cos
    normalFactor[i] = 1 / cos
  }
  return { geometry: g, comSpeed, comHeight, normalFactor }
}

/** Where the density came from, for the analysis' warnings. */
export type DensitySource =
  'input' | 'environment' | 'sensor' | 'temperature_pressure' | 'altitude' | 'default'

export function densitySeries(
  s: ActivitySamples,
  o: PrepareVeOptions,
): { rho: Float64Array; source: DensitySource } {
  const n = s.t.length
  const rho = new Float64Array(n)
  let source: DensitySource
  if (o.airDensity !== undefined) {
    rho.fill(o.airDensity)
    return { rho, source: 'input' }
  }
  if (o.environment) {
    const e = o.environment
    rho.fill(airDensity(e.temperatureC, e.pressurePa, e.humidity ?? 0))
    return { rho, source: 'environment' }
  }
  if (s.airDensity && countFinite(s.airDensity, 0.5, 1.6) > n / 2) {
    for (let i = 0; i < n; i++) rho[i] = s.airDensity[i]!
    source = 'sensor'
  } else if (s.temperature && s.pressure && countFinite(s.pressure, 3e4, 1.2e5) > n / 2) {
    for (let i = 0; i < n; i++) rho[i] = airDensity(s.temperature[i]!, s.pressure[i]!)
    source = 'temperature_pressure'
  } else if (s.altitude && countFinite(s.altitude, -500, 9000) > n / 2) {
    const tc = s.temperature
    for (let i = 0; i < n; i++) {
      const h = s.altitude[i]!
      const tC = tc ? tc[i]! : NaN
      rho[i] =
        Number.isFinite(tC) && tC > -40 && tC < 55
          ? airDensity(tC, isaPressurePa(h))
          : isaDensity(h)
    }
    source = 'altitude'
  } else {
    rho.fill(DEFAULT_AIR_DENSITY)
    return { rho, source: 'default' }
  }
  // Holes and absurd values take the file's median.
  const m = median(rho.filter((r) => r > 0.5 && r < 1.6))
  const fill = Number.isFinite(m) ? m : DEFAULT_AIR_DENSITY
  for (let i = 0; i < n; i++) if (!(rho[i]! > 0.5 && rho[i]! < 1.6)) rho[i] = fill
  return { rho, source }
}

function countFinite(a: Float64Array, lo: number, hi: number): number {
  let c = 0
  for (let i = 0; i < a.length; i++) if (a[i]! >= lo && a[i]! <= hi) c++
  return c
}

/**
 * East/north metres of each sample from the first GPS fix (NaN where the fix is missing),
 * or null without GPS.
 */
export function localPositions(s: ActivitySamples): { x: Float64Array; y: Float64Array } | null {
  if (!s.lat || !s.lon) return null
  const n = s.t.length
  let i0 = -1
  for (let i = 0; i < n; i++) {
    if (
      Number.isFinite(s.lat[i]) &&
      Number.isFinite(s.lon[i]) &&
      (s.lat[i] !== 0 || s.lon[i] !== 0)
    ) {
      i0 = i
      break
    }
  }
  if (i0 < 0) return null
  const lat0 = s.lat[i0]!
  const lon0 = s.lon[i0]!
  const r = metresPerRadian(lat0)
  const k = Math.PI / 180
  const x = new Float64Array(n)
  const y = new Float64Array(n)
  for (let i = 0; i < n; i++) {
    const la = s.lat[i]!
    const lo = s.lon[i]!
    if (!Number.isFinite(la) || !Number.isFinite(lo) || (la === 0 && lo === 0)) {
      x[i] = NaN
      y[i] = NaN
      continue
    }
    let dLon = lo - lon0
    if (dLon > 180) dLon -= 360
    else if (dLon < -180) dLon += 360
    x[i] = r.east * dLon * k
    y[i] = r.north * (la - lat0) * k
  }
  return { x, y }
}

/**
 * Heading of travel (rad, clockwise from north) from positions: the chord over the nearest
 * samples at least 4 m before and after; NaN without GPS, carried over where the rider stands.
 */
export function headingSeries(
  pos: { x: Float64Array; y: Float64Array } | null,
  n: number,
): Float64Array {
  const h = new Float64Array(n).fill(NaN)
  if (!pos) return h
  const { x, y } = pos
  const minD2 = 16
  for (let i = 0; i < n; i++) {
    if (!Number.isFinite(x[i])) continue
    let a = i
    let b = i
    for (let k = 1; k <= 5; k++) {
      if (a > 0 && Number.isFinite(x[a - 1])) a--
      if (b < n - 1 && Number.isFinite(x[b + 1])) b++
      const dx = x[b]! - x[a]!
      const dy = y[b]! - y[a]!
      if (dx * dx + dy * dy >= minD2) break
    }
    const dx = x[b]! - x[a]!
    const dy = y[b]! - y[a]!
    if (dx * dx + dy * dy >= 1) h[i] = Math.atan2(dx, dy)
    else if (i > 0) h[i] = h[i - 1]!
  }
  return h
}

/** Builds the `VeSeries` of a file. Options say how to get the air density and the air speed. */
export function prepareVe(s: ActivitySamples, o: PrepareVeOptions = {}): VeSeries {
  const n = s.t.length
  const dt = new Float64Array(n)
  for (let i = 1; i < n; i++) dt[i] = s.t[i]! - s.t[i - 1]!
  const { rho } = densitySeries(s, o)
  const heading = headingSeries(localPositions(s), n)
  let airspeed: Float64Array | null = null
  if (o.useAirspeed && s.airspeed) {
    const k = Math.sqrt(o.calibrationFactor ?? 1)
    airspeed = new Float64Array(n)
    for (let i = 0; i < n; i++) airspeed[i] = k * s.airspeed[i]!
  }
  const valid = new Uint8Array(n)
  for (let i = 0; i < n; i++) {
    const v = s.speed[i]!
    const p = s.power[i]!
    const ok =
      Number.isFinite(v) &&
      v >= MIN_MOVING_SPEED_MPS &&
      v < 40 &&
      Number.isFinite(p) &&
      p >= 0 &&
      p < 3000 &&
      (i === 0 || (dt[i]! > 0 && dt[i]! <= MAX_SAMPLE_GAP_S)) &&
      (airspeed === null || (Number.isFinite(airspeed[i]) && airspeed[i]! >= 0))
    valid[i] = ok ? 1 : 0
  }
  let elevation: Float64Array | null = null
  if (s.altitude && countFinite(s.altitude, -500, 9000) > 0) {
    elevation = s.altitude
    if (o.elevationCellM !== undefined) {
      const averaged = positionAveragedElevation(s, o.elevationCellM)
      if (averaged) elevation = averaged.elevation
    }
  }
  const track = o.track
    ? trackSeries(s.speed, dt, typeof o.track === 'object' ? o.track : {})
    : null
  return {
    n,
    t: s.t,
    dt,
    speed: s.speed,
    power: s.power,
    rho,
    elevation,
    heading,
    airspeed,
    valid,
    track,
  }
}

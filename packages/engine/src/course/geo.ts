// Geodesy for short spans on the WGS84 ellipsoid: local radii of curvature give east/north
// metres between nearby points (error below 1e-6 relative over a few hundred metres, far below
// GPS noise), which is what course building needs between consecutive points.

const A = 6378137
const F = 1 / 298.257223563
const E2 = F * (2 - F)
const DEG = Math.PI / 180

/** Metres per radian of latitude (meridional radius M) and of longitude (N·cos φ) at latitude φ (deg). */
export function metresPerRadian(latDeg: number): { north: number; east: number } {
  const phi = latDeg * DEG
  const s = Math.sin(phi)
  const w = 1 - E2 * s * s
  const m = (A * (1 - E2)) / (w * Math.sqrt(w))
  const n = A / Math.sqrt(w)
  return { north: m, east: n * Math.cos(phi) }
}

/** East and north offsets (m) from point 1 to point 2, with radii at the mean latitude. */
export function enuOffset(
  lat1: number,
  lon1: number,
  lat2: number,
  lon2: number,
): { east: number; north: number } {
  const r = metresPerRadian(0.5 * (lat1 + lat2))
  let dLon = lon2 - lon1
  if (dLon > 180) dLon -= 360
  else if (dLon < -180) dLon += 360
  return { east: r.east * dLon * DEG, north: r.north * (lat2 - lat1) * DEG }
}

/** Horizontal distance (m) between two nearby points. */
export function groundDistance(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const o = enuOffset(lat1, lon1, lat2, lon2)
  return Math.hypot(o.east, o.north)
}

/** Radius (m) of the circle through three points given as east/north metres (Infinity if collinear). */
export function mengerRadius(
  x1: number,
  y1: number,
  x2: number,
  y2: number,
  x3: number,
  y3: number,
): number {
  const a = Math.hypot(x2 - x1, y2 - y1)
  const b = Math.hypot(x3 - x2, y3 - y2)
  const c = Math.hypot(x3 - x1, y3 - y1)
  const area2 = Math.abs((x2 - x1) * (y3 - y1) - (y2 - y1) * (x3 - x1))
  if (area2 < 1e-9) return Infinity
  return (a * b * c) / (2 * area2)
}

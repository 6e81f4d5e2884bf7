// Wind arrows for the route map (the race-day forecast at its points): plain SVG text, so it is
// testable without a DOM and needs no inline style (the app's CSP).
/** A wind arrow on the map: where, the direction the wind comes from (°), and its tooltip. */
export type MapWindArrow = {
  lat: number
  lon: number
  fromDeg: number
  speedMps: number
  label: string
}

/** The arrow's SVG, pointing where the wind blows (from + 180°), longer for a stronger wind. */
export function windArrowSvg(a: MapWindArrow, maxSpeedMps: number): string {
  const len = 10 + (12 * Math.min(a.speedMps, maxSpeedMps)) / Math.max(1, maxSpeedMps)
  const rotate = ((a.fromDeg + 180) % 360).toFixed(0)
  const top = 16 - len / 2
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32" viewBox="0 0 32 32" data-map-wind-arrow="">` +
    `<circle cx="16" cy="16" r="15" fill="white" fill-opacity="0.85" stroke="#0f172a" stroke-width="1"/>` +
    `<g transform="rotate(${rotate} 16 16)" stroke="#1d4ed8" stroke-width="2.5" fill="none" stroke-linecap="round">` +
    `<line x1="16" y1="${(16 + len / 2).toFixed(1)}" x2="16" y2="${top.toFixed(1)}"/>` +
    `<path d="M 11 ${(top + 5).toFixed(1)} L 16 ${top.toFixed(1)} L 21 ${(top + 5).toFixed(1)}"/>` +
    `</g></svg>`
  )
}

// The route on a Leaflet map: tiles from the configured `map_tile_url` when there is one, else a
// clean outline of the route on a plain background (no third-party requests). Optional wind
// arrows (the race-day forecast at its points) are drawn as SVG markers: rotated by an SVG
// `transform` attribute, not an inline style, so the page's CSP holds. The map is its own stacking
// context (`isolate`): Leaflet's panes (z-index 400–700) stay under the page's sticky header.
import { useEffect, useRef, useState } from 'react'
import L from 'leaflet'
import 'leaflet/dist/leaflet.css'
import { mapTileUrl } from '../../../lib/public-config.ts'
import { windArrowSvg, type MapWindArrow } from '../lib/wind-arrow.ts'

type Track = { lat: number[]; lon: number[] }

export function RouteMap({
  track,
  arrows,
  className = 'h-72',
  label = 'Route map',
}: {
  track: Track
  arrows?: readonly MapWindArrow[]
  className?: string
  label?: string
}) {
  const el = useRef<HTMLDivElement>(null)
  const [tiles, setTiles] = useState<string | null | undefined>(undefined)
  useEffect(() => {
    void mapTileUrl().then(setTiles)
  }, [])
  useEffect(() => {
    if (!el.current || tiles === undefined || track.lat.length < 2) return
    const map = L.map(el.current, { attributionControl: Boolean(tiles), zoomSnap: 0.25 })
    if (tiles) L.tileLayer(tiles, { maxZoom: 18 }).addTo(map)
    const points = track.lat.map((lat, i) => L.latLng(lat, track.lon[i]!))
    const line = L.polyline(points, { color: '#ea580c', weight: 4 }).addTo(map)
    L.circleMarker(points[0]!, { radius: 6, color: '#16a34a', fillOpacity: 1 })
      .bindTooltip('Start')
      .addTo(map)
    L.circleMarker(points[points.length - 1]!, { radius: 6, color: '#0f172a', fillOpacity: 1 })
      .bindTooltip('Finish')
      .addTo(map)
    const maxSpeed = Math.max(1, ...(arrows ?? []).map((a) => a.speedMps))
    for (const a of arrows ?? []) {
      L.marker(L.latLng(a.lat, a.lon), {
        icon: L.divIcon({
          html: windArrowSvg(a, maxSpeed),
          className: 'veloptima-wind-arrow',
          iconSize: [32, 32],
          iconAnchor: [16, 16],
        }),
        keyboard: false,
      })
        .bindTooltip(a.label)
        .addTo(map)
    }
    map.fitBounds(line.getBounds(), { padding: [24, 24] })
    return () => {
      map.remove()
    }
  }, [tiles, track, arrows])
  if (track.lat.length < 2) {
    return <p className="text-sm text-slate-500">This course has no positions to draw.</p>
  }
  return (
    <div
      ref={el}
      data-testid="route-map"
      aria-label={label}
      role="img"
      className={`${className} isolate w-full rounded-md bg-slate-100`}
    />
  )
}

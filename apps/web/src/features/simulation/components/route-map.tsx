// The route on a Leaflet map: tiles from the configured `map_tile_url` when there is one, else a
// clean outline of the route on a plain background (no third-party requests). Optional wind
// arrows (the race-day forecast at its points) are drawn as SVG markers: rotated by an SVG
// `transform` attribute, not an inline style, so the page's CSP holds. The map is its own stacking
// context (`isolate`): Leaflet's panes (z-index 400–700) stay under the page's sticky header.
// The map is a picture of the route (role img, named by `label`): nothing inside it takes the
// keyboard focus (no zoom buttons, no keyboard panning, the tiles' credit in a line below it
// rather than a link inside it), so it is never an interactive element holding interactive
// controls; a pointer still drags and zooms it (docs/web-app.md, "Accessibility").
import { useQuery } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import L from 'leaflet'
import 'leaflet/dist/leaflet.css'
import { mapTileQuery } from '../../../lib/query.ts'
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
  const tiles = useQuery(mapTileQuery()).data
  useEffect(() => {
    if (!el.current || tiles === undefined || track.lat.length < 2) return
    const map = L.map(el.current, {
      attributionControl: false,
      zoomSnap: 0.25,
      zoomControl: false,
      keyboard: false,
    })
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
    <div>
      <div
        ref={el}
        data-testid="route-map"
        aria-label={label}
        role="img"
        className={`${className} isolate w-full rounded-md bg-slate-100`}
      />
      {tiles ? <TileCredit url={tiles} /> : null}
    </div>
  )
}

/** Where the map's tiles come from; OpenStreetMap's with the credit its licence asks for. */
function TileCredit({ url }: { url: string }) {
  let host = url
  try {
    host = new URL(url.replace(/\{[^}]*\}/g, '0')).hostname
  } catch {
    // not a URL: name it as configured
  }
  return (
    <p className="mt-1 text-right text-xs text-slate-600">
      Map tiles: {host}
      {host.endsWith('openstreetmap.org') ? (
        <>
          {' · © '}
          <a
            className="underline"
            href="https://www.openstreetmap.org/copyright"
            target="_blank"
            rel="noreferrer"
          >
            OpenStreetMap contributors
          </a>
        </>
      ) : null}
    </p>
  )
}

// The runs' tracks on a Leaflet map (when the file has GPS), one colour per run; tiles from the
// configured `map_tile_url` when there is one, else the outlines on a plain background.
import { useEffect, useMemo, useRef } from 'react'
import { useQuery } from '@tanstack/react-query'
import L from 'leaflet'
import 'leaflet/dist/leaflet.css'
import type { RunBlock } from './api.ts'
import { mapTileQuery } from '../../lib/query.ts'

const COLORS = ['#ea580c', '#2563eb', '#16a34a', '#9333ea', '#0891b2', '#ca8a04', '#db2777']

export function LapsMap({ runs }: { runs: RunBlock[] }) {
  const el = useRef<HTMLDivElement>(null)
  const tiles = useQuery(mapTileQuery()).data
  const tracks = useMemo(() => runs.filter((r) => r.data.track && r.data.track.length > 1), [runs])
  useEffect(() => {
    if (!el.current || tiles === undefined || tracks.length === 0) return
    const map = L.map(el.current, { attributionControl: Boolean(tiles), zoomSnap: 0.25 })
    if (tiles) L.tileLayer(tiles, { maxZoom: 18 }).addTo(map)
    const group = L.featureGroup().addTo(map)
    tracks.forEach((r, i) => {
      L.polyline(
        r.data.track!.map(([lat, lon]) => L.latLng(lat, lon)),
        { color: COLORS[i % COLORS.length]!, weight: 3, opacity: 0.8 },
      )
        .bindTooltip(r.data.name)
        .addTo(group)
    })
    map.fitBounds(group.getBounds(), { padding: [16, 16] })
    return () => {
      map.remove()
    }
  }, [tiles, tracks])
  if (tracks.length === 0) {
    return (
      <p className="text-sm text-slate-500">
        No positions in this data (a velodrome or a trainer): no map.
      </p>
    )
  }
  return (
    <div
      ref={el}
      data-testid="laps-map"
      // a region, not an image: Leaflet puts its zoom buttons inside (no control nested in an
      // element whose children are presentational)
      role="region"
      aria-label={`Map of ${tracks.length} runs`}
      className="h-72 w-full rounded-md bg-slate-100"
    />
  )
}

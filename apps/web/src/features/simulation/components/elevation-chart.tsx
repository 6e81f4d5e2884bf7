// The elevation profile coloured by grade (SVG): the course binned along the distance (bins of at
// least 100 m), each bin filled in the colour of its mean grade, with a legend.
import { useMemo } from 'react'
import { formatQuantity, toDisplay, unitLabel, useUnits } from '../../../lib/units.ts'

type Segment = { start: number; end: number; grade: number; altitude: number }

export const GRADE_BANDS = [
  { max: -0.02, color: '#60a5fa', label: 'descent' },
  { max: 0.02, color: '#4ade80', label: '−2…2 %' },
  { max: 0.05, color: '#facc15', label: '2…5 %' },
  { max: 0.08, color: '#fb923c', label: '5…8 %' },
  { max: 0.12, color: '#ef4444', label: '8…12 %' },
  { max: Infinity, color: '#7f1d1d', label: '> 12 %' },
] as const

export const gradeColor = (g: number) => GRADE_BANDS.find((b) => g < b.max)!.color

/** At most `bins` bins, each at least 100 m long: a colour is the grade over ≥ 100 m of road. */
export function binProfile(segments: readonly Segment[], maxBins: number) {
  if (segments.length === 0) return []
  const total = segments[segments.length - 1]!.end
  const bins = Math.max(1, Math.min(maxBins, Math.floor(total / 100)))
  const out: { x0: number; x1: number; a0: number; a1: number; grade: number }[] = []
  let i = 0
  for (let b = 0; b < bins; b++) {
    const x0 = (total * b) / bins
    const x1 = (total * (b + 1)) / bins
    while (i < segments.length - 1 && segments[i]!.end <= x0) i++
    const first = segments[i]!
    let rise = 0
    let run = 0
    let k = i
    while (k < segments.length && segments[k]!.start < x1) {
      const s = segments[k]!
      const len = Math.min(s.end, x1) - Math.max(s.start, x0)
      if (len > 0) {
        rise += len * s.grade
        run += len
      }
      k++
    }
    const a0 = first.altitude + (x0 - first.start) * first.grade
    out.push({ x0, x1, a0, a1: a0 + rise, grade: run > 0 ? rise / run : 0 })
  }
  return out
}

export function ElevationChart({
  segments,
  height = 220,
  marks = [],
  label = 'Elevation profile',
}: {
  segments: readonly Segment[]
  height?: number
  /** distances (m) drawn as vertical lines, e.g. section boundaries */
  marks?: readonly number[]
  /** start of the chart's accessible name */
  label?: string
}) {
  const { system } = useUnits()
  const bins = useMemo(() => binProfile(segments, Math.min(400, segments.length)), [segments])
  if (bins.length === 0) return <p className="text-sm text-slate-500">No elevation data.</p>
  const width = 1000
  const pad = { l: 48, r: 8, t: 8, b: 24 }
  const total = bins[bins.length - 1]!.x1
  const alts = bins.flatMap((b) => [b.a0, b.a1])
  const lo = Math.min(...alts)
  const hi = Math.max(...alts, lo + 10)
  const x = (d: number) => pad.l + ((width - pad.l - pad.r) * d) / total
  const y = (a: number) => pad.t + ((height - pad.t - pad.b) * (hi - a)) / (hi - lo)
  const base = height - pad.b
  const ticks = [lo, (lo + hi) / 2, hi]
  return (
    <figure>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        className="h-auto w-full"
        role="img"
        aria-label={`${label}: ${formatQuantity('distance', total, system)}, from ${formatQuantity('elevation', lo, system, 0)} to ${formatQuantity('elevation', hi, system, 0)}, coloured by grade`}
      >
        {bins.map((b, k) => (
          <polygon
            key={k}
            points={`${x(b.x0)},${base} ${x(b.x0)},${y(b.a0)} ${x(b.x1)},${y(b.a1)} ${x(b.x1)},${base}`}
            fill={gradeColor(b.grade)}
            stroke={gradeColor(b.grade)}
            strokeWidth={0.5}
          />
        ))}
        {marks.map((m) => (
          <line
            key={m}
            data-testid="elevation-mark"
            x1={x(m)}
            x2={x(m)}
            y1={pad.t}
            y2={base}
            stroke="#0f172a"
            strokeWidth={1.5}
            strokeDasharray="4 3"
          />
        ))}
        {ticks.map((t) => (
          <text key={t} x={pad.l - 4} y={y(t) + 4} textAnchor="end" fontSize={12} fill="#475569">
            {Math.round(toDisplay('elevation', t, system))}
          </text>
        ))}
        <text x={pad.l} y={height - 6} fontSize={12} fill="#475569">
          0
        </text>
        <text x={width - pad.r} y={height - 6} textAnchor="end" fontSize={12} fill="#475569">
          {toDisplay('distance', total, system).toFixed(1)} {unitLabel('distance', system)}
        </text>
      </svg>
      <figcaption className="mt-2 flex flex-wrap gap-3 text-xs text-slate-600">
        {GRADE_BANDS.map((b) => (
          <span key={b.label} className="inline-flex items-center gap-1">
            <span className="inline-block h-3 w-3 rounded-sm" style={{ background: b.color }} />
            {b.label}
          </span>
        ))}
      </figcaption>
    </figure>
  )
}

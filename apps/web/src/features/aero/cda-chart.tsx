// CdA of every run in time order with its 95 % interval, the baseline repeats in their own
// colour and the baseline's drift line (the protocol's check that the day did not change).
import type { AeroComparison } from '@veloptima/engine'
import type { RunBlock } from './api.ts'

export function CdaChart({
  runs,
  comparison,
}: {
  runs: RunBlock[]
  comparison: AeroComparison | null
}) {
  const points = runs
    .map((r) => ({
      name: r.data.name,
      t: ((r.start_time ?? 0) + (r.end_time ?? 0)) / 2,
      cda: r.data.results.cda,
      ci: r.data.results.cda_ci95,
      baseline: comparison != null && r.data.results.delta_cda === 0,
    }))
    .filter((p) => Number.isFinite(p.cda))
    .sort((a, b) => a.t - b.t)
  if (points.length === 0) return null
  const width = 1000
  const height = 260
  const pad = { l: 56, r: 12, t: 28, b: 36 }
  const t0 = points[0]!.t
  const t1 = Math.max(points[points.length - 1]!.t, t0 + 60)
  const lows = points.map((p) => Math.min(p.cda, p.ci[0]))
  const highs = points.map((p) => Math.max(p.cda, p.ci[1]))
  const lo = Math.min(...lows) - 0.005
  const hi = Math.max(...highs) + 0.005
  const x = (t: number) => pad.l + ((width - pad.l - pad.r) * (t - t0)) / (t1 - t0 || 1)
  const y = (c: number) => pad.t + ((height - pad.t - pad.b) * (hi - c)) / (hi - lo)
  const drift = comparison?.driftLine
  const driftAt = (t: number) => drift!.intercept + drift!.slopePerS * (t - drift!.t0)
  const ticks = [lo, (lo + hi) / 2, hi]
  return (
    <figure data-testid="cda-chart">
      <svg
        viewBox={`0 0 ${width} ${height}`}
        className="h-auto w-full"
        role="img"
        aria-label={`CdA of ${points.length} runs in time order${comparison ? `, baseline ${comparison.baseline}, drift ${(comparison.driftPerHour * 1000).toFixed(1)} ×10⁻³ m² per hour` : ''}`}
      >
        {ticks.map((c) => (
          <g key={c}>
            <line x1={pad.l} x2={width - pad.r} y1={y(c)} y2={y(c)} stroke="#e2e8f0" />
            <text x={pad.l - 6} y={y(c) + 4} textAnchor="end" fontSize={12} fill="#475569">
              {c.toFixed(3)}
            </text>
          </g>
        ))}
        {drift && comparison && comparison.driftPerHour !== 0 ? (
          <line
            data-testid="drift-line"
            x1={x(t0)}
            x2={x(t1)}
            y1={y(driftAt(t0))}
            y2={y(driftAt(t1))}
            stroke="#0f172a"
            strokeDasharray="6 4"
            strokeWidth={1.5}
          />
        ) : null}
        {points.map((p, i) => (
          <g key={i}>
            <line
              x1={x(p.t)}
              x2={x(p.t)}
              y1={y(p.ci[0])}
              y2={y(p.ci[1])}
              stroke={p.baseline ? '#0f172a' : '#ea580c'}
              strokeWidth={2}
            />
            <circle cx={x(p.t)} cy={y(p.cda)} r={6} fill={p.baseline ? '#0f172a' : '#ea580c'}>
              <title>{`${p.name}: CdA ${p.cda.toFixed(3)} m² [${p.ci[0].toFixed(3)}–${p.ci[1].toFixed(3)}]`}</title>
            </circle>
          </g>
        ))}
        <text x={pad.l} y={height - 8} fontSize={12} fill="#475569">
          0 min
        </text>
        <text x={width - pad.r} y={height - 8} textAnchor="end" fontSize={12} fill="#475569">
          {Math.round((t1 - t0) / 60)} min
        </text>
        <text x={4} y={12} fontSize={12} fill="#475569">
          CdA (m²)
        </text>
      </svg>
      <figcaption className="mt-2 flex flex-wrap gap-4 text-xs text-slate-600">
        <span className="inline-flex items-center gap-1">
          <span className="inline-block h-3 w-3 rounded-full bg-slate-900" /> baseline runs
        </span>
        <span className="inline-flex items-center gap-1">
          <span className="inline-block h-3 w-3 rounded-full bg-orange-600" /> other configurations
        </span>
        {comparison && comparison.driftPerHour !== 0 ? (
          <span>
            dashed: baseline drift {(comparison.driftPerHour * 1000).toFixed(1)} ×10⁻³ m²/h,
            corrected linearly in time
          </span>
        ) : null}
      </figcaption>
    </figure>
  )
}

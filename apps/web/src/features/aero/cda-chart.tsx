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
  // Runs of different clocks (files of other days) are laid side by side, never on one time line.
  const all = runs
    .map((r) => {
      const res = r.data.results
      const cda = typeof res.cda === 'number' && Number.isFinite(res.cda) ? res.cda : null
      const ci = res.cda_ci95 && res.cda_ci95.every(Number.isFinite) ? res.cda_ci95 : null
      return {
        name: r.data.name,
        t: ((r.start_time ?? 0) + (r.end_time ?? 0)) / 2,
        clock: res.clock ?? 0,
        cda,
        ci,
        baseline: comparison != null && res.delta_cda === 0,
      }
    })
    .sort((a, b) => a.t - b.t)
  const points = all.filter(
    (p): p is typeof p & { cda: number } => p.cda !== null && Number.isFinite(p.cda),
  )
  if (points.length === 0) return null
  const width = 1000
  const height = 260
  const pad = { l: 56, r: 12, t: 28, b: 36 }
  const { spans, pos, length } = timeAxis(points)
  const t0 = 0
  const t1 = Math.max(length, 60)
  const lows = points.map((p) => Math.min(p.cda, p.ci ? p.ci[0] : p.cda))
  const highs = points.map((p) => Math.max(p.cda, p.ci ? p.ci[1] : p.cda))
  const lo = Math.min(...lows) - 0.005
  const hi = Math.max(...highs) + 0.005
  const x = (t: number) => pad.l + ((width - pad.l - pad.r) * (t - t0)) / (t1 - t0 || 1)
  const y = (c: number) => pad.t + ((height - pad.t - pad.b) * (hi - c)) / (hi - lo)
  const drift = comparison?.driftLine
  const driftAt = (t: number) => drift!.intercept + drift!.slopePerS * (t - drift!.t0)
  // The drift line only where it was fitted: between the first and last baseline run of its clock.
  const driftRuns = points.filter(
    (p) =>
      p.baseline &&
      drift != null &&
      p.clock === (points.find((q) => Math.abs(q.t - drift.t0) < 1e-6)?.clock ?? p.clock),
  )
  const driftShown =
    drift != null &&
    comparison != null &&
    Number.isFinite(comparison.driftPerHour) &&
    comparison.driftPerHour !== 0 &&
    driftRuns.length >= 2
  const d0 = driftRuns[0]
  const d1 = driftRuns[driftRuns.length - 1]
  const ticks = [lo, (lo + hi) / 2, hi]
  const withheld = all.length - points.length
  return (
    <figure data-testid="cda-chart">
      <svg
        viewBox={`0 0 ${width} ${height}`}
        className="h-auto w-full"
        role="img"
        aria-label={`CdA of ${points.length} runs in time order${spans.size > 1 ? ` on ${spans.size} clocks (files of different days side by side)` : ''}${driftShown ? `, baseline ${comparison.baseline}, drift ${(comparison.driftPerHour * 1000).toFixed(1)} ×10⁻³ m² per hour` : ''}`}
      >
        {ticks.map((c) => (
          <g key={c}>
            <line x1={pad.l} x2={width - pad.r} y1={y(c)} y2={y(c)} stroke="#e2e8f0" />
            <text x={pad.l - 6} y={y(c) + 4} textAnchor="end" fontSize={12} fill="#475569">
              {c.toFixed(3)}
            </text>
          </g>
        ))}
        {driftShown && d0 && d1 ? (
          <line
            data-testid="drift-line"
            x1={x(pos(d0.t, d0.clock))}
            x2={x(pos(d1.t, d1.clock))}
            y1={y(driftAt(d0.t))}
            y2={y(driftAt(d1.t))}
            stroke="#0f172a"
            strokeDasharray="6 4"
            strokeWidth={1.5}
          />
        ) : null}
        {points.map((p, i) => (
          <g key={i}>
            {p.ci ? (
              <line
                x1={x(pos(p.t, p.clock))}
                x2={x(pos(p.t, p.clock))}
                y1={y(p.ci[0])}
                y2={y(p.ci[1])}
                stroke={p.baseline ? '#0f172a' : '#ea580c'}
                strokeWidth={2}
              />
            ) : null}
            <circle
              cx={x(pos(p.t, p.clock))}
              cy={y(p.cda)}
              r={6}
              fill={p.baseline ? '#0f172a' : '#ea580c'}
            >
              <title>{`${p.name}: CdA ${p.cda.toFixed(3)} m² ${p.ci ? `[${p.ci[0].toFixed(3)}–${p.ci[1].toFixed(3)}]` : '(no interval)'}`}</title>
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
      <CdaLegend
        driftPerHour={driftShown ? comparison.driftPerHour : null}
        clocks={spans.size}
        withheld={withheld}
      />
    </figure>
  )
}

/** The chart's key: the colours, the drift line when drawn, clocks side by side, runs not drawn. */
function CdaLegend({
  driftPerHour,
  clocks,
  withheld,
}: {
  driftPerHour: number | null
  clocks: number
  withheld: number
}) {
  return (
    <figcaption className="mt-2 flex flex-wrap gap-4 text-xs text-slate-600">
      <span className="inline-flex items-center gap-1">
        <span className="inline-block h-3 w-3 rounded-full bg-slate-900" /> baseline runs
      </span>
      <span className="inline-flex items-center gap-1">
        <span className="inline-block h-3 w-3 rounded-full bg-orange-600" /> other configurations
      </span>
      {driftPerHour !== null ? (
        <span>
          dashed: baseline drift {(driftPerHour * 1000).toFixed(1)} ×10⁻³ m²/h, corrected linearly
          in time between the baseline runs
        </span>
      ) : null}
      {clocks > 1 ? <span>files of different days side by side, each on its own clock</span> : null}
      {withheld > 0 ? (
        <span>
          {withheld} run{withheld === 1 ? '' : 's'} without a CdA not drawn (see the table)
        </span>
      ) : null}
    </figcaption>
  )
}

/**
 * The time axis: each clock's runs (files of different days) take their own span, laid side by
 * side 2 min apart; `pos` places a run's time on it, `length` is its length in seconds.
 */
function timeAxis(points: { t: number; clock: number }[]) {
  const GAP_S = 120
  const spans = new Map<number, { from: number; to: number; at: number }>()
  for (const p of points) {
    const s = spans.get(p.clock) ?? { from: p.t, to: p.t, at: 0 }
    s.from = Math.min(s.from, p.t)
    s.to = Math.max(s.to, p.t)
    spans.set(p.clock, s)
  }
  let axis = 0
  for (const s of [...spans.values()].sort((a, b) => a.from - b.from)) {
    s.at = axis
    axis += s.to - s.from + GAP_S
  }
  axis -= GAP_S
  const pos = (t: number, clock: number) => {
    const s = spans.get(clock)!
    return s.at + (t - s.from)
  }
  return { spans, pos, length: axis }
}

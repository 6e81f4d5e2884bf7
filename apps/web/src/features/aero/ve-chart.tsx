// One run's virtual elevation against the measured elevation (uPlot), with CdA and Crr sliders
// that redraw at once: the engine's `virtualElevation` runs here, in the browser, on the run's
// samples, with the fit's model (road or velodrome) and stretches (the Aerolab habit: move CdA
// until the trace sits on the road).
import { useEffect, useMemo, useRef, useState } from 'react'
import uPlot from 'uplot'
import 'uplot/dist/uPlot.min.css'
import { formatDuration } from '../../lib/duration.ts'
import { toDisplay, unitLabel, useUnits } from '../../lib/units.ts'
import type { RunBlock } from './api.ts'
import {
  LEFT_OUT_REASONS,
  leftOutOf,
  veParamsOf,
  veSeriesOf,
  veTrace,
  type LeftOut,
  type LeftOutReason,
} from './ve.ts'

const COLOUR = Object.fromEntries(LEFT_OUT_REASONS.map((r) => [r.key, r.colour])) as Record<
  LeftOutReason,
  string
>

/** The swatch of each reason in the line under the chart (the bands' colour, ve.ts). */
const SWATCH: Record<LeftOutReason, string> = {
  braking: 'bg-[#dc2626]',
  stop: 'bg-[#475569]',
  freewheel: 'bg-[#2563eb]',
}

/**
 * Draws the left-out stretches under the grid and the traces: a light band over the plot's
 * height and a solid strip along its foot, in the reason's colour (at least a pixel wide).
 */
function leftOutBands(leftOut: LeftOut | null): uPlot.Plugin {
  return {
    hooks: {
      drawClear: (u) => {
        if (!leftOut) return
        const { ctx, bbox } = u
        const strip = Math.round(5 * uPlot.pxRatio)
        ctx.save()
        for (const b of leftOut.bands) {
          const x0 = u.valToPos(b.from / 60, 'x', true)
          const x1 = u.valToPos(b.to / 60, 'x', true)
          const w = Math.max(uPlot.pxRatio, x1 - x0)
          ctx.fillStyle = COLOUR[b.reason]
          ctx.globalAlpha = 0.14
          ctx.fillRect(x0, bbox.top, w, bbox.height)
          ctx.globalAlpha = 1
          ctx.fillRect(x0, bbox.top + bbox.height - strip, w, strip)
        }
        ctx.restore()
      },
    },
  }
}

/** "Left out of the fit: 12 s braking, 4 s stopped or in a gap" (nothing for older blocks). */
function LeftOutLine({ leftOut }: { leftOut: LeftOut | null }) {
  if (!leftOut) return null
  const parts = LEFT_OUT_REASONS.filter((r) => leftOut.seconds[r.key] > 0)
  return (
    <p
      className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-700"
      data-testid="ve-left-out"
    >
      <span>Left out of the fit:</span>
      {parts.length === 0 ? <span>nothing</span> : null}
      {parts.map((r, i) => (
        <span key={r.key} className="inline-flex items-center gap-1.5">
          <span aria-hidden="true" className={`inline-block h-3 w-3 rounded-sm ${SWATCH[r.key]}`} />
          <span>
            {leftOut.seconds[r.key] < 0.5
              ? 'under 1 s'
              : formatDuration(leftOut.seconds[r.key], 'words')}{' '}
            {r.label}
            {i < parts.length - 1 ? ',' : ''}
          </span>
        </span>
      ))}
    </p>
  )
}

/**
 * RMSE of the trace against the measured elevation over the usable samples, m; without one,
 * against the flat track the fit matched (0 m) when the block has the fit's stretches.
 */
function rmse(
  ve: Float64Array,
  elevation: Float64Array | null,
  valid: Uint8Array,
  flat: boolean,
): number {
  if (!elevation && !flat) return NaN
  let sum = 0
  let n = 0
  for (let i = 0; i < ve.length; i++) {
    const d = ve[i]! - (elevation ? elevation[i]! : 0)
    if (valid[i] && Number.isFinite(d)) {
      sum += d * d
      n++
    }
  }
  return n > 0 ? Math.sqrt(sum / n) : NaN
}

export function VeChart({ block }: { block: RunBlock }) {
  const { system } = useUnits()
  const { series: json, params, results } = block.data
  const series = useMemo(() => veSeriesOf(json), [json])
  const leftOut = useMemo(() => leftOutOf(json), [json])
  // A withheld CdA (out of range, no fit) is not drawn as "fitted": the sliders start from a
  // typical road value and the caption says why.
  const hasFit = typeof params.cda === 'number' && Number.isFinite(params.cda)
  const fitted = {
    cda: hasFit ? params.cda! : 0.3,
    crr: typeof params.crr === 'number' && Number.isFinite(params.crr) ? params.crr : 0.004,
  }
  const ci =
    results.cda_ci95 && results.cda_ci95.every((v) => Number.isFinite(v)) ? results.cda_ci95 : null
  const withheld = results.withheld?.find((w) => w.field === 'cda' || w.field === 'cda_ci95')
  const [cda, setCda] = useState(fitted.cda)
  const [crr, setCrr] = useState(fitted.crr)
  const el = useRef<HTMLDivElement>(null)
  const plot = useRef<uPlot | null>(null)
  const out = useMemo(() => new Float64Array(series.n), [series])
  const x = useMemo(() => json.t.map((t) => t / 60), [json])
  const measured = useMemo(
    () =>
      json.elevation
        ? json.elevation.map((e) => toDisplay('elevation', e, system))
        : // A flat track: the fit's stretches are matched to 0 (older blocks: from the offset).
          json.t.map(() =>
            toDisplay('elevation', json.segments?.length ? 0 : params.offset_m, system),
          ),
    [json, params, system],
  )
  // Every slider step: the engine's VE on the run's samples (into one buffer), then setData.
  const ve = useMemo(
    () => veTrace(series, veParamsOf(params, cda, crr), out, json.segments),
    [series, params, cda, crr, out, json.segments],
  )
  const flat = !json.elevation && (json.segments?.length ?? 0) > 0
  const fit = rmse(ve, series.elevation, series.valid, flat)

  useEffect(() => {
    if (!el.current) return
    const unit = unitLabel('elevation', system)
    const p = new uPlot(
      {
        width: Math.max(300, el.current.clientWidth),
        height: 240,
        legend: { show: true },
        scales: { x: { time: false } },
        plugins: [leftOutBands(leftOut)],
        axes: [{ label: 'Time in run (min)' }, { label: unit, size: 60 }],
        series: [
          { label: 'min' },
          {
            label: json.elevation ? `Measured elevation (${unit})` : `Flat track (${unit})`,
            stroke: '#64748b',
            width: 2,
          },
          { label: `Virtual elevation (${unit})`, stroke: '#ea580c', width: 2 },
        ],
      },
      [x, measured, measured],
      el.current,
    )
    plot.current = p
    const resize = () => el.current && p.setSize({ width: el.current.clientWidth, height: 240 })
    window.addEventListener('resize', resize)
    return () => {
      window.removeEventListener('resize', resize)
      p.destroy()
      plot.current = null
    }
  }, [x, measured, json, system, leftOut])

  useEffect(() => {
    // Between the fit's stretches the trace is NaN: a gap in the line (uPlot draws none at null).
    const shown = Array.from(ve, (v) =>
      Number.isFinite(v) ? toDisplay('elevation', v, system) : null,
    )
    plot.current?.setData([x, measured, shown])
  }, [ve, cda, crr, x, measured, system])

  const cdaMin = Math.max(0.05, Math.floor((fitted.cda - 0.15) * 100) / 100)
  const cdaMax = Math.ceil((fitted.cda + 0.15) * 100) / 100
  return (
    <figure aria-label={`Virtual elevation of ${block.data.name}`} data-testid="ve-chart">
      <div ref={el} />
      <LeftOutLine leftOut={leftOut} />
      <div className="mt-3 grid gap-4 sm:grid-cols-2">
        <label className="block text-sm text-slate-700">
          <span className="flex justify-between">
            <span>CdA</span>
            <output data-testid="ve-cda">{cda.toFixed(3)} m²</output>
          </span>
          <input
            type="range"
            aria-label="CdA"
            min={cdaMin}
            max={cdaMax}
            step={0.001}
            value={cda}
            onChange={(e) => setCda(Number(e.target.value))}
            className="w-full accent-brand-600"
          />
        </label>
        <label className="block text-sm text-slate-700">
          <span className="flex justify-between">
            <span>Crr</span>
            <output data-testid="ve-crr">{crr.toFixed(4)}</output>
          </span>
          <input
            type="range"
            aria-label="Crr"
            min={0.001}
            max={0.012}
            step={0.0001}
            value={crr}
            onChange={(e) => setCrr(Number(e.target.value))}
            className="w-full accent-brand-600"
          />
        </label>
      </div>
      <figcaption className="mt-2 flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-slate-600">
        <span>
          {hasFit
            ? `Fitted: CdA ${fitted.cda.toFixed(3)} m²${ci ? ` [${ci[0].toFixed(3)}–${ci[1].toFixed(3)}]` : ' (no interval)'}, Crr ${fitted.crr.toFixed(4)}`
            : `No fitted CdA${withheld ? ` (${withheld.reason})` : ''}: the sliders start at CdA 0.300 m²`}
        </span>
        <span data-testid="ve-rmse">
          {Number.isFinite(fit)
            ? `RMSE against the ${flat ? 'flat track' : 'measured elevation'} ${toDisplay('elevation', fit, system).toFixed(2)} ${unitLabel('elevation', system)}`
            : 'No measured elevation: the trace should come back level at each lap'}
        </span>
        <button
          type="button"
          className="font-semibold text-brand-700 hover:underline"
          onClick={() => {
            setCda(fitted.cda)
            setCrr(fitted.crr)
          }}
        >
          Back to the fit
        </button>
      </figcaption>
    </figure>
  )
}

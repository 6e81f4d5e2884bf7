import type { TyrePressureResult } from '@veloptima/engine'
import { toDisplay, unitLabel, type UnitSystem } from '../../../lib/units.ts'
import { pressure } from '../../../components/quantity.ts'

const W = 360
const H = 180
const PAD = { l: 44, r: 12, t: 22, b: 32 }

/** A round axis step (1, 2, 2.5 or 5 × 10ⁿ) giving about four intervals up to `max`. */
export function niceStep(max: number): number {
  const rough = max / 4
  const mag = 10 ** Math.floor(Math.log10(rough))
  return [1, 2, 2.5, 5, 10].map((f) => f * mag).find((s) => s >= rough)!
}

/** Front and rear pressure against system mass (everything else fixed), with today's point. */
export function PressureChart({
  result,
  system,
  capPa,
}: {
  result: TyrePressureResult
  system: UnitSystem
  capPa: number | null
}) {
  const xs = result.series.systemMassKg.map((m) => toDisplay('mass', m, system))
  const front = result.series.frontPa.map((p) => pressure.toDisplay(p, system))
  const rear = result.series.rearPa.map((p) => pressure.toDisplay(p, system))
  const x0 = xs[0]!
  const x1 = xs[xs.length - 1]!
  const top = Math.max(...rear, ...front, capPa ? pressure.toDisplay(capPa, system) : 0) * 1.05
  const step = niceStep(top)
  const yMax = Math.ceil(top / step) * step
  const sx = (x: number) => PAD.l + ((x - x0) / (x1 - x0)) * (W - PAD.l - PAD.r)
  const sy = (y: number) => H - PAD.b - (y / yMax) * (H - PAD.t - PAD.b)
  const path = (ys: number[]) =>
    ys.map((y, i) => `${i === 0 ? 'M' : 'L'}${sx(xs[i]!).toFixed(1)},${sy(y).toFixed(1)}`).join('')
  const here = toDisplay('mass', result.systemMassKg, system)
  const pu = pressure.unit(system)
  const mu = unitLabel('mass', system)
  const yTicks = Array.from({ length: Math.round(yMax / step) + 1 }, (_, i) => i * step)
  const d = step < 1 ? 1 : 0
  return (
    <figure className="mt-4">
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={`Pressure against system mass from ${x0.toFixed(0)} to ${x1.toFixed(0)} ${mu}: front and rear`}
        className="w-full"
      >
        {yTicks.map((y) => (
          <g key={y}>
            <line x1={PAD.l} x2={W - PAD.r} y1={sy(y)} y2={sy(y)} className="stroke-slate-200" />
            <text
              x={PAD.l - 6}
              y={sy(y) + 4}
              textAnchor="end"
              className="fill-slate-500 text-[10px]"
            >
              {y.toFixed(d)}
            </text>
          </g>
        ))}
        {capPa ? (
          <g>
            <line
              x1={PAD.l}
              x2={W - PAD.r}
              y1={sy(pressure.toDisplay(capPa, system))}
              y2={sy(pressure.toDisplay(capPa, system))}
              strokeDasharray="4 3"
              className="stroke-red-500"
            />
            <text
              x={W - PAD.r}
              y={sy(pressure.toDisplay(capPa, system)) - 4}
              textAnchor="end"
              className="fill-red-600 text-[10px]"
            >
              hookless limit
            </text>
          </g>
        ) : null}
        <path d={path(rear)} fill="none" strokeWidth={2} className="stroke-brand-600" />
        <path d={path(front)} fill="none" strokeWidth={2} className="stroke-slate-500" />
        <line x1={sx(here)} x2={sx(here)} y1={PAD.t} y2={H - PAD.b} className="stroke-slate-300" />
        <circle
          cx={sx(here)}
          cy={sy(pressure.toDisplay(result.rear.pressurePa, system))}
          r={4}
          className="fill-brand-600"
        />
        <circle
          cx={sx(here)}
          cy={sy(pressure.toDisplay(result.front.pressurePa, system))}
          r={4}
          className="fill-slate-500"
        />
        <text x={PAD.l} y={H - 12} className="fill-slate-500 text-[10px]">
          {x0.toFixed(0)}
        </text>
        <text x={W - PAD.r} y={H - 12} textAnchor="end" className="fill-slate-500 text-[10px]">
          {x1.toFixed(0)}
        </text>
        <text
          x={(W + PAD.l) / 2}
          y={H - 4}
          textAnchor="middle"
          className="fill-slate-600 text-[10px]"
        >
          system mass ({mu})
        </text>
        <text x={PAD.l - 6} y={10} textAnchor="end" className="fill-slate-600 text-[10px]">
          {pu}
        </text>
      </svg>
      <figcaption className="mt-1 flex gap-4 text-xs text-slate-600">
        <span>
          <span
            aria-hidden="true"
            className="mr-1 inline-block h-0.5 w-4 bg-brand-600 align-middle"
          />
          Rear
        </span>
        <span>
          <span
            aria-hidden="true"
            className="mr-1 inline-block h-0.5 w-4 bg-slate-500 align-middle"
          />
          Front
        </span>
        <span>Dots: your setup</span>
      </figcaption>
    </figure>
  )
}

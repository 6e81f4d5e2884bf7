// The browser side of aero-sliders.bench.ts: what the session page's VE chart does on a slider
// step (ve-chart.tsx): the engine's virtualElevation on the run's samples into one buffer, the
// values in display units, uPlot's setData and its draw (uPlot draws in a microtask).
import uPlot from 'uplot'
import {
  veParamsOf,
  veSeriesOf,
  veTrace,
  type RunParamsJson,
  type RunSeriesJson,
} from '../src/features/aero/ve.ts'

export type SliderRequest = { series: RunSeriesJson; params: RunParamsJson; steps: number }
export type SliderReply = { samples: number; ms: number[]; computeMs: number[] }

function bench(request: SliderRequest): Promise<SliderReply> {
  const series = veSeriesOf(request.series)
  const x = request.series.t.map((t) => t / 60)
  const measured = request.series.elevation ?? x.map(() => 0)
  const out = new Float64Array(series.n)
  const el = document.createElement('div')
  document.body.append(el)
  const plot = new uPlot(
    {
      width: 1000,
      height: 240,
      scales: { x: { time: false } },
      series: [{}, { stroke: '#64748b', width: 2 }, { stroke: '#ea580c', width: 2 }],
    },
    [x, measured, measured],
    el,
  )
  const ms: number[] = []
  const computeMs: number[] = []
  return (async () => {
    for (let k = 0; k < request.steps; k++) {
      const cda = (request.params.cda ?? 0.3) + 0.001 * ((k % 40) - 20)
      const t0 = performance.now()
      const ve = veTrace(series, veParamsOf(request.params, cda, request.params.crr ?? 0.004), out)
      const shown = Array.from(ve)
      const t1 = performance.now()
      plot.setData([x, measured, shown])
      await Promise.resolve()
      ms.push(performance.now() - t0)
      computeMs.push(t1 - t0)
    }
    plot.destroy()
    el.remove()
    return { samples: series.n, ms, computeMs }
  })()
}

;(window as unknown as { benchSliders: typeof bench }).benchSliders = bench

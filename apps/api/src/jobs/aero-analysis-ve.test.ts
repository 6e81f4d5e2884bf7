// The session page's slider trace against the analysis' own fit: a run block as the job stores
// it (JSON), recomputed by the browser's code (apps/web ve.ts, the engine's `virtualElevation`)
// at the fitted CdA and Crr, must be the trace the fit drew (elevation − the fit's residuals,
// from the fit's cumulative sums in ve-problem.ts: an independent path through the same model),
// on the real velodrome file (track model, freewheeling cut out) and a real helmet test (road).
import { describe, expect } from 'vitest'
import { needs } from '../../../../scripts/test-data.ts'
import { itWith } from '../../../../scripts/test-data-vitest.ts'
import { veParamsOf, veSeriesOf, veTrace } from '../../../web/src/features/aero/ve.ts'
import { analyseSession, type AeroTaskRun } from './aero-task.ts'

function analyse(name: string) {
  return analyseSession(
    {
      files: [
        {
          fileId: 'f1',
          name,
          bytes: new Uint8Array(needs(`aero/${name}`).read(`aero/${name}`)),
          offsetS: 0,
          configuration: 'baseline',
          detect: true,
        },
      ],
      analysis: { massKg: 80, resamples: 0 },
      runs: [],
    },
    () => {},
  )
}

/** The stored block's series and params as the browser reads them (through JSON). */
function redraw(run: AeroTaskRun, options: { road?: boolean } = {}) {
  const json = JSON.parse(JSON.stringify(run.series)) as AeroTaskRun['series']
  if (options.road) json.velodrome = null
  const params = veParamsOf(
    {
      cda: run.cda,
      crr: run.crr,
      mass_kg: 80,
      drivetrain_efficiency: null,
      wind_e: run.windE,
      wind_n: run.windN,
      offset_m: run.elevationOffsetM,
    },
    run.cda,
    run.crr,
  )
  const ve = veTrace(veSeriesOf(json), params, undefined, json.segments)
  const fit = json.fit as (number | null)[]
  let compared = 0
  let maxDiff = 0
  fit.forEach((f, i) => {
    if (f == null) return
    compared++
    maxDiff = Math.max(maxDiff, Math.abs(ve[i]! - f))
  })
  return { compared, maxDiff, ve, fit, json }
}

describe('the slider trace at the fitted CdA and Crr is the fitted trace', () => {
  itWith(
    ['aero/velodrome-2015-a.tcx'],
    'velodrome-2015-a.tcx: track model, freewheeling stretches cut',
    () => {
      const output = analyse('velodrome-2015-a.tcx')
      expect(output.veModel).toBe('track')
      expect(output.runs.length).toBeGreaterThan(0)
      const drifts: number[] = []
      for (const run of output.runs.filter((r) => r.method === 've')) {
        expect(run.series.velodrome).not.toBeNull()
        expect(run.series.segments.length).toBeGreaterThan(0)
        const { compared, maxDiff, ve, fit } = redraw(run)
        // Measured: 12 laps, 33–247 samples of each in the fit, max difference 4e-14 m.
        expect(compared).toBeGreaterThan(20)
        expect(maxDiff).toBeLessThan(1e-6)
        // Outside the fit's stretches nothing is drawn (NaN), as the fit has no trace there.
        const inside = new Uint8Array(fit.length)
        for (const [a, b] of run.series.segments) inside.fill(1, a, b)
        fit.forEach((f, i) => {
          if (!inside[i]) expect(f == null && Number.isNaN(ve[i]!)).toBe(true)
        })
        // The road model on the same samples (what the page drew before) drifts from the fit.
        drifts.push(redraw(run, { road: true }).maxDiff)
      }
      // Measured: 0.05–1.12 m per lap.
      expect(Math.min(...drifts)).toBeGreaterThan(0.01)
      expect(Math.max(...drifts)).toBeGreaterThan(0.5)
    },
  )

  itWith(
    ['aero/helmet-test-2018-10-03-07-45-28.fit'],
    'helmet-test-2018-10-03-07-45-28.fit: road model',
    () => {
      const output = analyse('helmet-test-2018-10-03-07-45-28.fit')
      expect(output.veModel).toBe('road')
      const ve = output.runs.filter((r) => r.method === 've')
      expect(ve.length).toBeGreaterThan(0)
      for (const run of ve) {
        expect(run.series.velodrome).toBeNull()
        const { compared, maxDiff } = redraw(run)
        expect(compared).toBeGreaterThan(60)
        expect(maxDiff).toBeLessThan(1e-6)
      }
    },
  )
})

// Sound sessions, as a property: every real activity file the product reads (the aero field tests,
// a road ride of another year, and a self-made 4-minute CSV without a date, elevation or GPS) is
// put into a session alone, in pairs and in threes, in upload order, the way the API does it
// (placed on the session clock by jobs/aero-analysis-data.ts offsetOf, analysed by
// jobs/aero-task.ts, stored by jobs/aero-results.ts, through JSON as the database keeps it).
// For each session: every number the page can show is inside its physical range or withheld with
// a reason, no interval has zero width, and the session page's runs table, comparison and CdA
// chart render (react-dom/server) without a NaN, an Infinity or a crash.
// The unit suite tries every file alone, every pair of the files under 45 minutes in both orders
// (each longer file with one short file, both orders) and every three of them in one order (the
// order rotates between combinations); VELOPTIMA_AERO_PROPERTY=full tries every pair and every
// three of all files in every order (docs/engine/aero.md gives its count).
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import type { AeroAnalysisVersion, AeroRun, AeroRunResults } from '@veloptima/contracts'
import { syntheticRide } from '../../../../../packages/engine/src/aero/synthetic-ride.ts'
import { dataFile, realFilesIn, SKIP_MARK } from '../../../../../scripts/test-data.ts'
import { offsetOf, type BlockRow } from '../../../../api/src/jobs/aero-analysis-data.ts'
import { comparisonOf, runResults } from '../../../../api/src/jobs/aero-results.ts'
import { analyseSession, readActivitySummary } from '../../../../api/src/jobs/aero-task.ts'
import type { RunBlock } from './api.ts'
import { CdaChart } from './cda-chart.tsx'
import { ComparisonSummary, RunsTable } from './session-runs.tsx'
import { readFileSync } from 'node:fs'

/** A 4-minute test without a date, elevation or GPS: `power,speed,time,lap`. */
function undatedCsv(): Uint8Array {
  const ride = syntheticRide({
    cda: 0.27,
    crr: 0.004,
    massKg: 80,
    laps: 1,
    lengthM: 2200,
    lapPowerW: [230],
    seed: 7,
  })
  const s = ride.samples
  const rows = ['power,speed,time,lap']
  for (let i = 0; i < s.t.length && s.t[i]! <= 240; i++)
    rows.push(`${s.power[i]!.toFixed(0)},${s.speed[i]!.toFixed(3)},${s.t[i]!.toFixed(0)},1`)
  return new TextEncoder().encode(rows.join('\n') + '\n')
}

const real = [...realFilesIn('aero').map((f) => `aero/${f}`), 'rides/edge810-vector-power.fit']
const present = real.filter((r) => dataFile(r) !== undefined)
const files: { name: string; bytes: Uint8Array }[] = [
  ...present.map((r) => ({
    name: r.split('/')[1]!,
    bytes: new Uint8Array(readFileSync(dataFile(r)!)),
  })),
  { name: 'undated-4min.csv', bytes: undatedCsv() },
]

/** Every figure of a run's stored results: in its physical range, or null with the reason. */
function checkRun(x: AeroRunResults, where: string) {
  const why = (f: string) => (x.withheld ?? []).some((w) => w.field === f && w.reason.length > 10)
  if (x.cda === null) expect(why('cda'), `${where}: a null CdA says why`).toBe(true)
  else expect(x.cda >= 0.1 && x.cda <= 0.8, `${where}: CdA ${x.cda}`).toBe(true)
  if (x.cda_ci95 === null) {
    if (x.cda !== null) expect(why('cda_ci95'), `${where}: no interval says why`).toBe(true)
  } else {
    const [lo, hi] = x.cda_ci95
    expect(hi > lo && lo >= 0 && hi <= 1, `${where}: interval ${lo}–${hi}`).toBe(true)
    expect(lo <= x.cda! && x.cda! <= hi).toBe(true)
  }
  if (x.crr === null) expect(why('crr')).toBe(true)
  else expect(x.crr >= 0.0015 && x.crr <= 0.02, `${where}: Crr ${x.crr}`).toBe(true)
  if (x.crr_ci95 === null) {
    if (x.crr !== null) expect(why('crr_ci95'), `${where}: no Crr interval says why`).toBe(true)
  } else expect(x.crr_ci95[1] > x.crr_ci95[0]).toBe(true)
  if (x.delta_cda !== null) expect(Math.abs(x.delta_cda) <= 0.7, where).toBe(true)
  if (x.delta_cda_ci95 !== null) {
    const [lo, hi] = x.delta_cda_ci95
    expect(hi > lo && lo >= -0.7 && hi <= 0.7, `${where}: ΔCdA interval ${lo}–${hi}`).toBe(true)
  }
  if (x.watts_saved !== null) expect(Math.abs(x.watts_saved) <= 1000, where).toBe(true)
  if (x.seconds_per_40km !== null) expect(Math.abs(x.seconds_per_40km) <= 3600, where).toBe(true)
  if (x.verdict === 'faster' || x.verdict === 'slower') expect(x.delta_cda_ci95).not.toBeNull()
}

/** One session: the files uploaded in this order, analysed, stored as JSON, the page rendered. */
function session(order: number[]) {
  const label = order.map((i) => files[i]!.name).join(' + ')
  const sources: BlockRow[] = []
  const taskFiles = order.map((i, k) => {
    const f = files[i]!
    const summary = readActivitySummary({ bytes: f.bytes, fileName: f.name })
    const offset = offsetOf(sources, summary)
    sources.push({ data: { summary, offset_s: offset } } as unknown as BlockRow)
    return {
      fileId: `f${k}`,
      name: f.name,
      bytes: f.bytes,
      offsetS: offset,
      configuration: f.name.replace(/\.[^.]+$/, ''),
      detect: true,
    }
  })
  // No time line across days: the session clock spans the files' own durations and 60 s gaps,
  // or one morning.
  const end = sources.reduce((m, s) => {
    const d = s.data as { summary: { durationS: number }; offset_s: number }
    return Math.max(m, d.offset_s + d.summary.durationS)
  }, 0)
  const total = sources.reduce(
    (a, s) => a + (s.data as { summary: { durationS: number } }).summary.durationS + 60,
    0,
  )
  expect(end, `${label}: session clock`).toBeLessThanOrEqual(Math.max(total, 0) + 12 * 3600 + 1)
  let output
  try {
    output = analyseSession({ files: taskFiles, analysis: { massKg: 80 }, runs: [] }, () => {})
  } catch (e) {
    // A session the analysis refuses says why, by name (no run in it).
    expect((e as { code?: string }).code, `${label}: ${(e as Error).message}`).toBe('no-runs')
    return
  }
  const comparison = comparisonOf(output)
  const results = output.runs.map(
    (r, i) => JSON.parse(JSON.stringify(runResults(r, i, comparison, 1))) as AeroRunResults,
  )
  results.forEach((x, i) => checkRun(x, `${label}: ${output.runs[i]!.label}`))
  const summaryComparison = JSON.parse(JSON.stringify(output.comparison)) as {
    baselineCda: number | null
    driftPerHour: number | null
    configurations: {
      cda: number | null
      deltaCdaCi95: [number | null, number | null]
      wattsSaved: number | null
      secondsPer40km: number | null
      withheld: { field: string; reason: string }[]
    }[]
  } | null
  if (summaryComparison) {
    const b = summaryComparison.baselineCda
    expect(b === null || (b >= 0.1 && b <= 0.8), `${label}: baseline CdA ${b}`).toBe(true)
    for (const k of summaryComparison.configurations) {
      if (k.cda !== null) expect(k.cda >= 0.1 && k.cda <= 0.8).toBe(true)
      const [lo, hi] = k.deltaCdaCi95
      if (lo !== null && hi !== null) expect(hi > lo).toBe(true)
      else expect(k.withheld.length).toBeGreaterThan(0)
    }
  }
  // The page: runs table, comparison, CdA chart.
  const runs: AeroRun[] = results.map((x, i) => ({
    id: `r${i}`,
    session_id: 's',
    name: output.runs[i]!.label,
    position: i,
    configuration: { setup: output.runs[i]!.configuration },
    is_baseline: comparison != null && x.delta_cda === 0,
    start_time: output.runs[i]!.startT,
    end_time: output.runs[i]!.endT,
    lap: output.runs[i]!.lap,
    results: x as unknown as AeroRun['results'],
    created_at: '2000-01-01T00:00:00.000Z',
    updated_at: '2000-01-01T00:00:00.000Z',
  }))
  const blocks = runs.map(
    (r) =>
      ({
        id: r.id,
        run_id: r.id,
        start_time: r.start_time,
        end_time: r.end_time,
        data: { name: r.name, results: r.results },
      }) as unknown as RunBlock,
  )
  const analysis = {
    summary: { comparison: summaryComparison, plan: JSON.parse(JSON.stringify(output.plan)) },
  } as unknown as AeroAnalysisVersion
  const html = renderToStaticMarkup(
    <>
      <RunsTable runs={runs} onBaseline={() => {}} pending={false} />
      <ComparisonSummary analysis={analysis} />
      <CdaChart runs={blocks} comparison={summaryComparison as never} />
    </>,
  )
  expect(html, label).not.toMatch(/NaN|Infinity|undefined/)
  expect(html.match(/data-testid="run-row"/g)?.length ?? 0).toBe(runs.length)
  // A run without a CdA (a recovery or a turnaround) is greyed and never labelled "Baseline".
  const rows = html.split('data-testid="run-row"').slice(1)
  results.forEach((x, i) => {
    if (x.cda !== null) return
    expect(rows[i]!, `${label}: run ${i}`).toMatch(/^ data-compared="no"/)
    expect(rows[i]!.split('</tr>')[0]).not.toContain('>Baseline<')
  })
  // Every CdA printed in the table lies in the physical range.
  for (const m of html.matchAll(/<span class="block">(\d+\.\d{3})(?: ± (\d+\.\d{3}))?<\/span>/g))
    expect(Number(m[1]) >= 0.1 && Number(m[1]) <= 0.8, `${label}: printed ${m[0]}`).toBe(true)
}

const full = process.env.VELOPTIMA_AERO_PROPERTY === 'full'
const reason = present.length < real.length ? ` [some skipped: ${SKIP_MARK}]` : ''
/** Files under 45 minutes: their sessions take well under a second each. */
const light = files
  .map((f, i) => ({ i, s: readActivitySummary({ bytes: f.bytes, fileName: f.name }) }))
  .filter((x) => x.s.durationS < 2700)
  .map((x) => x.i)
const heavy = files.map((_, i) => i).filter((i) => !light.includes(i))

describe(`sessions of every one, two and three real files${reason}`, () => {
  const n = files.length
  const all = files.map((_, i) => i)
  it('one file: every figure in range or withheld, the page renders', () => {
    for (let i = 0; i < n; i++) session([i])
  }, 600_000)
  it(`two files, both orders (${full ? 'every file' : 'the short files; each long one with one short file'})`, () => {
    const set = full ? all : light
    for (const i of set) for (const j of set) if (i !== j) session([i, j])
    if (!full)
      heavy.forEach((h, k) => {
        const other = light[k % light.length]!
        session([h, other])
        session([other, h])
      })
  }, 1_800_000)
  it(`three files, ${full ? 'every combination in every order' : 'every combination of the short files, one order each (rotating)'}`, () => {
    const set = full ? all : light
    let k = 0
    for (let a = 0; a < set.length; a++)
      for (let b = a + 1; b < set.length; b++)
        for (let c = b + 1; c < set.length; c++) {
          const [i, j, l] = [set[a]!, set[b]!, set[c]!]
          const perms = [
            [i, j, l],
            [j, l, i],
            [l, i, j],
            [i, l, j],
            [l, j, i],
            [j, i, l],
          ]
          if (full) for (const p of perms) session(p)
          else session(perms[k++ % 6]!)
        }
  }, 7_200_000)
})

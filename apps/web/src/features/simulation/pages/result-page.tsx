// One result version as the server's run computed it: time, time saved, a target time's outcome,
// the CP at the finish and what heat, altitude, durability and the rules cost, the plan (its
// targets first, every section as a detail), the charts along the course, the equipment ranking,
// the fuel plan, the exports and the printable race sheet.
import { Link, useParams } from 'react-router'
import { ExportButtons } from '../components/export-buttons.tsx'
import { OutputView } from '../components/preview-panel.tsx'
import { RaceSheet } from '../components/race-sheet.tsx'
import { RouteMap } from '../components/route-map.tsx'
import type { RaceDayWeatherRecord } from '@veloptima/contracts'
import { mapArrowsOf, WeatherStrip } from '../components/weather-strip.tsx'
import { formatQuantity, useUnits } from '../../../lib/units.ts'
import { Card, ErrorBox, Page, PageHeader } from '../components/ui.tsx'
import { useApiData, type Course } from '../lib/api.ts'
import { clockTime, formatDate, formatEventStart } from '../lib/format.ts'
import { PlanCpContext, sectionsOfSettings } from '../lib/plan-sections.ts'
import { pacingOf, type RunOutput } from '../lib/run-output.ts'
import { setupOfSnapshot, type Snapshot } from '../lib/snapshot.ts'
import { useResultOf } from '../components/item-unavailable.tsx'
import { FuelCard } from '../components/fuel-card.tsx'
import { planShown, PlanOutcomeCard } from '../components/plan-outcome.tsx'

const isOutput = (r: unknown): r is RunOutput =>
  typeof r === 'object' && r !== null && ['pacing', 'equipment'].includes((r as RunOutput).type)

export function ResultPage() {
  const { simId, id } = useParams()
  const { loaded: result, unavailable } = useResultOf(simId, id, 'the result')
  const { system } = useUnits()
  const r = result.data
  // The course's positions for the weather map (only when the run used the weather).
  const usedWeather =
    (r?.result as { weather?: { status?: string } } | null | undefined)?.weather?.status === 'used'
  const courseId = (r?.inputs as unknown as Snapshot | undefined)?.course?.id
  const course = useApiData<Course>(usedWeather && courseId ? `/api/courses/${courseId}` : null)
  const running = r && (r.status === 'queued' || r.status === 'running')
  if (unavailable || !r) return unavailable
  const snapshot = r.inputs as unknown as Snapshot
  const type = snapshot.optimization.type
  const base = `/simulation/optimizations/${type}/${simId}`
  const stored = isOutput(r.result) ? r.result : null
  // a target time out of reach shows the fastest legal plan (plan-outcome.tsx)
  const output = stored?.type === 'pacing' ? planShown(stored) : stored
  // Race-day weather the run used (or why not): docs/engine/weather.md.
  const weather = output ? (r.result as { weather?: RaceDayWeatherRecord }).weather : undefined
  const eventStart = snapshot.optimization.inputs?.environment?.event_start
  const sections = sectionsOfSettings(snapshot.course.settings)
  const finish = output ? clockTime(eventStart, pacingOf(output).time_s) : null
  // The CP the run used: the setup's, or this optimization's change to it.
  const override = snapshot.optimization.inputs?.rider_override?.cp
  const cp = typeof override === 'number' ? override : setupOfSnapshot(snapshot.rider_setup).cp
  const riderName = String(snapshot.rider_setup.name ?? '')
  const track = course.data?.track
  const arrows =
    weather?.status === 'used'
      ? mapArrowsOf(weather.points ?? [], (v) => formatQuantity('speed', v, system))
      : []
  const weatherMap =
    track && track.lat.length > 1 && arrows.length > 0 ? (
      <RouteMap
        track={track}
        arrows={arrows}
        className="h-56"
        label="Forecast wind at the forecast points along the course (arrows point where the wind blows)"
      />
    ) : undefined
  return (
    <Page>
      <PageHeader
        title={`${snapshot.optimization.name} – version ${r.version}${r.label ? ` (${r.label})` : ''}`}
        description={
          <>
            {`${snapshot.course.name} · ${riderName}`}
            {snapshot.optimization.inputs?.rider_override ? ' (adjusted)' : ''}
            <span className="print:hidden">
              {` · ${r.finished_at ? `computed ${formatDate(r.finished_at)}` : r.status}`}
            </span>
            {eventStart && finish ? (
              <span className="block text-base text-slate-900" data-testid="result-start-finish">
                Start <strong>{formatEventStart(eventStart)}</strong> · predicted finish{' '}
                <strong>{finish}</strong>
              </span>
            ) : null}
          </>
        }
      >
        <Link
          className="rounded-md px-3 py-2 text-sm font-semibold text-slate-700 ring-1 ring-slate-300 print:hidden"
          to={`${base}/results/${r.id}/input`}
        >
          Inputs of this result
        </Link>
        <Link
          className="rounded-md px-3 py-2 text-sm font-semibold text-slate-700 ring-1 ring-slate-300 print:hidden"
          to={base}
        >
          Edit optimization
        </Link>
      </PageHeader>
      <div className="mt-4 space-y-4">
        {r.status === 'failed' ? (
          <ErrorBox>{r.error?.message ?? 'The run failed.'}</ErrorBox>
        ) : null}
        {running ? (
          <p role="status" className="text-sm">
            This run is {r.status} ({Math.round(r.progress)} %).{' '}
            <button className="underline" onClick={result.reload}>
              Refresh
            </button>
          </p>
        ) : null}
        {weather ? (
          <WeatherStrip weather={weather} segments={snapshot.course.segments} map={weatherMap} />
        ) : null}
        {output ? (
          <PlanOutcomeCard output={pacingOf(output)} cpW={cp} windShown={weather !== undefined} />
        ) : null}
        {output ? (
          <PlanCpContext value={cp}>
            <OutputView
              output={output}
              syncKey={`result-${r.id}`}
              sections={sections}
              {...(eventStart ? { eventStart } : {})}
            />
          </PlanCpContext>
        ) : null}
        {output && pacingOf(output).status === 'optimal' ? (
          <>
            <FuelCard output={pacingOf(output)} {...(eventStart ? { eventStart } : {})} />
            <Card title="Export" className="print:hidden">
              <ExportButtons
                output={pacingOf(output)}
                snapshot={snapshot}
                result={r}
                cpW={cp ?? null}
              />
            </Card>
            <RaceSheet
              output={pacingOf(output)}
              courseName={snapshot.course.name}
              riderName={riderName}
              cpW={cp}
              eventStart={eventStart}
              footer={`${snapshot.optimization.name}, version ${r.version}`}
            />
          </>
        ) : null}
      </div>
    </Page>
  )
}

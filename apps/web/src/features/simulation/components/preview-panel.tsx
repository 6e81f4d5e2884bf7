import { formatQuantity, useUnits } from '../../../lib/units.ts'
import { clockTime, formatDuration, formatEventStart, formatSaving } from '../lib/format.ts'
import type { NamedSection } from '../lib/plan-sections.ts'
import {
  choicesLabel,
  pacingOf,
  type EquipmentOutput,
  type PacingOutput,
  type RunOutput,
} from '../lib/run-output.ts'
import type { PreviewState } from '../lib/use-preview.ts'
import { FuelCard } from './fuel-card.tsx'
import { DeltaChart, PlanCharts } from './plan-charts.tsx'
import { PlanOutcomeCard } from './plan-outcome.tsx'
import { PlanTable } from './plan-table.tsx'
import { Card, ErrorBox, Stat } from './ui.tsx'

/** What a plan is shown with: the event's start (clock times) and the course's named sections. */
export type PlanContext = {
  eventStart?: string | undefined
  sections?: readonly NamedSection[] | null | undefined
}

/** "Start Sun 14 Jun 2026, 09:30 · predicted finish 10:12:05" when the event start is known. */
export function StartFinish({ output, eventStart }: { output: PacingOutput; eventStart?: string }) {
  const finish = clockTime(eventStart, output.time_s)
  if (!eventStart || !finish) return null
  return (
    <p className="text-sm text-slate-700" data-testid="start-finish">
      Start <strong>{formatEventStart(eventStart)}</strong> · predicted finish{' '}
      <strong data-testid="finish-clock">{finish}</strong>
    </p>
  )
}

export function SummaryStats({ output }: { output: PacingOutput }) {
  const { system } = useUnits()
  const distance = output.series?.distance_m.at(-1)
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
      <Stat
        label="Predicted time"
        value={<span data-testid="predicted-time">{formatDuration(output.time_s)}</span>}
      />
      <Stat
        label="Time saved vs constant power"
        value={
          <span data-testid="time-saved">
            {output.time_saved_s !== null ? formatSaving(output.time_saved_s) : '—'}
          </span>
        }
      />
      <Stat
        label="Constant power baseline"
        value={
          output.baseline
            ? `${Math.round(output.baseline.power_w)} W · ${formatDuration(output.baseline.time_s)}`
            : '—'
        }
      />
      <Stat
        label="Average speed · NP"
        value={
          distance && output.time_s > 0
            ? `${formatQuantity('speed', distance / output.time_s, system)} · ${Math.round(output.normalized_power_w ?? 0)} W`
            : '—'
        }
      />
    </dl>
  )
}

/** The per-segment optimum's time and saving (older stored results call it optimal). */
function boundOf(output: PacingOutput): { time: number; saved: number | null } | null {
  const time = output.bound_time_s ?? output.optimal_time_s
  if (time === undefined || !Number.isFinite(time)) return null
  return { time, saved: output.bound_time_saved_s ?? output.optimal_time_saved_s ?? null }
}

/**
 * The bound next to the plan: the per-segment optimum (one power every few hundred metres, more
 * than a rider can follow) and how much of its gain the plan keeps.
 */
export function BoundNote({ output }: { output: PacingOutput }) {
  const bound = boundOf(output)
  if (!bound) return null
  const kept =
    bound.saved !== null && bound.saved > 0.5 && output.time_saved_s !== null
      ? Math.round((100 * Math.max(0, output.time_saved_s)) / bound.saved)
      : null
  const targets = output.targets?.length ?? 0
  return (
    <p className="text-xs text-slate-600" data-testid="plan-bound">
      {targets > 0
        ? `The plan: ${targets} target${targets === 1 ? '' : 's'} over ${output.plan.length} section${output.plan.length === 1 ? '' : 's'}, its time as ridden. `
        : ''}
      Bound (per-segment optimum, not rideable):{' '}
      <span className="tabular-nums" data-testid="bound-time">
        {formatDuration(bound.time)}
      </span>
      {bound.saved !== null ? `, saves ${formatSaving(bound.saved)}` : ''}
      {kept !== null ? `; the plan keeps ${kept} % of that gain.` : '.'}
    </p>
  )
}

/** Says so, and why, when the rideable plan is the constant baseline. */
export function SavingNote({ output }: { output: PacingOutput }) {
  if (output.time_saved_s === null || output.time_saved_s > 0.5 || !output.baseline) return null
  const bound = boundOf(output)
  return (
    <p className="rounded-md bg-amber-50 p-2 text-sm text-amber-900 ring-1 ring-amber-200">
      {output.reason ? (
        <span data-testid="plan-reason">
          {output.reason.charAt(0).toUpperCase() + output.reason.slice(1)}.{' '}
        </span>
      ) : (
        <>
          On this course the plan with this number of targets is no faster than riding a steady{' '}
          {Math.round(output.baseline.power_w)} W
          {bound?.saved != null && bound.saved > 0.5
            ? ` (pacing segment by segment would save ${formatSaving(bound.saved)}, more targets than a rider can follow)`
            : ''}
          .{' '}
        </>
      )}
      Ride the steady {Math.round(output.baseline.power_w)} W, or allow more targets or shorter
      sections.
    </p>
  )
}

export function EquipmentRanking({ output }: { output: EquipmentOutput }) {
  return (
    <div className="space-y-3">
      <table
        className="min-w-full divide-y divide-slate-200 text-sm"
        data-testid="equipment-ranking"
      >
        <caption className="mb-1 text-left text-sm font-semibold text-slate-900">
          Equipment ranking ({output.combinations} combinations)
        </caption>
        <thead className="bg-slate-50 text-left text-xs font-semibold text-slate-600">
          <tr>
            <th className="px-2 py-2">Rank</th>
            <th className="px-2 py-2">Combination</th>
            <th className="px-2 py-2" title="Each combination's per-segment optimum">
              Optimum time
            </th>
            <th className="px-2 py-2">Δ time vs baseline</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {output.ranking.map((c, i) => (
            <tr key={choicesLabel(c.choices)}>
              <td className="px-2 py-1.5">{i + 1}</td>
              <td className="px-2 py-1.5">
                {choicesLabel(c.choices)}
                {choicesLabel(c.choices) === choicesLabel(output.baseline.choices)
                  ? ' (baseline)'
                  : ''}
              </td>
              <td className="px-2 py-1.5 tabular-nums">
                {c.optimized ? '' : '≤ '}
                {formatDuration(c.time_s)}
              </td>
              <td className="px-2 py-1.5 tabular-nums">
                {Math.abs(c.delta_s) < 0.05 ? '—' : formatSaving(c.delta_s)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="text-xs text-slate-500">
        Combinations are compared on their per-segment optimum, the bound a rideable plan comes
        close to; the plan below is the winner’s, with its own time. ≤: not optimized exactly, a
        time the combination is sure to beat or match (it cannot win).
      </p>
      <DeltaChart
        lines={output.ranking
          .filter((c) => choicesLabel(c.choices) !== choicesLabel(output.baseline.choices))
          .map((c) => ({ label: choicesLabel(c.choices), ...c.delta_time }))}
      />
    </div>
  )
}

/** Everything a run's output shows: summary, ranking, plan, charts. */
export function OutputView({
  output,
  syncKey,
  eventStart,
  sections,
}: { output: RunOutput; syncKey: string } & PlanContext) {
  const pacing = pacingOf(output)
  if (pacing.status === 'infeasible') {
    return <ErrorBox>These inputs cannot be ridden: {pacing.reason}</ErrorBox>
  }
  return (
    <div className="space-y-4">
      <SummaryStats output={pacing} />
      <BoundNote output={pacing} />
      <SavingNote output={pacing} />
      {output.type === 'equipment' ? (
        <Card className="print:break-inside-avoid">
          <EquipmentRanking output={output} />
        </Card>
      ) : null}
      <Card title={output.type === 'equipment' ? 'Plan of the fastest combination' : 'Plan'}>
        <PlanTable rows={pacing.plan} eventStart={eventStart} sections={sections} />
      </Card>
      {pacing.series ? (
        <Card title="Along the course" className="print:hidden">
          <PlanCharts series={pacing.series} syncKey={syncKey} />
        </Card>
      ) : null}
    </div>
  )
}

/**
 * The first answer of a pacing preview: the best steady power (a plan to ride at once) and the
 * per-segment optimum (the bound) with its ride along the course, while the rideable plan is
 * refined (lib/preview.ts).
 */
export function FirstAnswerView({ output, syncKey }: { output: PacingOutput; syncKey: string }) {
  const { system } = useUnits()
  if (output.status === 'infeasible') {
    return <ErrorBox>These inputs cannot be ridden: {output.reason}</ErrorBox>
  }
  const bound = boundOf(output)
  const distance = output.series?.distance_m.at(-1)
  return (
    <div className="space-y-4">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Stat
          label="Steady power"
          value={
            <span data-testid="first-steady">
              {output.baseline
                ? `${Math.round(output.baseline.power_w)} W · ${formatDuration(output.baseline.time_s)}`
                : '—'}
            </span>
          }
        />
        <Stat
          label="Per-segment optimum"
          value={
            <span data-testid="first-bound-time">{bound ? formatDuration(bound.time) : '—'}</span>
          }
        />
        <Stat
          label="Its saving vs steady"
          value={
            <span data-testid="first-bound-saved">
              {bound?.saved != null ? formatSaving(bound.saved) : '—'}
            </span>
          }
        />
        <Stat
          label="Its average speed"
          value={
            distance && bound && bound.time > 0
              ? formatQuantity('speed', distance / bound.time, system)
              : '—'
          }
        />
      </dl>
      <p className="text-xs text-slate-600">
        The per-segment optimum changes power every few hundred metres, more than a rider can
        follow: it is the bound the rideable plan comes close to. Until the plan is ready, the
        steady power is the plan to ride.
      </p>
      <Card title="Plan">
        <p className="text-sm text-slate-600">Refining the rideable plan…</p>
      </Card>
      {output.series ? (
        <Card title="The per-segment optimum along the course" className="print:hidden">
          <PlanCharts series={output.series} syncKey={syncKey} />
        </Card>
      ) : null}
    </div>
  )
}

/** What the preview says about the answer on screen: first, refined, or out of date. */
function previewStatus(state: PreviewState): string {
  const ms = Math.round(state.ms ?? 0)
  if (state.stage === 'first' && state.answers === state.seq) {
    return `First answer in ${ms} ms: the steady power and the per-segment optimum; refining the rideable plan…`
  }
  if (state.costsPending) {
    return `Plan computed in your browser in ${ms} ms; working out what each effect and rule costs it…`
  }
  if (state.computing) return 'Updating…'
  return `Computed in your browser in ${ms} ms, with the engine the saved run uses.`
}

export function PreviewPanel({
  state,
  missing,
  eventStart,
  sections,
  forecastWind = false,
  cpW = null,
}: {
  state: PreviewState
  missing: string | null
  /** The preview rides in the race-day forecast's wind (lib/forecast-preview.ts). */
  forecastWind?: boolean
  /** The rider's CP at the start, W (for the CP at the finish). */
  cpW?: number | null
} & PlanContext) {
  if (missing) return <p className="text-sm text-slate-500">{missing}</p>
  if (state.error) return <ErrorBox>The preview cannot be computed: {state.error}</ErrorBox>
  if (!state.output) {
    return (
      <p role="status" className="text-sm text-slate-500">
        Computing the preview…
      </p>
    )
  }
  const first = state.stage === 'first'
  return (
    <div className="space-y-4" data-testid="preview" data-stage={state.stage}>
      <p
        className={`text-xs ${first ? 'font-medium text-brand-700' : 'text-slate-500'}`}
        role="status"
        data-testid="preview-status"
      >
        {previewStatus(state)}
      </p>
      {eventStart ? (
        <p className="text-sm text-amber-800" data-testid="preview-weather-note">
          {forecastWind
            ? 'This preview rides in the forecast’s wind at the hours of a steady 36 km/h, with the air typed here. The run reads wind and air where and when the optimized plan puts you, so its time can differ.'
            : 'This preview uses the wind and air typed here. The race-day forecast for this start is read along the course when you run the optimization (where and when the plan puts you), so the run’s time can differ.'}
        </p>
      ) : null}
      {first ? (
        <FirstAnswerView output={pacingOf(state.output)} syncKey="preview" />
      ) : (
        <>
          {eventStart ? (
            <StartFinish output={pacingOf(state.output)} eventStart={eventStart} />
          ) : null}
          <PlanOutcomeCard output={pacingOf(state.output)} cpW={cpW} windShown={forecastWind} />
          <OutputView
            output={state.output}
            syncKey="preview"
            eventStart={eventStart}
            sections={sections}
          />
          {pacingOf(state.output).status === 'optimal' ? (
            <FuelCard output={pacingOf(state.output)} {...(eventStart ? { eventStart } : {})} />
          ) : null}
        </>
      )}
    </div>
  )
}

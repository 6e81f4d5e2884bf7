// "Plan a test" (/aero/planner): before a field test, how many bracketed runs of the baseline and
// of a configuration resolve the ΔCdA asked about, from the run-to-run scatter of the user's own
// sessions, and the calmest hours of the day at the place (docs/engine/aero.md, "Test planner").
// The server computes the answer (GET /api/aero/planner); the page shows it.
import { zodResolver } from '@hookform/resolvers/zod'
import { useForm, useWatch } from 'react-hook-form'
import { useQuery } from '@tanstack/react-query'
import { useSearchParams } from 'react-router'
import type { z } from 'zod'
import type { AeroPlanner, AeroPlannerHour, AeroPlannerWeather } from '@veloptima/contracts'
import { Field, FormRow, inputClass } from '../../components/form.tsx'
import { PageSpinner } from '../../components/spinner.tsx'
import { formatDuration } from '../../lib/duration.ts'
import { formatQuantity, useUnits, type UnitSystem } from '../../lib/units.ts'
import { Button, Card } from './ui.tsx'
import { Alert } from './session-parts.tsx'
import {
  formOfQuery,
  plannerFormSchema,
  plannerParams,
  plannerQuery,
  queryOfParams,
  type PlannerForm,
} from './lib/planner.ts'

/** Riding time beyond which the test does not fit one outing, s. */
const ONE_OUTING_S = 4 * 3600

const tomorrow = () => {
  const d = new Date(Date.now() + 86_400_000)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`
}

const hh = (h: number) => `${String(h).padStart(2, '0')}:00`

const COMPASS = ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW']
const compass = (deg: number) => COMPASS[Math.round((((deg % 360) + 360) % 360) / 45) % 8]!

const temperature = (c: number, system: UnitSystem) =>
  system === 'metric' ? `${c.toFixed(0)} °C` : `${((c * 9) / 5 + 32).toFixed(0)} °F`

function PlannerFields({
  onPlan,
  initial,
}: {
  onPlan(params: URLSearchParams): void
  initial: PlannerForm
}) {
  const { handleSubmit, setValue, control, formState } = useForm<
    PlannerForm,
    unknown,
    z.output<typeof plannerFormSchema>
  >({ resolver: zodResolver(plannerFormSchema), defaultValues: initial })
  const f = { ...initial, ...useWatch({ control }) }
  const field = (key: keyof PlannerForm, label: string, unit?: string, hint?: string) => (
    <Field
      label={label}
      unit={unit}
      hint={hint}
      value={f[key]}
      onChange={(v) => setValue(key, v)}
      error={formState.errors[key]?.message}
    />
  )
  return (
    <form
      className="grid gap-4 sm:grid-cols-3"
      onSubmit={handleSubmit((q) => onPlan(plannerParams(q)))}
      aria-label="Plan a test"
    >
      {field(
        'delta',
        'ΔCdA to resolve',
        'm²',
        '0.001–0.05; a helmet or a position change: 0.003–0.010',
      )}
      {field('power', 'Power', '%', 'the chance to resolve a true ΔCdA of that size')}
      {field('runMinutes', 'Run length', 'min')}
      {field('lat', 'Latitude', '°', 'the place of the test (optional)')}
      {field('lon', 'Longitude', '°')}
      <FormRow
        label="Date"
        hint="the day of the test (local)"
        error={formState.errors.date?.message}
      >
        {(c) => (
          <input
            id={c.id}
            type="date"
            value={f.date}
            onChange={(e) => setValue('date', e.target.value)}
            aria-invalid={c.invalid || undefined}
            aria-describedby={c.describedBy}
            className={`${inputClass} mt-1`}
          />
        )}
      </FormRow>
      {field('fromHour', 'Ride from', 'h', 'local hour')}
      {field('toHour', 'Ride until', 'h')}
      <div className="flex items-end">
        <Button type="submit">Plan</Button>
      </div>
    </form>
  )
}

function Runs({ a }: { a: AeroPlanner }) {
  const n = a.runs_per_configuration
  const sd = a.run_sd_m2.toFixed(4)
  const from = a.scatter_from
  return (
    <Card title="Runs to ride" className="mt-6">
      <p className="text-lg text-slate-900" data-testid="planner-runs">
        <strong className="text-3xl font-bold tabular-nums">{n.toLocaleString('en')}</strong> runs
        of the baseline and {n.toLocaleString('en')} of the configuration
      </p>
      <p className="mt-2 text-sm leading-6 text-slate-600">
        to resolve a ΔCdA of {a.delta_cda_m2} m² with {Math.round(a.power * 100)} % power (a
        two-sided 5 % test). Ride them bracketed, the baseline first and last (A B A B … A):{' '}
        {a.total_runs.toLocaleString('en')} runs of {a.run_minutes} min,{' '}
        <span data-testid="planner-time">{formatDuration(a.riding_time_s)}</span> of riding
        (h:mm:ss) without the turns and rests.
      </p>
      {a.riding_time_s > ONE_OUTING_S ? (
        <p className="mt-2 text-sm font-medium text-amber-800">
          More than four hours of riding: ask about a larger ΔCdA, accept less power, or lower the
          scatter (longer runs, a calmer day, a steadier course).
        </p>
      ) : null}
      <p className="mt-3 text-sm text-slate-600" data-testid="planner-scatter">
        Run-to-run scatter σ = {sd} m²
        {a.run_sd_source === 'sessions'
          ? `, from your ${from.sessions} session${from.sessions === 1 ? '' : 's'} with repeats (${from.runs} runs of a repeated configuration, ${from.degrees_of_freedom} degrees of freedom).`
          : ': a typical value: your sessions have no repeats yet.'}
      </p>
    </Card>
  )
}

function HourRow({ h, system }: { h: AeroPlannerHour; system: UnitSystem }) {
  return (
    <tr className={h.calm ? 'bg-emerald-50' : undefined}>
      <td className="py-2 pr-3 font-medium whitespace-nowrap text-slate-900 tabular-nums">
        {h.local_time}
        {h.calm ? (
          <span className="ml-2 rounded-full bg-emerald-700 px-2 py-0.5 text-xs font-semibold text-white">
            calm
          </span>
        ) : null}
      </td>
      <td className="py-2 pr-3 tabular-nums">
        {formatQuantity('speed', h.wind_speed_mps, system)}
        <span className="block text-xs text-slate-500">from {compass(h.wind_from_deg)}</span>
      </td>
      <td className="py-2 pr-3 tabular-nums">
        {h.gust_mps === null ? '—' : formatQuantity('speed', h.gust_mps, system, 0)}
      </td>
      <td className="py-2 tabular-nums">{temperature(h.temperature_c, system)}</td>
    </tr>
  )
}

function Hours({ w }: { w: AeroPlannerWeather }) {
  const { system } = useUnits()
  if (w.status === 'disabled') {
    return (
      <p className="text-sm text-slate-700" data-testid="planner-weather">
        No weather on this server: it is set to fetch no forecast (WEATHER_PROVIDER=none), so the
        page cannot rank the day’s hours. Pick a calm hour yourself: wind changes CdA more than most
        of what you test.
      </p>
    )
  }
  if (w.status === 'not_asked') {
    return (
      <p className="text-sm text-slate-600" data-testid="planner-weather">
        Give the place (latitude and longitude) and the date to rank the day’s hours by wind.
      </p>
    )
  }
  if (w.status === 'unavailable') {
    return <Alert>No forecast for that place and day: {w.message}.</Alert>
  }
  return (
    <>
      <p className="mb-3 text-sm text-slate-600" data-testid="planner-weather">
        {w.date}, {hh(w.from_hour)}–{hh(w.to_hour)} local at {w.lat.toFixed(3)}°, {w.lon.toFixed(3)}
        °, calmest first: wind at rider height (× {w.wind_height_factor} of the 10 m wind); forecast
        of {new Date(w.issued_at).toLocaleString('en-GB')}.
      </p>
      <table className="w-full text-left text-sm text-slate-700">
        <caption className="sr-only">The day’s hours, calmest first</caption>
        <thead className="text-xs text-slate-500">
          <tr>
            <th scope="col" className="pr-3 pb-1 font-medium">
              Hour
            </th>
            <th scope="col" className="pr-3 pb-1 font-medium">
              Wind
            </th>
            <th scope="col" className="pr-3 pb-1 font-medium">
              Gusts (10 m)
            </th>
            <th scope="col" className="pb-1 font-medium">
              Air
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {w.hours.map((h) => (
            <HourRow key={h.time} h={h} system={system} />
          ))}
        </tbody>
      </table>
    </>
  )
}

export function PlannerPage() {
  const [params, setParams] = useSearchParams()
  const query = queryOfParams(params)
  const q = useQuery(plannerQuery(query))
  const initial = formOfQuery(params.has('date') ? query : { ...query, date: tomorrow() })
  return (
    <>
      <header className="mb-8">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">Plan a test</h1>
        <p className="mt-2 max-w-3xl text-sm leading-6 text-slate-600">
          Before a field test: how many bracketed runs of the baseline and of the configuration
          resolve the difference you care about, and which hours of the day are calmest.
        </p>
      </header>
      <Card title="The question">
        <PlannerFields initial={initial} onPlan={(p) => setParams(p, { replace: true })} />
      </Card>
      {q.isPending ? (
        <PageSpinner />
      ) : q.isError ? (
        <div className="mt-6">
          <Alert>{q.error.message}</Alert>
        </div>
      ) : (
        <>
          <Runs a={q.data} />
          <Card title="When to ride" className="mt-6">
            <Hours w={q.data.weather} />
          </Card>
        </>
      )}
    </>
  )
}

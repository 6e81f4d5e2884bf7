import { useEffect, useMemo, useState } from 'react'
import {
  recommendWheels,
  type CourseSegmentInput,
  type Handling,
  type Terrain,
  type WheelsInput,
  type WheelsResult,
} from '@veloptima/engine'
import { useAuth } from '../../../lib/auth.ts'
import { formatQuantity, useUnits } from '../../../lib/units.ts'
import { courseSegments, listCourses, type CourseSummary } from '../api/courses.ts'
import { courseForecast, forecastWind, type ForecastWind } from '../api/weather.ts'
import { CheckboxField, Field, NumberField, Select } from '../../../components/form.tsx'
import { fixedUnit, formatInput, quantity } from '../../../components/quantity.ts'
import { useQuantityField } from '../../../components/use-quantity-field.ts'
import { formatDuration } from '../lib/display.ts'
import {
  Assumptions,
  FILL_IN,
  solveTool,
  ToolCard,
  ToolForm,
  ToolResult,
  Warnings,
  type ToolOutcome,
} from './fields.tsx'

const watts = fixedUnit('W', 0)
const windSpeed = quantity('speed', 1)
const START = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/

/** Tomorrow 09:00 in the browser's time, as a datetime-local value. */
function tomorrowMorning(): string {
  const d = new Date()
  d.setDate(d.getDate() + 1)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T09:00`
}

/** "2026-06-01 07:30 UTC" from an ISO time. */
function utcMinute(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`
}

/**
 * The course forecast for the wheel tool: fetched when the option is on with a course and a
 * start; null while it loads or when off. Errors of the call become an unavailable reason.
 */
function useCourseForecast(on: boolean, courseId: string, start: string) {
  const key = on && courseId && START.test(start) ? `${courseId}|${start}` : ''
  const [state, setState] = useState<{ key: string; value: ForecastWind } | null>(null)
  useEffect(() => {
    if (!key) return
    const ctl = new AbortController()
    courseForecast(courseId, start, ctl.signal)
      .then((f) => setState({ key, value: forecastWind(f) }))
      .catch((e: unknown) => {
        if (ctl.signal.aborted) return
        setState({ key, value: { ok: false, reason: (e as Error).message } })
      })
    return () => ctl.abort()
  }, [key, courseId, start])
  return key && state?.key === key ? { key, value: state.value } : null
}

const LABELS: Record<string, string> = {
  riderMassKg: 'Rider mass',
  bikeMassKg: 'Bike and kit',
  windSpeedMps: 'Wind speed',
  powerW: 'Power',
}

const ratingStyle: Record<string, string> = {
  stable: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  manageable: 'bg-amber-50 text-amber-800 ring-amber-200',
  unstable: 'bg-red-50 text-red-800 ring-red-200',
}

function wheelName(id: string): string {
  return id === 'disc' ? 'Disc' : `${id} mm`
}

/** The user's courses, for the optional course; an empty list when there are none or no API. */
function useCourses(): CourseSummary[] {
  const { user } = useAuth()
  const [courses, setCourses] = useState<CourseSummary[]>([])
  useEffect(() => {
    if (!user) return
    const ctl = new AbortController()
    listCourses(ctl.signal)
      .then(setCourses)
      .catch(() => setCourses([]))
    return () => ctl.abort()
  }, [user])
  return courses
}

export function WheelCalculator() {
  const { system } = useUnits()
  const rider = useQuantityField(quantity('mass'), 70)
  const bike = useQuantityField(quantity('mass'), 8)
  const wind = useQuantityField(windSpeed, 15 / 3.6)
  const power = useQuantityField(watts, undefined, true)
  const [terrain, setTerrain] = useState<Terrain>('flat')
  const [handling, setHandling] = useState<Handling>('medium')
  const [allowDisc, setAllowDisc] = useState(true)
  const courses = useCourses()
  const [courseId, setCourseId] = useState('')
  const [course, setCourse] = useState<{
    id: string
    value: { name: string; segments: CourseSegmentInput[] } | null
  } | null>(null)
  useEffect(() => {
    if (!courseId) return
    const ctl = new AbortController()
    courseSegments(courseId, ctl.signal)
      .then((value) => setCourse({ id: courseId, value }))
      .catch(() => setCourse({ id: courseId, value: null }))
    return () => ctl.abort()
  }, [courseId])
  const selected = courseId && course?.id === courseId ? course.value : null
  const [useForecast, setUseForecast] = useState(false)
  const [start, setStart] = useState(tomorrowMorning)
  const forecastOn = useForecast && courseId !== ''
  const forecast = useCourseForecast(forecastOn, courseId, start)
  const fromForecast = forecast?.value.ok ? forecast.value : null
  // The forecast fills the wind box once per answer (state adjusted during render, React's
  // documented pattern); the user may still type over it.
  const [filled, setFilled] = useState('')
  if (fromForecast && forecast && filled !== forecast.key) {
    setFilled(forecast.key)
    wind.onChange(formatInput(fromForecast.windSpeedMps, windSpeed, system))
  }
  const windFromDeg = forecastOn && fromForecast ? fromForecast.windFromDeg : undefined

  const invalid = [rider, bike, wind, power].some((f) => f.invalid)
  const [riderKg, bikeKg, windMps, powerW] = [rider.si, bike.si, wind.si, power.si]
  const outcome = useMemo((): ToolOutcome<WheelsResult> => {
    if (invalid || riderKg === undefined || windMps === undefined) {
      return { error: FILL_IN }
    }
    const input: WheelsInput = {
      riderMassKg: riderKg,
      windSpeedMps: windMps,
      handling,
      terrain,
      allowDisc,
    }
    if (bikeKg !== undefined) input.bikeMassKg = bikeKg
    if (powerW !== undefined) input.powerW = powerW
    if (selected) input.course = selected
    if (windFromDeg !== undefined) input.windFromDeg = windFromDeg
    return solveTool(() => recommendWheels(input), LABELS)
  }, [
    invalid,
    riderKg,
    bikeKg,
    windMps,
    powerW,
    handling,
    terrain,
    allowDisc,
    selected,
    windFromDeg,
  ])

  return (
    <ToolCard
      title="Wheel depth"
      labelledBy="wheels-title"
      intro="Front and rear rim depth from the time each saves on the course, with the front limited by crosswind handling."
    >
      <ToolForm>
        <NumberField name="wheels_rider_mass" label="Rider mass" field={rider} />
        <NumberField name="wheels_bike_mass" label="Bike and kit" field={bike} />
        <Select
          name="terrain"
          label="Terrain"
          value={terrain}
          onChange={setTerrain}
          options={[
            { value: 'flat', label: 'Flat' },
            { value: 'rolling', label: 'Rolling' },
            { value: 'hilly', label: 'Hilly' },
            { value: 'mountain', label: 'Mountain' },
          ]}
        />
        {courses.length > 0 ? (
          <Select
            name="course"
            label="Or one of your courses"
            value={courseId}
            onChange={setCourseId}
            options={[
              { value: '', label: 'No course: use the terrain' },
              ...courses.map((c) => ({
                value: c.id,
                label: c.stats
                  ? `${c.name} (${formatQuantity('distance', c.stats.distance, system)})`
                  : c.name,
              })),
            ]}
          />
        ) : (
          <p className="self-end text-xs text-slate-500">
            Courses you upload under Simulation can be used here instead of a terrain type.
          </p>
        )}
        {courseId ? (
          <CheckboxField
            name="use_forecast"
            label="Use the forecast for my course and date"
            checked={useForecast}
            onChange={(on) => {
              setUseForecast(on)
              if (!on) setFilled('')
            }}
          />
        ) : null}
        {forecastOn ? (
          <Field
            name="forecast_start"
            label="Start (local time at the course)"
            type="datetime-local"
            value={start}
            onChange={setStart}
            error={START.test(start) ? undefined : 'Enter the date and time of the start.'}
          />
        ) : null}
        <NumberField
          name="wind"
          label="Expected wind"
          field={wind}
          hint="Forecast mean wind (10 m)."
        />
        <Select
          name="handling"
          label="Handling confidence"
          value={handling}
          onChange={setHandling}
          options={[
            { value: 'low', label: 'Low: I dislike being pushed' },
            { value: 'medium', label: 'Medium' },
            { value: 'high', label: 'High: experienced on deep wheels' },
          ]}
        />
        <NumberField
          name="power"
          label="Power"
          field={power}
          placeholder={riderKg ? String(Math.round(riderKg * 3)) : ''}
          hint="Empty: 3 W/kg."
        />
        <CheckboxField
          name="allow_disc"
          label="Disc rear allowed"
          checked={allowDisc}
          onChange={setAllowDisc}
        />
      </ToolForm>
      {courseId && course?.id === courseId && !course.value ? (
        <p className="mt-2 text-xs text-amber-700">
          This course has no profile yet; the terrain type is used instead.
        </p>
      ) : null}
      {forecastOn && START.test(start) ? (
        <p className="mt-2 text-xs text-slate-600" role="status" data-testid="wheels-forecast">
          {!forecast
            ? 'Reading the forecast for this course and start…'
            : forecast.value.ok
              ? `Wind from the forecast issued ${utcMinute(forecast.value.issuedAt)} for the start at ${utcMinute(forecast.value.startUtc)}: ${formatQuantity('speed', forecast.value.windSpeedMps, system, 1)} at 10 m from ${Math.round(forecast.value.windFromDeg)}°, the mean along the course.`
              : `Forecast unavailable (${forecast.value.reason}); the typed wind is used.`}
        </p>
      ) : null}

      <ToolResult outcome={outcome}>
        {(r) => (
          <>
            <dl className="grid grid-cols-3 gap-3">
              <div className="rounded-lg bg-brand-50 p-3">
                <dt className="text-sm font-medium text-slate-600">Front</dt>
                <dd
                  data-testid="wheels-front"
                  className="text-xl font-bold sm:text-2xl text-brand-700"
                >
                  {wheelName(r.front.wheel)}
                </dd>
              </div>
              <div className="rounded-lg bg-brand-50 p-3">
                <dt className="text-sm font-medium text-slate-600">Rear</dt>
                <dd
                  data-testid="wheels-rear"
                  className="text-xl font-bold sm:text-2xl text-brand-700"
                >
                  {wheelName(r.rear.wheel)}
                </dd>
              </div>
              <div className="rounded-lg bg-brand-50 p-3">
                <dt className="text-sm font-medium text-slate-600">Time gained</dt>
                <dd
                  data-testid="wheels-gain"
                  className="text-xl font-bold sm:text-2xl text-brand-700"
                >
                  {formatDuration(r.timeGainedS)}
                </dd>
              </div>
            </dl>
            <p className="mt-3 text-sm text-slate-700" data-testid="wheels-explanation">
              On {r.courseName} ({formatQuantity('distance', r.distanceM, system)}), this pair saves{' '}
              {formatDuration(r.timeGainedS)} against 30 mm wheels through our simulation. In a{' '}
              {formatQuantity('speed', r.wind.gustMps, system, 0)} side gust the front wheel pushes
              with {r.front.stability.sideForceN.toFixed(1)} N,{' '}
              {(r.front.stability.ratio * 100).toFixed(2)} % of your weight with the bike:{' '}
              <span
                className={`rounded px-1.5 py-0.5 text-xs font-medium ring-1 ${ratingStyle[r.front.stability.rating]}`}
              >
                {r.front.stability.rating}
              </span>
            </p>
            <Warnings items={r.warnings} />
            <table className="mt-4 w-full text-left text-sm">
              <caption className="sr-only">Every wheel against 30 mm wheels</caption>
              <thead className="text-xs text-slate-500">
                <tr>
                  <th scope="col" className="py-1 font-medium">
                    Wheel
                  </th>
                  <th scope="col" className="py-1 font-medium">
                    Front: gain, handling
                  </th>
                  <th scope="col" className="py-1 font-medium">
                    Rear: gain
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100 text-slate-700">
                {r.candidates.rear.map((rear) => {
                  const front = r.candidates.front.find((f) => f.wheel === rear.wheel)
                  return (
                    <tr key={rear.wheel}>
                      <th scope="row" className="py-1 font-medium">
                        {wheelName(rear.wheel)}
                      </th>
                      <td className="py-1">
                        {front ? (
                          <>
                            {formatDuration(front.timeGainedS)},{' '}
                            <span className="text-slate-500">{front.stability.rating}</span>
                          </>
                        ) : (
                          '—'
                        )}
                      </td>
                      <td className="py-1">{formatDuration(rear.timeGainedS)}</td>
                    </tr>
                  )
                })}
              </tbody>
            </table>
            <Assumptions items={[r.method, ...r.assumptions]} />
          </>
        )}
      </ToolResult>
    </ToolCard>
  )
}

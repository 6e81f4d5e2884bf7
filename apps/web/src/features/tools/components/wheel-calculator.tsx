import { useMemo, useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import {
  recommendWheels,
  type Handling,
  type Terrain,
  type WheelsInput,
  type WheelsResult,
} from '@veloptima/engine'
import { useAuth } from '../../../lib/auth.ts'
import { formatDuration } from '../../../lib/duration.ts'
import { formatQuantity, useUnits, type UnitSystem } from '../../../lib/units.ts'
import type { ForecastWind } from '../api/weather.ts'
import { CheckboxField, Field, NumberField, optionsOf, Select } from '../../../components/form.tsx'
import { fixedUnit, formatInput, quantity } from '../../../components/quantity.ts'
import { useQuantityField, type QuantityField } from '../../../components/use-quantity-field.ts'
import { courseChoicesQuery, courseSegmentsQuery, courseWindQuery } from '../lib/queries.ts'
import { Calculator, ResultTile, solveInput, ToolDetails, useChoices } from './fields.tsx'

const watts = fixedUnit('W', 0)
const windSpeed = quantity('speed', 1)
const START = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/

/** The calculator's choices and the options of each. */
const WHEEL_CHOICES = {
  terrain: optionsOf<Terrain>({
    flat: 'Flat',
    rolling: 'Rolling',
    hilly: 'Hilly',
    mountain: 'Mountain',
  }),
  handling: optionsOf<Handling>({
    low: 'Low: I dislike being pushed',
    medium: 'Medium',
    high: 'High: experienced on deep wheels',
  }),
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

function wheelName(id: string): string {
  return id === 'disc' ? 'Disc' : `${id} mm`
}

/**
 * The optional course: the user's courses (none without a session or an API) and the chosen
 * one's segments; `noProfile` when the chosen course has none (the terrain type is used).
 */
function useCourseChoice() {
  const { user } = useAuth()
  const courses = useQuery({ ...courseChoicesQuery(), enabled: Boolean(user) }).data ?? []
  const [courseId, setCourseId] = useState('')
  const segments = useQuery({ ...courseSegmentsQuery(courseId), enabled: courseId !== '' })
  return {
    courses,
    courseId,
    setCourseId,
    selected: courseId ? (segments.data ?? null) : null,
    noProfile: courseId !== '' && (segments.isError || segments.data === null),
  }
}

/**
 * The course forecast for the wheel tool, read when the option is on with a course and a start:
 * `answer` is null while it loads or when off; a failed call becomes an unavailable reason. Each
 * answer fills the wind box once (state adjusted during render, React's documented pattern); the
 * user may still type over it.
 */
function useForecastWind(courseId: string, wind: QuantityField, system: UnitSystem) {
  const [wanted, setWanted] = useState(false)
  const [start, setStart] = useState(tomorrowMorning)
  const on = wanted && courseId !== ''
  const key = on && START.test(start) ? `${courseId}|${start}` : ''
  const query = useQuery({ ...courseWindQuery(courseId, start), enabled: key !== '' })
  const answer: ForecastWind | null = !key
    ? null
    : query.isError
      ? { ok: false, reason: query.error.message }
      : (query.data ?? null)
  const [filled, setFilled] = useState('')
  if (answer?.ok && filled !== key) {
    setFilled(key)
    wind.onChange(formatInput(answer.windSpeedMps, windSpeed, system))
  }
  return {
    wanted,
    setWanted: (next: boolean) => {
      setWanted(next)
      if (!next) setFilled('')
    },
    start,
    setStart,
    on,
    asked: key !== '',
    answer,
    windFromDeg: on && answer?.ok ? answer.windFromDeg : undefined,
  }
}

/** The engine's recommendation for the fields' values, or why there is none. */
function useWheels(
  fields: { rider: QuantityField; bike: QuantityField; wind: QuantityField; power: QuantityField },
  choices: Pick<WheelsInput, 'terrain' | 'handling' | 'allowDisc'> & {
    course: WheelsInput['course'] | null
    windFromDeg: number | undefined
  },
) {
  const { rider, bike, wind, power } = fields
  const invalid = [rider, bike, wind, power].some((f) => f.invalid)
  const [riderKg, bikeKg, windMps, powerW] = [rider.si, bike.si, wind.si, power.si]
  const { terrain, handling, allowDisc, course, windFromDeg } = choices
  return useMemo(() => {
    const wheelsInput = (): WheelsInput | null => {
      if (invalid || riderKg === undefined || windMps === undefined) return null
      const input: WheelsInput = {
        riderMassKg: riderKg,
        windSpeedMps: windMps,
        handling,
        terrain,
        allowDisc,
      }
      if (bikeKg !== undefined) input.bikeMassKg = bikeKg
      if (powerW !== undefined) input.powerW = powerW
      if (course) input.course = course
      if (windFromDeg !== undefined) input.windFromDeg = windFromDeg
      return input
    }
    return solveInput(wheelsInput, recommendWheels, LABELS)
  }, [invalid, riderKg, bikeKg, windMps, powerW, handling, terrain, allowDisc, course, windFromDeg])
}

/** What the forecast gave the tool, or that it is being read, or why it is unavailable. */
function ForecastStatus({ answer, system }: { answer: ForecastWind | null; system: UnitSystem }) {
  return (
    <p className="mt-2 text-xs text-slate-600" role="status" data-testid="wheels-forecast">
      {!answer
        ? 'Reading the forecast for this course and start…'
        : answer.ok
          ? `Wind from the forecast issued ${utcMinute(answer.issuedAt)} for the start at ${utcMinute(answer.startUtc)}: ${formatQuantity('speed', answer.windSpeedMps, system, 1)} at 10 m from ${Math.round(answer.windFromDeg)}°, the mean along the course.`
          : `Forecast unavailable (${answer.reason}); the typed wind is used.`}
    </p>
  )
}

/** Every wheel's gain against 30 mm wheels, front with its handling rating. */
function CandidatesTable({ candidates }: { candidates: WheelsResult['candidates'] }) {
  return (
    <table className="mt-4 w-full text-left text-sm">
      <caption className="sr-only">Every wheel against 30 mm wheels</caption>
      <thead className="text-xs text-slate-500">
        <tr>
          {['Wheel', 'Front: gain, handling', 'Rear: gain'].map((h) => (
            <th key={h} scope="col" className="py-1 font-medium">
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100 text-slate-700">
        {candidates.rear.map((rear) => {
          const front = candidates.front.find((f) => f.wheel === rear.wheel)
          return (
            <tr key={rear.wheel}>
              <th scope="row" className="py-1 font-medium">
                {wheelName(rear.wheel)}
              </th>
              <td className="py-1">
                {front ? (
                  <>
                    {formatDuration(front.timeGainedS, 'words')},{' '}
                    <span className="text-slate-500">{front.stability.rating}</span>
                  </>
                ) : (
                  '—'
                )}
              </td>
              <td className="py-1">{formatDuration(rear.timeGainedS, 'words')}</td>
            </tr>
          )
        })}
      </tbody>
    </table>
  )
}

const big = 'text-xl font-bold sm:text-2xl text-brand-700'

function WheelsAnswer({ r, system }: { r: WheelsResult; system: UnitSystem }) {
  const gain = formatDuration(r.timeGainedS, 'words')
  const { stability } = r.front
  return (
    <>
      <dl className="grid grid-cols-3 gap-3">
        <ResultTile label="Front" testId="wheels-front" className={big}>
          {wheelName(r.front.wheel)}
        </ResultTile>
        <ResultTile label="Rear" testId="wheels-rear" className={big}>
          {wheelName(r.rear.wheel)}
        </ResultTile>
        <ResultTile label="Time gained" testId="wheels-gain" className={big}>
          {gain}
        </ResultTile>
      </dl>
      <p className="mt-3 text-sm text-slate-700" data-testid="wheels-explanation">
        On {r.courseName} ({formatQuantity('distance', r.distanceM, system)}), this pair saves{' '}
        {gain} against 30 mm wheels through our simulation. In a{' '}
        {formatQuantity('speed', r.wind.gustMps, system, 0)} side gust the front wheel pushes with{' '}
        {stability.sideForceN.toFixed(1)} N, {(stability.ratio * 100).toFixed(2)} % of your weight
        with the bike:{' '}
        <span
          className={`rounded px-1.5 py-0.5 text-xs font-medium ring-1 ${ratingStyle[stability.rating]}`}
        >
          {stability.rating}
        </span>
      </p>
      <ToolDetails warnings={r.warnings} assumptions={[r.method, ...r.assumptions]}>
        <CandidatesTable candidates={r.candidates} />
      </ToolDetails>
    </>
  )
}

/** The optional course: a choice among the user's courses, or a word on where they come from. */
function CourseSelect({
  course,
  system,
}: {
  course: ReturnType<typeof useCourseChoice>
  system: UnitSystem
}) {
  if (course.courses.length === 0) {
    return (
      <p className="self-end text-xs text-slate-500">
        Courses you upload under Simulation can be used here instead of a terrain type.
      </p>
    )
  }
  const label = (c: (typeof course.courses)[number]) =>
    c.stats ? `${c.name} (${formatQuantity('distance', c.stats.distance, system)})` : c.name
  return (
    <Select
      name="course"
      label="Or one of your courses"
      value={course.courseId}
      onChange={course.setCourseId}
      options={[
        { value: '', label: 'No course: use the terrain' },
        ...course.courses.map((c) => ({ value: c.id, label: label(c) })),
      ]}
    />
  )
}

export function WheelCalculator() {
  const { system } = useUnits()
  const rider = useQuantityField(quantity('mass'), 70)
  const bike = useQuantityField(quantity('mass'), 8)
  const wind = useQuantityField(windSpeed, 15 / 3.6)
  const power = useQuantityField(watts, undefined, true)
  const [{ terrain, handling }, choose] = useChoices(WHEEL_CHOICES, {
    terrain: 'flat',
    handling: 'medium',
  })
  const [allowDisc, setAllowDisc] = useState(true)
  const course = useCourseChoice()
  const forecast = useForecastWind(course.courseId, wind, system)
  const outcome = useWheels(
    { rider, bike, wind, power },
    { terrain, handling, allowDisc, windFromDeg: forecast.windFromDeg, course: course.selected },
  )

  return (
    <Calculator
      title="Wheel depth"
      labelledBy="wheels-title"
      intro="Front and rear rim depth from the time each saves on the course, with the front limited by crosswind handling."
      notes={
        <>
          {course.noProfile ? (
            <p className="mt-2 text-xs text-amber-700">
              This course has no profile yet; the terrain type is used instead.
            </p>
          ) : null}
          {forecast.asked ? <ForecastStatus answer={forecast.answer} system={system} /> : null}
        </>
      }
      outcome={outcome}
      result={(r) => <WheelsAnswer r={r} system={system} />}
    >
      <NumberField name="wheels_rider_mass" label="Rider mass" field={rider} />
      <NumberField name="wheels_bike_mass" label="Bike and kit" field={bike} />
      <Select name="terrain" label="Terrain" {...choose('terrain')} />
      <CourseSelect course={course} system={system} />
      {course.courseId ? (
        <CheckboxField
          name="use_forecast"
          label="Use the forecast for my course and date"
          checked={forecast.wanted}
          onChange={forecast.setWanted}
        />
      ) : null}
      {forecast.on ? (
        <Field
          name="forecast_start"
          label="Start (local time at the course)"
          type="datetime-local"
          value={forecast.start}
          onChange={forecast.setStart}
          error={START.test(forecast.start) ? undefined : 'Enter the date and time of the start.'}
        />
      ) : null}
      <NumberField
        name="wind"
        label="Expected wind"
        field={wind}
        hint="Forecast mean wind (10 m)."
      />
      <Select name="handling" label="Handling confidence" {...choose('handling')} />
      <NumberField
        name="power"
        label="Power"
        field={power}
        placeholder={rider.si ? String(Math.round(rider.si * 3)) : ''}
        hint="Empty: 3 W/kg."
      />
      <CheckboxField
        name="allow_disc"
        label="Disc rear allowed"
        checked={allowDisc}
        onChange={setAllowDisc}
      />
    </Calculator>
  )
}

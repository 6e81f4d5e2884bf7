// Create / edit an optimization (pacing or equipment) with the instant preview and Run.
import { useMemo, useState, type Dispatch, type SetStateAction } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useLocation, useNavigate, useParams, useSearchParams } from 'react-router'
import { sharedWithTeam, useNewItemOwner } from '../../../components/owner-control.tsx'
import { api } from '../../../lib/api-client.ts'
import { useUnits, type UnitSystem } from '../../../lib/units.ts'
import { EnvironmentCard } from '../components/environment-card.tsx'
import { EquipmentCard } from '../components/equipment-card.tsx'
import { ForecastCard } from '../components/forecast-card.tsx'
import { withForecastWind } from '../lib/forecast-preview.ts'
import { PreviewPanel } from '../components/preview-panel.tsx'
import { RunPanel } from '../components/run-panel.tsx'
import { SetupAdjustPanel } from '../components/setup-adjust-panel.tsx'
import { fieldBinder } from '../../../components/form.tsx'
import { Card, ErrorBox, Page } from '../components/ui.tsx'
import { errorMessage, type CourseSummary, type Optimization, type RiderSetup } from '../lib/api.ts'
import { optimizerInputOf, type OptimizationInputs } from '../lib/engine-input.ts'
import {
  optimizationFormOf,
  readOptimizationForm,
  type OptimizationForm,
} from '../lib/optimization-form.ts'
import { courseSectionsOf } from '../lib/plan-sections.ts'
import {
  courseForecastQuery,
  courseListQuery,
  courseQuery,
  optimizationQuery,
  riderSetupListQuery,
} from '../lib/queries.ts'
import { applyOverride } from '../lib/setup-override.ts'
import { usePreview } from '../lib/use-preview.ts'
import { ItemUnavailable } from '../components/item-unavailable.tsx'
import {
  CourseAndRiderCard,
  EditorHeader,
  LimitCard,
  SaveRow,
  type Kind,
  type Status,
} from '../components/optimization-editor-cards.tsx'

export function OptimizationPage() {
  const { id } = useParams()
  const [params] = useSearchParams()
  const location = useLocation()
  const existing = useQuery({ ...optimizationQuery(id ?? ''), enabled: Boolean(id) })
  if (id && (existing.error || !existing.data))
    return <ItemUnavailable what="optimization" error={existing.error?.message} />
  const fromPath = location.pathname.includes('/equipment/') ? 'equipment' : 'pacing'
  const type: Kind =
    existing.data?.type ??
    (params.get('type') === 'equipment' ? 'equipment' : id ? fromPath : 'pacing')
  return (
    <OptimizationEditor
      key={id ?? `new-${type}`}
      type={type}
      optimization={existing.data}
      showResults={params.get('showResults') === '1'}
    />
  )
}

type SetForm = Dispatch<SetStateAction<OptimizationForm>>

function OptimizationEditor({
  showResults,
  type,
  optimization,
}: {
  showResults: boolean
  type: Kind
  optimization: Optimization | undefined
}) {
  const { system } = useUnits()
  const client = useQueryClient()
  const courses = useQuery(courseListQuery())
  const setups = useQuery(riderSetupListQuery())
  const [form, setForm] = useOptimizationForm(optimization, type, system, courses.data, setups.data)
  // A new optimization is the team's when the user works in a team whose course and setup it
  // uses (the API refuses a team's optimization on items the team cannot see), else personal.
  const [owner, setOwner, teams] = useNewItemOwner(
    (team) =>
      sharedWithTeam(
        courses.data?.find((c) => c.id === form.courseId),
        team,
      ) &&
      sharedWithTeam(
        setups.data?.find((s) => s.id === form.setupId),
        team,
      ),
  )
  const savedSetup = setups.data?.find((s) => s.id === form.setupId)
  const preview = useOptimizationPreview(form, type, system, savedSetup)
  const { save, status, saving, tried } = useSaveOptimization({
    optimization,
    type,
    system,
    owner,
    form,
    setForm,
    courseLengthM: preview.courseData?.segments.at(-1)?.end,
    savedSetup,
  })
  const set = <K extends keyof OptimizationForm>(k: K, v: OptimizationForm[K]) =>
    setForm((f) => ({ ...f, [k]: v }))
  // Messages show live once the user has tried to save, and always for the wind stretches and the
  // adjusted setup (rows being typed are checked as they change).
  const errors = tried
    ? preview.read.errors
    : Object.fromEntries(
        Object.entries(preview.read.errors).filter(([k]) => /^(wind\d|ov\.|eventStart)/.test(k)),
      )

  /** The setup now holds the tweaked values: choose it and drop the override (saved at once). */
  function promoted(s: RiderSetup, created: boolean) {
    const list = setups.data ?? []
    client.setQueryData(
      riderSetupListQuery().queryKey,
      created ? [...list, s] : list.map((x) => (x.id === s.id ? s : x)),
    )
    void client.invalidateQueries({ queryKey: ['rider-setups'] })
    const next = { ...form, setupId: s.id, override: {}, storedOverride: undefined }
    setForm(next)
    if (optimization) void save(next, s)
  }

  const bind = fieldBinder(form, set, errors)
  return (
    <Page>
      <EditorHeader type={type} name={optimization?.name} />
      <div className="mt-4 grid grid-cols-1 gap-4 xl:grid-cols-5">
        <form
          noValidate
          className="space-y-4 xl:col-span-2"
          onSubmit={(e) => {
            e.preventDefault()
            void save()
          }}
        >
          <CourseAndRiderCard
            form={form}
            set={set}
            bind={bind}
            courses={courses.data}
            setups={setups.data}
            owner={optimization ? null : { owner, setOwner, teams }}
          />
          <EnvironmentCard
            form={form}
            setForm={setForm}
            errors={errors}
            system={system}
            sections={preview.courseSections}
          />
          {savedSetup ? (
            <Card title="Adjust setup for this optimization">
              <SetupAdjustPanel
                setup={savedSetup}
                texts={form.override}
                stored={form.storedOverride}
                system={system}
                onChange={(override) => set('override', override)}
                onPromoted={promoted}
              />
            </Card>
          ) : null}
          <LimitCard form={form} set={set} bind={bind} />
          {type === 'equipment' ? (
            <EquipmentCard
              groups={form.groups}
              errors={errors}
              system={system}
              onChange={(update) => setForm((f) => ({ ...f, groups: update(f.groups) }))}
            />
          ) : null}
          <SaveRow saving={saving} label={optimization ? 'Save' : 'Create'} status={status} />
          {optimization ? (
            <Card title="Run">
              <RunPanel
                optimizationId={optimization.id}
                type={type}
                beforeRun={async () => (await save()) !== null}
                showResults={showResults}
              />
            </Card>
          ) : (
            <p className="text-xs text-slate-500">
              Create the optimization to run it and keep its results.
            </p>
          )}
        </form>
        <PreviewCard preview={preview} />
      </div>
    </Page>
  )
}

/**
 * The form's text, from the stored optimization or empty; a new one preselects the first course
 * and setup (once both lists are there). The form holds text in display units: it is converted
 * when the unit system changes (a valid form only; an invalid one keeps its text and messages),
 * as the rider setup page does.
 */
function useOptimizationForm(
  optimization: Optimization | undefined,
  type: Kind,
  system: UnitSystem,
  courses: CourseSummary[] | undefined,
  setups: RiderSetup[] | undefined,
): [OptimizationForm, SetForm] {
  const [form, setForm] = useState<OptimizationForm>(() =>
    optimizationFormOf(
      optimization
        ? { ...optimization, inputs: optimization.inputs as OptimizationInputs }
        : { name: '', course_id: null, rider_setup_id: null, inputs: {} },
      type,
      system,
    ),
  )
  const [preselected, setPreselected] = useState(Boolean(optimization))
  if (!preselected && courses && setups) {
    setPreselected(true)
    const first = courses[0]
    setForm((f) => ({
      ...f,
      courseId: f.courseId || first?.id || '',
      setupId: f.setupId || setups[0]?.id || '',
      name: f.name || (first ? `${first.name} – ${type}` : ''),
    }))
  }
  const [shownIn, setShownIn] = useState(system)
  if (shownIn !== system) {
    setShownIn(system)
    const { body } = readOptimizationForm(form, type, shownIn)
    if (body)
      setForm({ ...optimizationFormOf(body, type, system), storedOverride: form.storedOverride })
  }
  return [form, setForm]
}

/** Why the preview cannot be computed yet, or null when it can. */
function previewMissing(
  form: OptimizationForm,
  read: ReturnType<typeof readOptimizationForm>,
  setup: RiderSetup | undefined,
): string | null {
  if (!form.courseId) return 'Choose a course to see the preview.'
  if (!form.setupId) return 'Choose a rider setup to see the preview.'
  if (!read.body) return 'Fix the highlighted fields to see the preview.'
  if (setup && setup.max_power === null)
    return `The rider setup “${setup.name}” has no max power (the highest power a plan may ask for): set it in the rider setup to optimize.`
  if (
    setup &&
    read.body.inputs.constraint?.type === 'w_prime_balance' &&
    (setup.cp === null || setup.w_prime === null)
  )
    return `The W′ balance limit needs the rider setup’s CP and W′ (“${setup.name}” has none): set them, or choose a power limit.`
  return null
}

/**
 * What the instant preview computes with: the chosen course, the form read against it and the
 * saved setup with the values tweaked here, and with an event start on a course with positions,
 * the race-day forecast's wind.
 */
function useOptimizationPreview(
  form: OptimizationForm,
  type: Kind,
  system: UnitSystem,
  savedSetup: RiderSetup | undefined,
) {
  const course = useQuery({ ...courseQuery(form.courseId), enabled: Boolean(form.courseId) })
  const courseData = course.data?.id === form.courseId ? course.data : undefined
  const courseLengthM = courseData?.segments.at(-1)?.end
  const courseSections = useMemo(
    () => (courseData ? courseSectionsOf(courseData) : null),
    [courseData],
  )
  const read = useMemo(
    () => readOptimizationForm(form, type, system, { setup: savedSetup, courseLengthM }),
    [form, type, system, savedSetup, courseLengthM],
  )
  const setup = savedSetup && applyOverride(savedSetup, read.body?.inputs.rider_override)
  const eventStart = read.body?.inputs.environment?.event_start
  const hasTrack = Boolean(courseData?.track && courseData.track.lat.length > 1)
  const forecast = useQuery({
    ...courseForecastQuery(courseData?.id ?? '', eventStart ?? ''),
    enabled: Boolean(eventStart && hasTrack && courseData),
  })
  const forecastData = eventStart && hasTrack ? forecast.data : undefined
  const engineInputs = useMemo(() => {
    if (!read.body || !courseData || !setup) return null
    return optimizerInputOf(
      courseData.segments,
      courseData.settings.surface,
      setup,
      withForecastWind(read.body.inputs, forecastData),
      type,
    )
  }, [read.body, courseData, setup, type, forecastData])
  return {
    courseError: course.error,
    courseData,
    courseSections,
    read,
    forecast: eventStart && hasTrack ? { data: forecastData, loading: forecast.isLoading } : null,
    state: usePreview(engineInputs, type),
    missing: previewMissing(form, read, setup),
  }
}

/**
 * Save: PATCH an existing optimization (the form's stored override becomes the one saved), POST
 * a new one and open it; its lists and item are read again.
 */
function useSaveOptimization(args: {
  optimization: Optimization | undefined
  type: Kind
  system: UnitSystem
  owner: string
  form: OptimizationForm
  setForm: SetForm
  courseLengthM: number | undefined
  savedSetup: RiderSetup | undefined
}) {
  const { optimization, type, system, owner, form, setForm, courseLengthM, savedSetup } = args
  const navigate = useNavigate()
  const client = useQueryClient()
  const [tried, setTried] = useState(false)
  const [status, setStatus] = useState<Status>(null)
  const write = useMutation({
    mutationFn: ({ path, body }: { path: string; body: object }) =>
      api<Optimization>(path, { method: optimization ? 'PATCH' : 'POST', body }),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['optimizations'] }),
  })

  async function save(f = form, withSetup = savedSetup): Promise<string | null> {
    setStatus(null)
    setTried(true)
    const { body, errors } = readOptimizationForm(f, type, system, {
      setup: withSetup,
      courseLengthM,
    })
    if (!body) {
      setStatus({ ok: false, text: Object.values(errors)[0] ?? 'Check the fields.' })
      return null
    }
    try {
      if (optimization) {
        await write.mutateAsync({ path: `/api/optimizations/${optimization.id}`, body })
        // the stored override now is the one just saved (its exact numbers)
        setForm((x) => (x === f ? { ...x, storedOverride: body.inputs.rider_override } : x))
        setStatus({ ok: true, text: 'Saved.' })
        return optimization.id
      }
      const created = await write.mutateAsync({
        path: '/api/optimizations',
        body: { ...body, type, ...(owner ? { owner } : {}) },
      })
      navigate(`/simulation/optimizations/${type}/${created.id}`, { replace: true })
      return created.id
    } catch (e) {
      setStatus({ ok: false, text: errorMessage(e) })
      return null
    }
  }
  return { save, status, saving: write.isPending, tried }
}

function PreviewCard({ preview }: { preview: ReturnType<typeof useOptimizationPreview> }) {
  return (
    <Card title="Instant preview" className="xl:col-span-3">
      {preview.courseError ? <ErrorBox>{preview.courseError.message}</ErrorBox> : null}
      {preview.forecast ? (
        <div className="mb-4">
          <ForecastCard
            forecast={preview.forecast.data}
            loading={preview.forecast.loading}
            track={preview.courseData?.track}
          />
        </div>
      ) : null}
      <PreviewPanel
        state={preview.state}
        missing={preview.missing}
        forecastWind={preview.forecast?.data?.status === 'used'}
        eventStart={preview.read.body?.inputs.environment?.event_start}
        sections={preview.courseSections}
      />
    </Card>
  )
}

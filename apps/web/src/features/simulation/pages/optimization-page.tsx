// Create / edit an optimization (pacing or equipment) with the instant preview and Run.
import { zodResolver } from '@hookform/resolvers/zod'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import {
  useForm,
  useWatch,
  type FieldErrors,
  type PathValue,
  type Resolver,
  type UseFormHandleSubmit,
} from 'react-hook-form'
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
import { RacePlanCard } from '../components/race-plan-card.tsx'
import { RunPanel } from '../components/run-panel.tsx'
import { SetupAdjustPanel } from '../components/setup-adjust-panel.tsx'
import { fieldBinder } from '../../../components/form.tsx'
import { Card, ErrorBox, Page } from '../components/ui.tsx'
import { errorMessage, type CourseSummary, type Optimization, type RiderSetup } from '../lib/api.ts'
import { optimizerInputOf, type OptimizationInputs } from '../lib/engine-input.ts'
import { firstMessage } from '../../../lib/form-errors.ts'
import {
  optimizationFormOf,
  optimizationFormSchema,
  readOptimizationForm,
  type FormContext,
  type OptimizationForm,
  type SubmittedOptimization,
} from '../lib/optimization-form.ts'
import { courseSectionsOf } from '../lib/plan-sections.ts'
import {
  courseForecastQuery,
  courseListQuery,
  courseQuery,
  optimizationQuery,
  riderSetupListQuery,
} from '../lib/queries.ts'
import { applyOverride, type SetupOverride } from '../lib/setup-override.ts'
import { usePreview } from '../lib/use-preview.ts'
import { ItemUnavailable } from '../components/item-unavailable.tsx'
import {
  CourseAndRiderCard,
  EditorHeader,
  LimitCard,
  SaveRow,
  type Kind,
  type SetField,
  type Status,
  type UpdateForm,
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
  const { form, set, update, contextRef, handleSubmit, tried } = useOptimizationForm(
    optimization,
    type,
    system,
    courses.data,
    setups.data,
  )
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
  const courseLengthM = preview.courseData?.segments.at(-1)?.end
  useEffect(() => {
    contextRef.current = { setup: savedSetup, courseLengthM }
  })
  const { saveBody, showInvalid, save, status, saving } = useSaveOptimization({
    optimization,
    type,
    owner,
    handleSubmit,
    set,
    typedOverride: () => form.override,
  })
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
    update((f) => ({ ...f, setupId: s.id, override: {}, storedOverride: undefined }))
    contextRef.current = { ...contextRef.current, setup: s }
    if (optimization) void save()
  }

  const bind = fieldBinder(form, set, errors)
  return (
    <Page>
      <EditorHeader type={type} name={optimization?.name} />
      <div className="mt-4 grid grid-cols-1 gap-4 xl:grid-cols-5">
        <form
          noValidate
          className="space-y-4 xl:col-span-2"
          onSubmit={handleSubmit(saveBody, showInvalid)}
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
            setForm={update}
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
          <LimitCard form={form} set={set} bind={bind} type={type} />
          {type === 'pacing' ? (
            <RacePlanCard form={form} set={set} bind={bind} errors={errors} system={system} />
          ) : null}
          {type === 'equipment' ? (
            <EquipmentCard
              groups={form.groups}
              errors={errors}
              system={system}
              onChange={(change) => update((f) => ({ ...f, groups: change(f.groups) }))}
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
 * The form: react-hook-form over the texts in display units, from the stored optimization or
 * empty; a new one preselects the first course and setup (once both lists are there). The texts
 * are converted when the unit system changes (a valid form only; an invalid one keeps its text and
 * messages), as the rider setup page does. Its schema reads the texts with the selected setup and
 * the course length of the moment (`context`, which a promoted setup replaces before a save).
 */
function useOptimizationForm(
  optimization: Optimization | undefined,
  type: Kind,
  system: UnitSystem,
  courses: CourseSummary[] | undefined,
  setups: RiderSetup[] | undefined,
) {
  const contextRef = useRef<FormContext>({})
  const resolver = useCallback<Resolver<OptimizationForm, unknown, SubmittedOptimization>>(
    (values, context, options) =>
      zodResolver(optimizationFormSchema(type, system, contextRef.current))(
        values,
        context,
        options,
      ),
    [type, system],
  )
  const [defaults] = useState(() =>
    optimizationFormOf(
      optimization
        ? { ...optimization, inputs: optimization.inputs as OptimizationInputs }
        : { name: '', course_id: null, rider_setup_id: null, inputs: {} },
      type,
      system,
    ),
  )
  const { control, getValues, setValue, reset, handleSubmit, formState } = useForm<
    OptimizationForm,
    unknown,
    SubmittedOptimization
  >({ resolver, defaultValues: defaults, shouldFocusError: false })
  const form = useWatch({ control, compute: (values: OptimizationForm) => values })
  const set: SetField = (k, v) => setValue(k, v as PathValue<OptimizationForm, typeof k>)
  /** A change of several fields at once, applied field by field. */
  const update: UpdateForm = (change) => {
    const before = getValues()
    const after = change(before)
    for (const k of Object.keys(after) as (keyof OptimizationForm)[]) {
      if (after[k] !== before[k]) set(k, after[k])
    }
  }

  const preselected = useRef(Boolean(optimization))
  useEffect(() => {
    if (preselected.current || !courses || !setups) return
    preselected.current = true
    const first = courses[0]
    update((f) => ({
      ...f,
      courseId: f.courseId || first?.id || '',
      setupId: f.setupId || setups[0]?.id || '',
      name: f.name || (first ? `${first.name} – ${type}` : ''),
    }))
  })

  const shownIn = useRef(system)
  useEffect(() => {
    if (shownIn.current === system) return
    const values = getValues()
    const { body } = readOptimizationForm(values, type, shownIn.current)
    shownIn.current = system
    if (body)
      reset(
        { ...optimizationFormOf(body, type, system), storedOverride: values.storedOverride },
        { keepIsSubmitted: true, keepSubmitCount: true },
      )
  }, [system, type, getValues, reset])
  return { form, set, update, contextRef, handleSubmit, tried: formState.isSubmitted }
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
    (read.body.inputs.constraint?.type === 'w_prime_balance' ||
      read.body.inputs.constraint?.type === 'target_time') &&
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
    cpW: setup?.cp ?? null,
    missing: previewMissing(form, read, setup),
  }
}

/**
 * Save: the form submitted through its schema; PATCH an existing optimization (the override just
 * saved becomes the stored one while its texts are as sent), POST a new one and open it; its lists
 * and item are read again. Resolves to the optimization's id, or null when nothing was saved.
 */
function useSaveOptimization(args: {
  optimization: Optimization | undefined
  type: Kind
  owner: string
  handleSubmit: UseFormHandleSubmit<OptimizationForm, SubmittedOptimization>
  set: SetField
  typedOverride(): OptimizationForm['override']
}) {
  const { optimization, type, owner, handleSubmit, set, typedOverride } = args
  const navigate = useNavigate()
  const client = useQueryClient()
  const [status, setStatus] = useState<Status>(null)
  const write = useMutation({
    mutationFn: ({ path, body }: { path: string; body: object }) =>
      api<Optimization>(path, { method: optimization ? 'PATCH' : 'POST', body }),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['optimizations'] }),
  })

  /** The checked body sent; resolves to the optimization's id, or null when it failed. */
  async function saveBody(body: SubmittedOptimization): Promise<string | null> {
    setStatus(null)
    const typed = typedOverride()
    try {
      if (optimization) {
        await write.mutateAsync({ path: `/api/optimizations/${optimization.id}`, body })
        // the stored override now is the one just saved (its exact numbers); the form wrote it, so
        // it has the form's shape (a whole Crr table), which the contracts' type leaves optional
        if (typedOverride() === typed)
          set('storedOverride', body.inputs.rider_override as SetupOverride | undefined)
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
  const showInvalid = (errors: FieldErrors<OptimizationForm>) =>
    setStatus({ ok: false, text: firstMessage(errors) ?? 'Check the fields.' })

  /** Submit from outside the form (before a run, after promoting the setup). */
  async function save(): Promise<string | null> {
    let saved: string | null = null
    await handleSubmit(async (body) => {
      saved = await saveBody(body)
    }, showInvalid)()
    return saved
  }
  return { saveBody, showInvalid, save, status, saving: write.isPending }
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
        cpW={preview.cpW}
      />
    </Card>
  )
}

import { zodResolver } from '@hookform/resolvers/zod'
import { useState } from 'react'
import { Controller, useForm, type FieldErrors } from 'react-hook-form'
import { Link, useNavigate, useParams } from 'react-router'
import { courseFormSchema, type CourseForm } from '@veloptima/contracts'
import { api } from '../../../lib/api-client.ts'
import { formatQuantity, useUnits } from '../../../lib/units.ts'
import { CourseEditor } from '../components/course-editor.tsx'
import { NotYours } from '../components/item-unavailable.tsx'
import { ElevationChart } from '../components/elevation-chart.tsx'
import { RouteMap } from '../components/route-map.tsx'
import { SectionsPanel } from '../components/sections-panel.tsx'
import { Field, Select } from '../../../components/form.tsx'
import {
  Button,
  Card,
  Loading,
  OutcomeLine,
  type Outcome,
  Page,
  PageHeader,
  Stat,
} from '../components/ui.tsx'
import { errorMessage, useApiData, type Course } from '../lib/api.ts'
import { GRADE_WINDOW_M, gradeRangeOf } from '../lib/course-edit.ts'
import { percent } from '../lib/format.ts'

const SURFACES = [
  { value: 'smooth', label: 'Smooth (new asphalt)' },
  { value: 'normal', label: 'Normal road' },
  { value: 'rough', label: 'Rough (chip seal, cobbles)' },
] as const

export function CoursePage() {
  const { id } = useParams()
  const course = useApiData<Course>(`/api/courses/${id}`)
  if (course.error) {
    return (
      <Page>
        <NotYours what="course" message={course.error.message} />
        <p className="mt-4 text-sm">
          <Link to="/simulation/courses" className="text-brand-700 underline">
            Back to your courses
          </Link>
        </p>
      </Page>
    )
  }
  if (!course.data)
    return (
      <Page>
        <Loading what="the course" />
      </Page>
    )
  return <CourseView key={course.data.id} course={course.data} onSaved={course.set} />
}

function CourseView({ course: c, onSaved }: { course: Course; onSaved(course: Course): void }) {
  const { system } = useUnits()
  const navigate = useNavigate()
  const { control, handleSubmit, formState } = useForm<CourseForm>({
    resolver: zodResolver(courseFormSchema),
    defaultValues: { name: c.name, surface: c.settings.surface ?? 'normal' },
  })
  const [message, setMessage] = useState<Outcome | null>(null)
  const editable = !c.sample

  async function save(values: CourseForm) {
    setMessage(null)
    try {
      const saved = await api<Course>(`/api/courses/${c.id}`, {
        method: 'PATCH',
        body: { name: values.name, settings: { ...c.settings, surface: values.surface } },
      })
      onSaved({ ...c, ...saved })
      setMessage({ ok: true, text: 'Saved.' })
    } catch (e) {
      setMessage({ ok: false, text: errorMessage(e) })
    }
  }
  const refuse = (errors: FieldErrors<CourseForm>) =>
    setMessage({ ok: false, text: errors.name?.message ?? 'Check the fields.' })

  async function remove() {
    if (!window.confirm(`Delete the course “${c.name}”?`)) return
    try {
      await api(`/api/courses/${c.id}`, { method: 'DELETE' })
      navigate('/simulation/courses')
    } catch (e) {
      setMessage({ ok: false, text: errorMessage(e) })
    }
  }

  return (
    <Page>
      <PageHeader
        title={c.name}
        description={c.sample ? 'A sample course, shared with everyone.' : undefined}
      >
        {editable ? (
          <Button variant="danger" onClick={remove}>
            Delete
          </Button>
        ) : null}
      </PageHeader>
      {c.stats ? (
        <dl className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-5">
          <Stat label="Distance" value={formatQuantity('distance', c.stats.distance, system, 2)} />
          <Stat label="Ascent" value={formatQuantity('elevation', c.stats.ascent, system, 0)} />
          <Stat label="Descent" value={formatQuantity('elevation', c.stats.descent, system, 0)} />
          {/* from the segments, so courses stored before grades were taken over 100 m read right */}
          <Stat
            label={`Steepest ${GRADE_WINDOW_M} m`}
            value={percent(gradeRangeOf(c.segments, GRADE_WINDOW_M).maxGrade)}
          />
          <Stat label="Segments" value={c.segments.length} />
        </dl>
      ) : null}
      <div className="mt-4 grid grid-cols-1 gap-4 lg:grid-cols-3">
        <Card title="Elevation profile" className="lg:col-span-2">
          <ElevationChart segments={c.segments} />
        </Card>
        <Card title="Course">
          <form className="space-y-3" onSubmit={handleSubmit(save, refuse)}>
            <Controller
              control={control}
              name="name"
              render={({ field }) => (
                <Field
                  label="Name"
                  inputMode="text"
                  value={field.value}
                  onChange={field.onChange}
                />
              )}
            />
            <Controller
              control={control}
              name="surface"
              render={({ field }) => (
                <Select
                  label="Road surface"
                  value={field.value}
                  onChange={field.onChange}
                  options={SURFACES}
                />
              )}
            />
            {editable ? (
              <Button type="submit" disabled={formState.isSubmitting}>
                {formState.isSubmitting ? 'Saving…' : 'Save'}
              </Button>
            ) : (
              <p className="text-xs text-slate-500">Sample courses cannot be changed.</p>
            )}
            <OutcomeLine outcome={message} />
          </form>
        </Card>
      </div>
      <Card title="Sections" className="mt-4">
        <SectionsPanel
          key={`${c.segments.length}-${c.segments.at(-1)?.end ?? 0}`}
          course={c}
          editable={editable}
          onSaved={onSaved}
        />
      </Card>
      {editable ? (
        <Card title="Trim and road surfaces" className="mt-4">
          <CourseEditor course={c} onSaved={onSaved} />
        </Card>
      ) : null}
      <Card title="Route" className="mt-4">
        {c.track ? (
          <RouteMap track={c.track} />
        ) : (
          <p className="text-sm text-slate-500">No positions in this course file.</p>
        )}
      </Card>
    </Page>
  )
}

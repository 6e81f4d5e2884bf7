// The optimization editor's cards and rows (pages/optimization-page.tsx): course and rider, the
// goal and limit, the header and the save row.
import { Link } from 'react-router'
import type { MyTeam } from '@veloptima/contracts'
import { OwnerSelect } from '../../../components/owner-control.tsx'
import { Field, Select, type fieldBinder } from '../../../components/form.tsx'
import { Button, Card, OutcomeLine, PageHeader, type Outcome } from './ui.tsx'
import type { CourseSummary, RiderSetup } from '../lib/api.ts'
import { CONSTRAINTS, type OptimizationForm } from '../lib/optimization-form.ts'
import { GOALS } from '../lib/race-plan-form.ts'

export type Kind = 'pacing' | 'equipment'
export type Status = Outcome | null

export type Bind = ReturnType<typeof fieldBinder<OptimizationForm>>
export type SetField = <K extends keyof OptimizationForm>(k: K, v: OptimizationForm[K]) => void
/** A change of several fields at once. */
export type UpdateForm = (change: (f: OptimizationForm) => OptimizationForm) => void

export function CourseAndRiderCard({
  form,
  set,
  bind,
  courses,
  setups,
  owner,
}: {
  form: OptimizationForm
  set: SetField
  bind: Bind
  courses: CourseSummary[] | undefined
  setups: RiderSetup[] | undefined
  /** A new optimization's owner; null for a stored one. */
  owner: { owner: string; setOwner(owner: string): void; teams: MyTeam[] } | null
}) {
  return (
    <Card title="Course and rider">
      <div className="space-y-3">
        <Field label="Optimization name" inputMode="text" {...bind('name')} />
        {courses?.length === 0 ? (
          <p className="text-sm text-slate-600">
            No course yet:{' '}
            <Link className="text-brand-700 underline" to="/simulation/courses">
              upload one
            </Link>
            .
          </p>
        ) : null}
        <Select
          label="Course"
          value={form.courseId}
          onChange={(v) => set('courseId', v)}
          options={[
            { value: '', label: 'Choose a course' },
            ...(courses ?? []).map((c) => ({ value: c.id, label: c.name })),
          ]}
        />
        {setups?.length === 0 ? (
          <p className="text-sm text-slate-600">
            No rider setup yet:{' '}
            <Link className="text-brand-700 underline" to="/simulation/riders/new">
              create one
            </Link>
            .
          </p>
        ) : null}
        <Select
          label="Rider setup"
          value={form.setupId}
          onChange={(v) => set('setupId', v)}
          options={[
            { value: '', label: 'Choose a rider setup' },
            ...(setups ?? []).map((s) => ({ value: s.id, label: s.name })),
          ]}
        />
        {owner ? (
          <OwnerSelect value={owner.owner} onChange={owner.setOwner} teams={owner.teams} />
        ) : null}
      </div>
    </Card>
  )
}

export function EditorHeader({ type, name }: { type: Kind; name: string | undefined }) {
  return (
    <PageHeader
      title={name ?? (type === 'pacing' ? 'New pacing optimization' : 'New equipment optimization')}
      description={
        type === 'pacing'
          ? 'The fastest power plan for the course within your limit, in at most 20 targets.'
          : 'Rank equipment options by the time each saves on this course, each with its own optimal pacing.'
      }
    />
  )
}

/**
 * The goal (a pacing plan: the fastest within a limit, or the least effort finishing in a target
 * time; an equipment comparison: the fastest) and the limit.
 */
export function LimitCard({
  form,
  set,
  bind,
  type,
}: {
  form: OptimizationForm
  set: SetField
  bind: Bind
  type: Kind
}) {
  const targetTime = type === 'pacing' && form.goal === 'target_time'
  return (
    <Card title={type === 'pacing' ? 'Goal and limit' : 'Limit'}>
      <div className="grid grid-cols-2 gap-3">
        {type === 'pacing' ? (
          <div className="col-span-2">
            <Select
              label="Goal"
              name="goal"
              value={form.goal}
              onChange={(v) => set('goal', v)}
              options={GOALS}
            />
          </div>
        ) : null}
        {targetTime ? (
          <Field
            label="Target time"
            unit="h:mm:ss"
            inputMode="text"
            placeholder="2:30:00"
            {...bind('targetTime')}
            hint="The easiest plan that finishes in this time, within W′ balance."
          />
        ) : (
          <div className="col-span-2">
            <Select
              label="Constraint"
              value={form.constraint}
              onChange={(v) => set('constraint', v)}
              options={CONSTRAINTS}
            />
          </div>
        )}
        {!targetTime && form.constraint !== 'w_prime_balance' ? (
          <Field label="Power" unit="W" {...bind('power')} />
        ) : null}
        <Field
          label="Number of targets"
          {...bind('maxTargets')}
          hint="At most 20 power targets to ride."
        />
      </div>
    </Card>
  )
}

export function SaveRow({
  saving,
  label,
  status,
}: {
  saving: boolean
  label: string
  status: Status
}) {
  return (
    <div className="flex items-center gap-3">
      <Button type="submit" disabled={saving}>
        {saving ? 'Saving…' : label}
      </Button>
      <OutcomeLine outcome={status} />
    </div>
  )
}

// The course's sections (the stretches a pacing plan targets): automatic Coarse / Medium / Fine,
// manual split and merge, saved in the course's settings. Re-applying an automatic level replaces
// manual edits, so it asks first.
import { useMemo, useState } from 'react'
import {
  autoSections,
  mergeSections,
  moveSectionEnd,
  splitSection,
  summarizeSections,
  type CourseSection,
  type SectionLevel,
} from '@veloptima/engine'
import { api } from '../../../lib/api-client.ts'
import { fromDisplay, toDisplay, unitLabel, useUnits } from '../../../lib/units.ts'
import { errorMessage, type Course } from '../lib/api.ts'
import { percent } from '../lib/format.ts'
import { initialSections, sectionCourse, sectionsToJson } from '../lib/sections.ts'
import { ElevationChart } from './elevation-chart.tsx'
import { Field, inputClass, stateBinder } from '../../../components/form.tsx'
import { Button, OutcomeLine, type Outcome } from './ui.tsx'

const LEVELS: { value: SectionLevel; label: string }[] = [
  { value: 'coarse', label: 'Coarse' },
  { value: 'medium', label: 'Medium' },
  { value: 'fine', label: 'Fine' },
]

export function SectionsPanel({
  course,
  editable,
  onSaved,
}: {
  course: Course
  editable: boolean
  onSaved(c: Course): void
}) {
  const { system } = useUnits()
  const arrays = useMemo(() => sectionCourse(course.segments), [course.segments])
  const [state, setState] = useState(() => initialSections(course))
  const [busy, setBusy] = useState(false)
  const [message, setMessage] = useState<Outcome | null>(null)
  const rows = useMemo(() => summarizeSections(arrays, state.sections), [arrays, state.sections])

  if (arrays.n === 0) return <p className="text-sm text-slate-500">No segments in this course.</p>

  function apply(level: SectionLevel) {
    if (state.level === 'manual' && !window.confirm('This replaces your manual sections.')) return
    if (
      state.level !== 'manual' &&
      state.sections.some((s) => s.name) &&
      !window.confirm('This replaces your sections and their names.')
    )
      return
    setMessage(null)
    setState({ sections: autoSections(arrays, level), level, stored: false })
  }

  function edit(change: (s: CourseSection[]) => CourseSection[]) {
    setMessage(null)
    try {
      setState({ sections: change(state.sections), level: 'manual', stored: false })
    } catch (e) {
      setMessage({ ok: false, text: errorMessage(e) })
    }
  }

  /** A distance typed in the user's units, in metres. */
  function metres(label: string, text: string) {
    const v = Number(text.replace(',', '.'))
    if (text.trim() === '' || !Number.isFinite(v))
      throw new Error(`${label}: “${text}” is not a number.`)
    return fromDisplay('distance', v, system)
  }

  /** A section's name (the level stays: naming does not change where sections are). */
  function rename(i: number, name: string) {
    setMessage(null)
    setState((st) => ({
      ...st,
      stored: false,
      sections: st.sections.map((s, j) => {
        if (j !== i) return s
        const { name: _old, ...rest } = s
        return name.trim() ? { ...rest, name: name.slice(0, 100) } : rest
      }),
    }))
  }

  const splitAt = (at: string) => edit((s) => splitSection(s, metres('Split at', at)))

  const moveEnd = (move: { index: string; to: string }) =>
    edit((s) => {
      const n = Number(move.index)
      if (!Number.isInteger(n) || n < 1 || n > s.length)
        throw new Error(`Move end: “${move.index}” is not a section number (1–${s.length}).`)
      return moveSectionEnd(s, n - 1, metres('New end', move.to))
    })

  async function save() {
    setBusy(true)
    setMessage(null)
    try {
      const settings = {
        ...course.settings,
        segmentation: state.level,
        sections: sectionsToJson(state.sections),
      }
      const saved = await api<Course>(`/api/courses/${course.id}`, {
        method: 'PATCH',
        body: { settings },
      })
      onSaved({ ...course, ...saved })
      setState((s) => ({ ...s, stored: true }))
      setMessage({ ok: true, text: `Stored ${state.sections.length} sections.` })
    } catch (e) {
      setMessage({ ok: false, text: errorMessage(e) })
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="space-y-3">
      <ElevationChart
        segments={course.segments}
        height={160}
        label="Section boundaries on the profile"
        marks={state.sections.slice(1).map((s) => s.startM)}
      />
      {editable ? (
        <SectionsToolbar
          level={state.level}
          saveDisabled={busy || state.stored}
          busy={busy}
          onApply={apply}
          onSplitAt={splitAt}
          onMoveEnd={moveEnd}
          onSave={() => void save()}
        />
      ) : null}
      <p className="text-xs text-slate-500" data-testid="sections-summary">
        {state.sections.length} sections ·{' '}
        {state.level === 'manual' ? 'edited by hand' : `automatic, ${state.level}`}
        {state.stored ? ' · stored' : ' · not stored'}
      </p>
      <SectionsTable
        rows={rows}
        sections={state.sections}
        editable={editable}
        onRename={rename}
        onEdit={edit}
      />
      <OutcomeLine outcome={message} />
    </div>
  )
}

function SectionsTable({
  rows,
  sections,
  editable,
  onRename,
  onEdit,
}: {
  rows: ReturnType<typeof summarizeSections>
  sections: CourseSection[]
  editable: boolean
  onRename(index: number, name: string): void
  onEdit(change: (s: CourseSection[]) => CourseSection[]): void
}) {
  const { system } = useUnits()
  const unit = unitLabel('distance', system)
  const shown = (m: number) => toDisplay('distance', m, system).toFixed(2)
  return (
    <div className="relative overflow-x-auto">
      <table className="w-full text-sm" aria-label="Sections">
        <thead className="text-left text-xs text-slate-500">
          <tr>
            <th className="py-1 pr-2">#</th>
            <th className="pr-2">Start ({unit})</th>
            <th className="pr-2">End ({unit})</th>
            <th className="pr-2">Length ({unit})</th>
            <th className="pr-2">Grade</th>
            <th className="pr-2">Terrain</th>
            <th className="pr-2">Title</th>
            {editable ? <th className="sr-only">Actions</th> : null}
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={`${r.startM}-${r.endM}`} className="border-t border-slate-100">
              <td className="py-1 pr-2">{i + 1}</td>
              <td className="pr-2 tabular-nums">{shown(r.startM)}</td>
              <td className="pr-2 tabular-nums">{shown(r.endM)}</td>
              <td className="pr-2 tabular-nums">{shown(r.lengthM)}</td>
              <td className="pr-2 tabular-nums">{percent(r.grade)}</td>
              <td className="pr-2">{r.terrain}</td>
              <td className="py-0.5 pr-2">
                {editable ? (
                  <input
                    type="text"
                    aria-label={`Section ${i + 1} title`}
                    maxLength={100}
                    placeholder="Title (optional)"
                    value={sections[i]?.name ?? ''}
                    onChange={(e) => onRename(i, e.target.value)}
                    className={`${inputClass} min-w-32`}
                  />
                ) : (
                  (r.name ?? '')
                )}
              </td>
              {editable ? (
                <td className="space-x-2 whitespace-nowrap text-right">
                  <button
                    type="button"
                    className="text-brand-700 underline"
                    aria-label={`Split section ${i + 1} in half`}
                    onClick={() => onEdit((s) => splitSection(s, (r.startM + r.endM) / 2))}
                  >
                    Split
                  </button>
                  {i < rows.length - 1 ? (
                    <button
                      type="button"
                      className="text-brand-700 underline"
                      aria-label={`Merge section ${i + 1} with the next`}
                      onClick={() => onEdit((s) => mergeSections(s, i))}
                    >
                      Merge with next
                    </button>
                  ) : null}
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

function SectionsToolbar({
  level,
  saveDisabled,
  busy,
  onApply,
  onSplitAt,
  onMoveEnd,
  onSave,
}: {
  level: SectionLevel | 'manual'
  saveDisabled: boolean
  busy: boolean
  onApply(level: SectionLevel): void
  onSplitAt(at: string): void
  onMoveEnd(move: { index: string; to: string }): void
  onSave(): void
}) {
  const { system } = useUnits()
  const unit = unitLabel('distance', system)
  const [at, setAt] = useState('')
  const [move, setMove] = useState({ index: '1', to: '' })
  const moveField = stateBinder(move, setMove)
  return (
    <div className="flex flex-wrap items-end gap-2">
      {LEVELS.map((l) => (
        <Button
          key={l.value}
          variant={level === l.value ? 'primary' : 'secondary'}
          onClick={() => onApply(l.value)}
        >
          {l.label}
        </Button>
      ))}
      <div className="w-36">
        <Field label="Split at" unit={unit} value={at} onChange={setAt} />
      </div>
      <Button variant="secondary" onClick={() => onSplitAt(at)}>
        Split here
      </Button>
      <div className="w-32">
        <Field label="Section number" {...moveField('index')} />
      </div>
      <div className="w-36">
        <Field label="New end" unit={unit} {...moveField('to')} />
      </div>
      <Button variant="secondary" onClick={() => onMoveEnd(move)}>
        Move end
      </Button>
      <Button onClick={onSave} disabled={saveDisabled}>
        {busy ? 'Storing…' : 'Store sections'}
      </Button>
    </div>
  )
}

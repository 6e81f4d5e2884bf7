// Trim the course to the race part and set the surface of stretches: both change the stored
// segments that every simulation reads (the uploaded file itself is kept unchanged).
import { useState } from 'react'
import { api } from '../../../lib/api-client.ts'
import { fromDisplay, toDisplay, unitLabel, useUnits } from '../../../lib/units.ts'
import type { Course } from '../lib/api.ts'
import { errorMessage } from '../lib/api.ts'
import { setSurface, surfaceLengths, trimCourse } from '../lib/course-edit.ts'
import { Field, Select, stateBinder } from '../../../components/form.tsx'
import { Button, OutcomeLine, type Outcome } from './ui.tsx'

type Surface = 'smooth' | 'normal' | 'rough'
const SURFACES = [
  { value: 'smooth', label: 'Smooth' },
  { value: 'normal', label: 'Normal' },
  { value: 'rough', label: 'Rough' },
] as const

export function CourseEditor({ course, onSaved }: { course: Course; onSaved(c: Course): void }) {
  const { system } = useUnits()
  const unit = unitLabel('distance', system)
  const total = course.segments.at(-1)?.end ?? 0
  const shown = (m: number) => String(Number(toDisplay('distance', m, system).toFixed(2)))
  const [trim, setTrim] = useState({ from: '0', to: shown(total) })
  const [stretch, setStretch] = useState({
    from: '0',
    to: shown(total),
    surface: 'rough' as Surface,
  })
  const trimField = stateBinder(trim, setTrim)
  const stretchField = stateBinder(stretch, setStretch)
  const [message, setMessage] = useState<Outcome | null>(null)
  const [busy, setBusy] = useState(false)

  const metres = (label: string, text: string) => {
    const v = Number(text.replace(',', '.'))
    if (text.trim() === '' || !Number.isFinite(v))
      throw new Error(`${label}: “${text}” is not a number.`)
    return fromDisplay('distance', v, system)
  }

  async function patch(body: Record<string, unknown>, done: string) {
    setBusy(true)
    try {
      const saved = await api<Course>(`/api/courses/${course.id}`, { method: 'PATCH', body })
      onSaved({ ...course, ...body, ...saved })
      setMessage({ ok: true, text: done })
    } catch (e) {
      setMessage({ ok: false, text: errorMessage(e) })
    } finally {
      setBusy(false)
    }
  }

  function applyTrim() {
    setMessage(null)
    try {
      const start = metres('Trim start', trim.from)
      const end = metres('Trim end', trim.to)
      const t = trimCourse(course.segments, course.track, start, end)
      if (!window.confirm(`Keep only ${shown(start)}–${shown(end)} ${unit} of this course?`)) return
      void patch(
        {
          segments: t.segments,
          track: t.track,
          stats: t.stats,
          // stored sections covered the untrimmed course: the sections panel starts again
          settings: { ...course.settings, trim: { start, end }, sections: undefined },
        },
        `Trimmed to ${shown(t.stats.distance)} ${unit}.`,
      )
      setTrim({ from: '0', to: shown(t.stats.distance) })
    } catch (e) {
      setMessage({ ok: false, text: errorMessage(e) })
    }
  }

  function applySurface() {
    setMessage(null)
    try {
      const r = setSurface(
        course.segments,
        metres('Stretch start', stretch.from),
        metres('Stretch end', stretch.to),
        stretch.surface,
      )
      void patch({ segments: r.segments }, `${r.changed} segments set to ${stretch.surface}.`)
    } catch (e) {
      setMessage({ ok: false, text: errorMessage(e) })
    }
  }

  const lengths = surfaceLengths(course.segments, course.settings.surface ?? 'normal')
  return (
    <div className="space-y-4">
      <div className="grid grid-cols-3 items-end gap-2">
        <Field label="Trim start" unit={unit} {...trimField('from')} />
        <Field label="Trim end" unit={unit} {...trimField('to')} />
        <Button variant="secondary" onClick={applyTrim} disabled={busy}>
          Trim
        </Button>
      </div>
      <div className="grid grid-cols-4 items-end gap-2">
        <Field label="Stretch from" unit={unit} {...stretchField('from')} />
        <Field label="Stretch to" unit={unit} {...stretchField('to')} />
        <Select label="Surface of the stretch" {...stretchField('surface')} options={SURFACES} />
        <Button variant="secondary" onClick={applySurface} disabled={busy}>
          Apply
        </Button>
      </div>
      <p className="text-xs text-slate-500" data-testid="surface-lengths">
        Smooth {shown(lengths.smooth)} {unit} · normal {shown(lengths.normal)} {unit} · rough{' '}
        {shown(lengths.rough)} {unit}
      </p>
      <OutcomeLine outcome={message} />
    </div>
  )
}

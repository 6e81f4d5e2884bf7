import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react'
import { zodResolver } from '@hookform/resolvers/zod'
import { useMutation } from '@tanstack/react-query'
import { useState } from 'react'
import { useForm, useWatch, type UseFormReturn } from 'react-hook-form'
import { aeroRunFormSchema, type AeroRunForm, type AeroSourceFile } from '@veloptima/contracts'
import { buttonClass } from '../../components/button.ts'
import { Field, Select } from '../../components/form.tsx'
import { api, ApiError } from '../../lib/api-client.ts'
import { aeroApi } from './api.ts'

/** "m:ss", "h:mm:ss" or seconds → seconds; NaN when unreadable. */
export function parseClock(text: string): number {
  const t = text.trim()
  if (t === '') return NaN
  if (!t.includes(':')) return Number(t.replace(',', '.'))
  const parts = t.split(':').map((p) => Number(p.replace(',', '.')))
  if (parts.some((p) => !Number.isFinite(p) || p < 0)) return NaN
  return parts.reduce((acc, p) => acc * 60 + p, 0)
}

/** The session-wide lap numbers of each file's laps (a file's laps follow the earlier files'). */
export function lapOptions(files: AeroSourceFile[]) {
  let base = 0
  const out: { value: number; label: string }[] = []
  for (const f of files) {
    for (let j = 0; j < f.laps; j++)
      out.push({ value: base + j, label: `${f.name} · lap ${j + 1}` })
    base += Math.max(1, f.laps)
  }
  return out
}

const EMPTY: AeroRunForm = {
  name: '',
  setup: '',
  baseline: false,
  mode: 'range',
  fileIndex: 0,
  from: '',
  to: '',
  lap: 0,
}

/** "m:ss" of a file's length, for the message of a range past its end. */
const fileLength = (f: AeroSourceFile) =>
  `${Math.floor(f.duration_s / 60)}:${String(Math.round(f.duration_s % 60)).padStart(2, '0')}`

/**
 * Where the typed run lies in the session's data (`where`: a time range on the session's clock
 * or a lap; null while it is incomplete) and what is wrong with a typed range.
 */
export function runPlace(v: AeroRunForm, files: AeroSourceFile[]) {
  const file = files[v.fileIndex]
  const start = parseClock(v.from)
  const end = parseClock(v.to)
  const rangeError =
    v.mode !== 'range' || (v.from === '' && v.to === '')
      ? null
      : !Number.isFinite(start) || !Number.isFinite(end)
        ? 'Enter the start and the end as m:ss (or seconds).'
        : start >= end
          ? 'The start must come before the end.'
          : file && end > file.duration_s + 1
            ? `${file.name} lasts ${fileLength(file)}.`
            : null
  const where =
    v.mode === 'lap'
      ? lapOptions(files).length > 0
        ? { lap: v.lap }
        : null
      : file && Number.isFinite(start) && Number.isFinite(end) && !rangeError
        ? { start_time: file.offset_s + start, end_time: file.offset_s + end }
        : null
  return { where, rangeError }
}

/** The two ends of a run's time range, typed as clock times of its file. */
const RANGE_ENDS = [
  { key: 'from', label: 'From', placeholder: '2:30' },
  { key: 'to', label: 'To', placeholder: '7:45' },
] as const

/** The part of the data a run is: a time range of one file, or one of the laps. */
function RunPlaceFields({
  form,
  files,
  rangeError,
}: {
  form: UseFormReturn<AeroRunForm>
  files: AeroSourceFile[]
  rangeError: string | null
}) {
  const v = useWatch({ control: form.control }) as AeroRunForm
  const set = form.setValue
  const laps = lapOptions(files)
  return (
    <>
      <fieldset>
        <legend className="text-sm font-medium text-slate-700">Part of the data</legend>
        <div className="mt-1 flex gap-4 text-sm text-slate-700">
          <label className="flex items-center gap-1">
            <input
              type="radio"
              name="run-mode"
              checked={v.mode === 'range'}
              onChange={() => set('mode', 'range')}
            />
            Time range
          </label>
          <label className="flex items-center gap-1">
            <input
              type="radio"
              name="run-mode"
              checked={v.mode === 'lap'}
              disabled={laps.length === 0}
              onChange={() => set('mode', 'lap')}
            />
            Lap
          </label>
        </div>
      </fieldset>
      {v.mode === 'range' ? (
        <div className="grid grid-cols-2 gap-3">
          <div className="col-span-2">
            <Select
              label="File"
              value={String(v.fileIndex)}
              onChange={(x) => set('fileIndex', Number(x))}
              options={files.map((f, i) => ({ value: String(i), label: f.name }))}
            />
          </div>
          {RANGE_ENDS.map((end) => (
            <Field
              key={end.key}
              label={end.label}
              unit="m:ss"
              inputMode="text"
              value={v[end.key]}
              placeholder={end.placeholder}
              onChange={(x) => set(end.key, x)}
            />
          ))}
          {rangeError ? <p className="col-span-2 text-xs text-red-700">{rangeError}</p> : null}
        </div>
      ) : (
        <Select
          label="Which lap"
          value={String(v.lap)}
          onChange={(x) => set('lap', Number(x))}
          options={laps.map((l) => ({ value: String(l.value), label: l.label }))}
        />
      )}
    </>
  )
}

/**
 * The sessions' add-run dialog: a run from a time range of one file or from a lap, with its
 * configuration (position, helmet, wheels…); the session is analysed again to give it a CdA.
 */
export function AddRunDialog({
  sessionId,
  nextPosition,
  files,
  onCreated,
}: {
  sessionId: string
  nextPosition: number
  files: AeroSourceFile[]
  onCreated?: () => void
}) {
  const [open, setOpen] = useState(false)
  const form = useForm<AeroRunForm>({
    resolver: zodResolver(aeroRunFormSchema),
    defaultValues: EMPTY,
  })
  const { handleSubmit } = form
  const v = useWatch({ control: form.control }) as AeroRunForm
  const { where, rangeError } = runPlace(v, files)
  const create = useMutation({
    mutationFn: async (values: AeroRunForm) => {
      await api(`/api/aero-sessions/${encodeURIComponent(sessionId)}/runs`, {
        method: 'POST',
        body: {
          name: values.name.trim(),
          position: nextPosition,
          is_baseline: values.baseline,
          configuration: values.setup.trim() ? { setup: values.setup.trim() } : {},
          ...runPlace(values, files).where,
        },
      })
      if (files.length > 0) {
        await aeroApi.analyse(sessionId, { label: `Run added: ${values.name.trim()}` })
      }
    },
    onSuccess: () => {
      onCreated?.()
      setOpen(false)
      // the kind of part (range or lap), the file and the lap stay as they were
      form.reset({ ...form.getValues(), name: '', setup: '', from: '', to: '', baseline: false })
    },
  })
  const ready = v.name.trim() !== '' && where != null
  return (
    <>
      <button type="button" className={buttonClass.secondary} onClick={() => setOpen(true)}>
        Add run
      </button>
      <Dialog open={open} onClose={() => setOpen(false)} className="relative z-50">
        <div className="fixed inset-0 bg-slate-900/30" aria-hidden="true" />
        <div className="fixed inset-0 flex items-center justify-center p-4">
          <DialogPanel className="w-full max-w-md rounded-2xl bg-white p-6 shadow-xl">
            <DialogTitle className="text-lg font-semibold text-slate-900">Add run</DialogTitle>
            {files.length === 0 ? (
              <p className="mt-2 text-sm text-slate-600">
                Upload the test data first: a run is a time range or a lap of it.
              </p>
            ) : null}
            <form
              className="mt-4 space-y-4"
              onSubmit={handleSubmit((values) => {
                if (ready) create.mutate(values)
              })}
            >
              <Field
                label="Run name"
                required
                inputMode="text"
                value={v.name}
                onChange={(x) => form.setValue('name', x)}
              />
              <Field
                label="Configuration"
                inputMode="text"
                value={v.setup}
                placeholder="e.g. aero helmet, 60 mm wheels"
                onChange={(x) => form.setValue('setup', x)}
              />
              <RunPlaceFields form={form} files={files} rangeError={rangeError} />
              <label className="flex items-center gap-2 text-sm text-slate-700">
                <input
                  type="checkbox"
                  className="h-4 w-4 rounded border-slate-300 text-brand-600"
                  {...form.register('baseline')}
                />
                Baseline run
              </label>
              {create.isError && (
                <p role="alert" className="text-sm text-red-700">
                  {create.error instanceof ApiError
                    ? create.error.message
                    : 'The run could not be added.'}
                </p>
              )}
              <div className="flex justify-end gap-3">
                <button type="button" className={buttonClass.ghost} onClick={() => setOpen(false)}>
                  Cancel
                </button>
                <button
                  type="submit"
                  disabled={create.isPending || !ready}
                  className={buttonClass.primary}
                >
                  Add run
                </button>
              </div>
            </form>
          </DialogPanel>
        </div>
      </Dialog>
    </>
  )
}

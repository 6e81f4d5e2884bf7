import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react'
import { useMutation } from '@tanstack/react-query'
import { useState } from 'react'
import type { AeroSourceFile } from '@veloptima/contracts'
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
  const [name, setName] = useState('')
  const [setup, setSetup] = useState('')
  const [baseline, setBaseline] = useState(false)
  const [mode, setMode] = useState<'range' | 'lap'>('range')
  const [fileIndex, setFileIndex] = useState(0)
  const [from, setFrom] = useState('')
  const [to, setTo] = useState('')
  const laps = lapOptions(files)
  const [lap, setLap] = useState(0)
  const file = files[fileIndex]
  const start = parseClock(from)
  const end = parseClock(to)
  const rangeError =
    mode !== 'range' || (from === '' && to === '')
      ? null
      : !Number.isFinite(start) || !Number.isFinite(end)
        ? 'Enter the start and the end as m:ss (or seconds).'
        : start >= end
          ? 'The start must come before the end.'
          : file && end > file.duration_s + 1
            ? `${file.name} lasts ${Math.floor(file.duration_s / 60)}:${String(Math.round(file.duration_s % 60)).padStart(2, '0')}.`
            : null
  const where =
    mode === 'lap'
      ? laps.length > 0
        ? { lap }
        : null
      : file && Number.isFinite(start) && Number.isFinite(end) && !rangeError
        ? { start_time: file.offset_s + start, end_time: file.offset_s + end }
        : null
  const create = useMutation({
    mutationFn: async () => {
      await api(`/api/aero-sessions/${encodeURIComponent(sessionId)}/runs`, {
        method: 'POST',
        body: {
          name: name.trim(),
          position: nextPosition,
          is_baseline: baseline,
          configuration: setup.trim() ? { setup: setup.trim() } : {},
          ...where,
        },
      })
      if (files.length > 0) await aeroApi.analyse(sessionId, { label: `Run added: ${name.trim()}` })
    },
    onSuccess: () => {
      onCreated?.()
      setOpen(false)
      setName('')
      setSetup('')
      setFrom('')
      setTo('')
      setBaseline(false)
    },
  })
  const ready = name.trim() !== '' && where != null
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
              onSubmit={(e) => {
                e.preventDefault()
                if (ready) create.mutate()
              }}
            >
              <Field label="Run name" required inputMode="text" value={name} onChange={setName} />
              <Field
                label="Configuration"
                inputMode="text"
                value={setup}
                placeholder="e.g. aero helmet, 60 mm wheels"
                onChange={setSetup}
              />
              <fieldset>
                <legend className="text-sm font-medium text-slate-700">Part of the data</legend>
                <div className="mt-1 flex gap-4 text-sm text-slate-700">
                  <label className="flex items-center gap-1">
                    <input
                      type="radio"
                      name="run-mode"
                      checked={mode === 'range'}
                      onChange={() => setMode('range')}
                    />
                    Time range
                  </label>
                  <label className="flex items-center gap-1">
                    <input
                      type="radio"
                      name="run-mode"
                      checked={mode === 'lap'}
                      disabled={laps.length === 0}
                      onChange={() => setMode('lap')}
                    />
                    Lap
                  </label>
                </div>
              </fieldset>
              {mode === 'range' ? (
                <div className="grid grid-cols-2 gap-3">
                  <div className="col-span-2">
                    <Select
                      label="File"
                      value={String(fileIndex)}
                      onChange={(v) => setFileIndex(Number(v))}
                      options={files.map((f, i) => ({ value: String(i), label: f.name }))}
                    />
                  </div>
                  <Field
                    label="From"
                    unit="m:ss"
                    inputMode="text"
                    value={from}
                    placeholder="2:30"
                    onChange={setFrom}
                  />
                  <Field
                    label="To"
                    unit="m:ss"
                    inputMode="text"
                    value={to}
                    placeholder="7:45"
                    onChange={setTo}
                  />
                  {rangeError ? (
                    <p className="col-span-2 text-xs text-red-700">{rangeError}</p>
                  ) : null}
                </div>
              ) : (
                <Select
                  label="Which lap"
                  value={String(lap)}
                  onChange={(v) => setLap(Number(v))}
                  options={laps.map((l) => ({ value: String(l.value), label: l.label }))}
                />
              )}
              <label className="flex items-center gap-2 text-sm text-slate-700">
                <input
                  type="checkbox"
                  checked={baseline}
                  onChange={(e) => setBaseline(e.target.checked)}
                  className="h-4 w-4 rounded border-slate-300 text-brand-600"
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

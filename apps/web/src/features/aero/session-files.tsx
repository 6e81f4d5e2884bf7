// The aero session's files: the upload (progress, named errors), the files list and the
// analysis versions with their status, model and warnings.
import { useRef, useState } from 'react'
import type { AeroAnalysisVersion, AeroSession, AeroSourceFile } from '@veloptima/contracts'
import { formatDayTime } from '../../lib/dates.ts'
import { formatQuantity, useUnits } from '../../lib/units.ts'
import { Field } from '../../components/form.tsx'
import { Card } from './ui.tsx'
import { errorText, uploadSessionFile } from './api.ts'
import { Alert } from './session-parts.tsx'

export function Upload({ session, onQueued }: { session: AeroSession; onQueued(): void }) {
  const input = useRef<HTMLInputElement>(null)
  const [configuration, setConfiguration] = useState('')
  const [tyre, setTyre] = useState('')
  const [progress, setProgress] = useState<{ name: string; fraction: number } | null>(null)
  const [errors, setErrors] = useState<string[]>([])
  const [done, setDone] = useState<string[]>([])

  async function send(list: File[]) {
    setErrors([])
    setDone([])
    for (const file of list) {
      setProgress({ name: file.name, fraction: 0 })
      try {
        await uploadSessionFile(session.id, file, { configuration, tyre }, (fraction) =>
          setProgress({ name: file.name, fraction }),
        )
        setDone((d) => [...d, file.name])
        onQueued()
      } catch (e) {
        setErrors((x) => [...x, errorText(e)])
      }
    }
    setProgress(null)
    if (input.current) input.current.value = ''
  }

  return (
    <Card title="Add test data">
      <div className="grid gap-4 sm:grid-cols-[1fr_1fr_auto] sm:items-end">
        <Field
          label="Configuration of the runs in this file"
          value={configuration}
          onChange={setConfiguration}
          inputMode="text"
          hint="e.g. Helmet A, drops, 60 mm wheels. Empty: the file's name."
        />
        <Field
          label="Tyres of the runs in this file"
          value={tyre}
          onChange={setTyre}
          inputMode="text"
          hint="Optional. Runs on other tyres get a Crr each."
        />
        <div>
          <label className="inline-block cursor-pointer rounded-md bg-brand-600 px-3 py-2 text-sm font-semibold text-white shadow-sm hover:bg-brand-700">
            Choose files
            <input
              ref={input}
              type="file"
              multiple
              accept=".fit,.tcx,.csv,.json,.gpx"
              aria-label="Test data files"
              className="sr-only"
              onChange={(e) => {
                const files = Array.from(e.target.files ?? [])
                if (files.length) void send(files)
              }}
            />
          </label>
        </div>
      </div>
      <p className="mt-2 text-xs text-slate-500">
        FIT (with an aero sensor&apos;s developer fields), TCX, GoldenCheetah JSON, CSV (time,
        speed, power, altitude, airspeed, lap…) or an iBike CSV. Power and speed are needed.
      </p>
      {progress ? (
        <div className="mt-3 max-w-md">
          <progress
            className="w-full"
            max={1}
            value={progress.fraction}
            aria-label="Upload progress"
          />
          <p className="text-xs text-slate-500">
            {progress.fraction < 1
              ? `Uploading ${progress.name}… ${Math.round(progress.fraction * 100)} %`
              : `Reading ${progress.name}…`}
          </p>
        </div>
      ) : null}
      {done.length > 0 && !progress ? (
        <p role="status" className="mt-2 text-sm text-green-800">
          Read {done.join(', ')}: the analysis is running.
        </p>
      ) : null}
      {errors.map((e) => (
        <p key={e} role="alert" className="mt-2 text-sm text-red-700">
          {e}
        </p>
      ))}
    </Card>
  )
}

export function Files({ files }: { files: AeroSourceFile[] }) {
  if (files.length === 0) return null
  return (
    <ul
      className="mt-3 divide-y divide-slate-100 rounded-lg bg-white text-sm ring-1 ring-slate-200"
      aria-label="Files of this session"
    >
      {files.map((f) => (
        <li key={f.block_id} className="flex flex-wrap justify-between gap-2 px-4 py-2">
          <span className="font-medium text-slate-900">{f.name}</span>
          <span className="text-slate-500">
            {f.format.toUpperCase()} · {Math.round(f.duration_s / 60)} min · {f.samples} samples ·{' '}
            {f.laps} lap{f.laps === 1 ? '' : 's'} · {f.channels.join(', ')}
            {f.configuration.setup ? ` · ${f.configuration.setup}` : ''}
          </span>
        </li>
      ))}
    </ul>
  )
}

/** How the virtual elevation moved the rider (the engine's `veModel`), in words. */
export const VE_MODEL_TEXT: Record<'road' | 'track', string> = {
  road: 'road (the rider moves as the wheel)',
  track: 'velodrome (lean in the bends, flat closed track)',
}

export function VersionStatus({ versions }: { versions: AeroAnalysisVersion[] }) {
  const v = versions[0]
  if (!v) return null
  const busy = v.status === 'queued' || v.status === 'running'
  return (
    <div className="mt-3 text-sm" data-testid="analysis-status">
      {busy ? (
        <div role="status" className="max-w-md">
          <p className="text-slate-700">
            Analysis v{v.version} {v.status === 'queued' ? 'waiting' : 'running'}
            {v.message ? `: ${v.message}` : ''}
          </p>
          <progress
            className="w-full"
            max={100}
            value={v.progress}
            aria-label="Analysis progress"
          />
        </div>
      ) : v.status === 'failed' ? (
        <Alert>
          Analysis v{v.version} failed: {v.error?.message ?? 'unknown error'}
        </Alert>
      ) : (
        <p className="text-slate-600">
          Analysis v{v.version}
          {v.label ? ` (${v.label})` : ''} done
          {versions.length > 1
            ? ` · ${versions.length - 1} earlier version${versions.length > 2 ? 's' : ''} kept`
            : ''}
          {v.summary?.ve_model ? (
            <span data-testid="ve-model">
              {' · VE model: '}
              {VE_MODEL_TEXT[v.summary.ve_model]}
            </span>
          ) : null}
        </p>
      )}
      {versions.length > 1 ? <Versions versions={versions} /> : null}
      {v.summary?.warnings.length ? (
        <ul
          className="mt-2 list-disc pl-5 text-xs text-amber-800"
          aria-label="Analysis warnings"
          data-testid="analysis-warnings"
        >
          {v.summary.warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      ) : null}
    </div>
  )
}

/** Every analysis of the session, newest first: what it was run with and what it gave. */
function Versions({ versions }: { versions: AeroAnalysisVersion[] }) {
  const { system } = useUnits()
  return (
    <details className="mt-2">
      <summary className="cursor-pointer text-sm font-medium text-slate-700">
        All analyses ({versions.length})
      </summary>
      <table className="mt-2 w-full text-left text-xs" aria-label="Analysis versions">
        <thead className="text-slate-500">
          <tr>
            {['Version', 'Why', 'When', 'Mass', 'Crr', 'Calibration', 'Runs', 'Status'].map((h) => (
              <th key={h} className="px-2 py-1 font-medium">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 text-slate-700">
          {versions.map((v) => (
            <tr key={v.version}>
              <td className="px-2 py-1">v{v.version}</td>
              <td className="px-2 py-1">{v.label ?? 'Upload'}</td>
              <td className="px-2 py-1">{formatDayTime(v.created_at)}</td>
              <td className="px-2 py-1">
                {v.settings.mass_kg != null
                  ? formatQuantity('mass', v.settings.mass_kg, system)
                  : '—'}
              </td>
              <td className="px-2 py-1">{v.settings.crr != null ? v.settings.crr : 'fitted'}</td>
              <td className="px-2 py-1">{v.settings.calibration_factor ?? 'default'}</td>
              <td className="px-2 py-1">{v.summary?.runs ?? '—'}</td>
              <td className="px-2 py-1">{v.status}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  )
}

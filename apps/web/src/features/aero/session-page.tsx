// An aero session (v5 or v6): upload the field test, choose the device, set the analysis
// inputs, read the runs' CdA and the comparison to the baseline, move the VE sliders.
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Link, useParams } from 'react-router'
import type {
  AeroAnalysisSettings,
  AeroAnalysisVersion,
  AeroRun,
  AeroRunResults,
  AeroSession,
  AeroSourceFile,
  Device,
  Page,
} from '@veloptima/contracts'
import type { AeroComparison } from '@veloptima/engine'
import { EmptyState } from '../../components/empty-state.tsx'
import { PageSpinner } from '../../components/spinner.tsx'
import { api } from '../../lib/api-client.ts'
import {
  formatQuantity,
  fromDisplay,
  toDisplay,
  unitLabel,
  useUnits,
  type UnitSystem,
} from '../../lib/units.ts'
import { Field, fieldBinder, Select } from '../../components/form.tsx'
import { Button, Card } from './ui.tsx'
import { AddRunDialog } from './add-run-dialog.tsx'
import { aeroApi, errorText, uploadSessionFile, type RunBlock, type VersionAnswer } from './api.ts'
import { CdaChart } from './cda-chart.tsx'
import { LapsMap } from './laps-map.tsx'
import { VeChart } from './ve-chart.tsx'

type Anchor = { id: string; label: string }

const sessionKey = (id: string) => ['aero-session', id]
const dateOf = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : 'No start time')

function Section({
  id,
  title,
  children,
  action,
}: {
  id: string
  title: string
  children: ReactNode
  action?: ReactNode
}) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="scroll-mt-20">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-4">
        <h2 id={`${id}-title`} className="text-lg font-semibold text-slate-900">
          {title}
        </h2>
        {action}
      </div>
      {children}
    </section>
  )
}

function Alert({ children }: { children: ReactNode }) {
  return (
    <p role="alert" className="rounded-lg bg-red-50 px-4 py-3 text-sm text-red-800">
      {children}
    </p>
  )
}

// — upload —

function Upload({ session, onQueued }: { session: AeroSession; onQueued(): void }) {
  const input = useRef<HTMLInputElement>(null)
  const [configuration, setConfiguration] = useState('')
  const [progress, setProgress] = useState<{ name: string; fraction: number } | null>(null)
  const [errors, setErrors] = useState<string[]>([])
  const [done, setDone] = useState<string[]>([])

  async function send(list: File[]) {
    setErrors([])
    setDone([])
    for (const file of list) {
      setProgress({ name: file.name, fraction: 0 })
      try {
        await uploadSessionFile(session.id, file, configuration, (fraction) =>
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
      <div className="grid gap-4 sm:grid-cols-[1fr_auto] sm:items-end">
        <Field
          label="Configuration of the runs in this file"
          value={configuration}
          onChange={setConfiguration}
          inputMode="text"
          hint="e.g. Helmet A, drops, 60 mm wheels. Empty: the file's name."
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

function Files({ files }: { files: AeroSourceFile[] }) {
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

function VersionStatus({ versions }: { versions: AeroAnalysisVersion[] }) {
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
              <td className="px-2 py-1">{new Date(v.created_at).toLocaleString()}</td>
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

// — devices —

function Devices({ session }: { session: AeroSession }) {
  const client = useQueryClient()
  const mine = useQuery({
    queryKey: ['devices'],
    queryFn: () => api<Page<Device>>('/api/devices?limit=200'),
  })
  const [adding, setAdding] = useState('')
  const save = useMutation({
    mutationFn: (devices: AeroSession['devices']) =>
      api<AeroSession>(`/api/aero-sessions/${session.id}`, { method: 'PATCH', body: { devices } }),
    onSuccess: (s) => client.setQueryData(sessionKey(session.id), s),
  })
  const byId = new Map((mine.data?.items ?? []).map((d) => [d.id, d]))
  const others = (mine.data?.items ?? []).filter(
    (d) => !session.devices.some((x) => x.device_id === d.id),
  )
  const primary =
    session.devices.find((d) => d.role === 'primary')?.device_id ?? session.devices[0]?.device_id
  return (
    <>
      {session.devices.length === 0 ? (
        <EmptyState title="No devices in this session">
          Add the aero sensor that recorded this session: its data is read when a file carries
          several sensors, and its calibration factor is used by the direct method.
        </EmptyState>
      ) : (
        <ul className="grid gap-3 sm:grid-cols-2">
          {session.devices.map((d) => {
            const device = byId.get(d.device_id)
            return (
              <li key={d.device_id} className="rounded-xl bg-white p-4 ring-1 ring-slate-200">
                <div className="flex items-start justify-between gap-2">
                  <Link
                    to={`/aero/devices/${d.device_id}`}
                    className="font-medium text-slate-900 hover:text-brand-700"
                  >
                    {device?.name ?? 'Device'}
                  </Link>
                  <label className="flex items-center gap-1 text-xs text-slate-600">
                    <input
                      type="radio"
                      name="primary-device"
                      checked={primary === d.device_id}
                      onChange={() =>
                        save.mutate(
                          session.devices.map((x) => ({
                            ...x,
                            role: x.device_id === d.device_id ? 'primary' : 'secondary',
                          })),
                        )
                      }
                    />
                    Use its data
                  </label>
                </div>
                <p className="text-sm text-slate-500">
                  {device
                    ? `serial ${device.serial}${device.model ? ` · ${device.model}` : ''}`
                    : ''}
                </p>
                <p className="text-sm text-slate-500">
                  Calibration factor{' '}
                  {(
                    d.calibration_factor ?? Number(device?.calibration.calibration_factor ?? NaN)
                  ).toFixed?.(3) ?? '—'}
                </p>
              </li>
            )
          })}
        </ul>
      )}
      <div className="mt-4 flex flex-wrap items-end gap-3">
        <div className="min-w-60">
          <Select
            label="Add a device"
            value={adding}
            onChange={setAdding}
            options={[
              { value: '', label: 'Choose a registered device…' },
              ...others.map((d) => ({ value: d.id, label: `${d.name} (${d.serial})` })),
            ]}
          />
        </div>
        <Button
          variant="secondary"
          disabled={!adding || save.isPending}
          onClick={() => {
            const device = byId.get(adding)
            const factor = Number(device?.calibration.calibration_factor)
            save.mutate([
              ...session.devices,
              {
                device_id: adding,
                role: session.devices.length === 0 ? 'primary' : 'secondary',
                ...(Number.isFinite(factor) && factor >= 0.5 && factor <= 1.5
                  ? { calibration_factor: factor }
                  : {}),
              },
            ])
            setAdding('')
          }}
        >
          Add to session
        </Button>
        <Link to="/aero/devices" className="text-sm font-semibold text-brand-700 hover:underline">
          Register a device
        </Link>
      </div>
      {save.isError ? <Alert>{errorText(save.error)}</Alert> : null}
    </>
  )
}

// — analysis settings (the session's environment) —

type SettingsForm = {
  mass: string
  crrMode: 'fit' | 'fixed'
  crr: string
  eta: string
  airMode: 'file' | 'density' | 'weather'
  density: string
  temperature: string
  pressureHpa: string
  humidityPct: string
  refSpeed: string
  refPower: string
  calibration: string
  method: 'auto' | 've' | 'direct'
}

const fToC = (f: number) => ((f - 32) * 5) / 9
const cToF = (c: number) => (c * 9) / 5 + 32
const text = (x: number | null | undefined, digits: number) =>
  x == null ? '' : String(Number(x.toFixed(digits)))

function formOf(env: Record<string, unknown>, system: UnitSystem): SettingsForm {
  const s = env as AeroAnalysisSettings
  return {
    mass: text(s.mass_kg != null ? toDisplay('mass', s.mass_kg, system) : null, 1),
    crrMode: s.crr != null ? 'fixed' : 'fit',
    crr: text(s.crr, 5) || '0.004',
    eta: text(s.drivetrain_efficiency != null ? s.drivetrain_efficiency * 100 : 97.6, 1),
    airMode: s.air_density_kg_m3 != null ? 'density' : s.temperature_c != null ? 'weather' : 'file',
    density: text(s.air_density_kg_m3, 4) || '1.2',
    temperature: text(
      s.temperature_c != null
        ? system === 'metric'
          ? s.temperature_c
          : cToF(s.temperature_c)
        : null,
      1,
    ),
    pressureHpa: text(s.pressure_pa != null ? s.pressure_pa / 100 : null, 1),
    humidityPct: text(s.humidity != null ? s.humidity * 100 : null, 0),
    refSpeed: text(toDisplay('speed', s.reference_speed_mps ?? 40 / 3.6, system), 1),
    refPower: text(s.reference_power_w ?? 300, 0),
    calibration: text(s.calibration_factor, 3),
    method: s.method ?? 'auto',
  }
}

function settingsOf(
  f: SettingsForm,
  system: UnitSystem,
): { settings: AeroAnalysisSettings; errors: Partial<Record<keyof SettingsForm, string>> } {
  const errors: Partial<Record<keyof SettingsForm, string>> = {}
  const num = (key: keyof SettingsForm, label: string, lo: number, hi: number, unit: string) => {
    const raw = f[key]
    const v = Number(raw.replace(',', '.'))
    if (raw.trim() === '' || !Number.isFinite(v)) {
      errors[key] = `${label}: enter a number.`
      return NaN
    }
    if (v < lo || v > hi) errors[key] = `${label} must be between ${lo} and ${hi} ${unit}.`
    return v
  }
  const massUnit = unitLabel('mass', system)
  const [mLo, mHi] = [30, 250].map((m) => Math.round(toDisplay('mass', m, system)))
  const settings: AeroAnalysisSettings = {
    mass_kg: fromDisplay('mass', num('mass', 'System mass', mLo!, mHi!, massUnit), system),
    crr: f.crrMode === 'fixed' ? num('crr', 'Crr', 0.0005, 0.03, '') : null,
    drivetrain_efficiency: num('eta', 'Drivetrain efficiency', 80, 100, '%') / 100,
    air_density_kg_m3:
      f.airMode === 'density' ? num('density', 'Air density', 0.6, 1.5, 'kg/m³') : null,
    temperature_c: null,
    pressure_pa: null,
    humidity: null,
    reference_speed_mps: fromDisplay(
      'speed',
      num(
        'refSpeed',
        'Reference speed',
        Math.round(toDisplay('speed', 2, system)),
        Math.round(toDisplay('speed', 30, system)),
        unitLabel('speed', system),
      ),
      system,
    ),
    reference_power_w: num('refPower', 'Reference power', 20, 2000, 'W'),
    method: f.method,
    calibration_factor:
      f.calibration.trim() === '' ? null : num('calibration', 'Calibration factor', 0.5, 3, ''),
  }
  if (f.airMode === 'weather') {
    const t = num(
      'temperature',
      'Temperature',
      system === 'metric' ? -30 : -22,
      system === 'metric' ? 50 : 122,
      system === 'metric' ? '°C' : '°F',
    )
    settings.temperature_c = system === 'metric' ? t : fToC(t)
    settings.pressure_pa = num('pressureHpa', 'Station pressure', 500, 1100, 'hPa') * 100
    settings.humidity =
      f.humidityPct.trim() === ''
        ? null
        : num('humidityPct', 'Relative humidity', 0, 100, '%') / 100
  }
  return { settings, errors }
}

function SettingsCard({
  session,
  onQueued,
  hasData,
}: {
  session: AeroSession
  onQueued(): void
  hasData: boolean
}) {
  const { system } = useUnits()
  const client = useQueryClient()
  const [form, setForm] = useState(() => formOf(session.environment, system))
  const [shown, setShown] = useState(false)
  const { settings, errors } = settingsOf(form, system)
  const set = <K extends keyof SettingsForm>(k: K, v: SettingsForm[K]) =>
    setForm((f) => ({ ...f, [k]: v }))
  const bind = fieldBinder(form, set, errors)
  const save = useMutation({
    mutationFn: async () => {
      const environment = { ...session.environment, ...settings }
      const s = await api<AeroSession>(`/api/aero-sessions/${session.id}`, {
        method: 'PATCH',
        body: { environment },
      })
      client.setQueryData(sessionKey(session.id), s)
      if (hasData) await aeroApi.analyse(session.id, { label: 'New settings' })
    },
    onSuccess: () => {
      setShown(false)
      onQueued()
    },
  })
  const invalid = Object.keys(errors).length > 0
  const mass = (session.environment as AeroAnalysisSettings).mass_kg
  return (
    <Card title="Analysis inputs">
      <div className="flex flex-wrap items-center justify-between gap-3 text-sm text-slate-600">
        <span>
          {mass != null
            ? `System mass ${formatQuantity('mass', mass, system)}`
            : 'No system mass yet (80 kg assumed)'}{' '}
          · {form.crrMode === 'fit' ? 'Crr fitted' : `Crr ${form.crr}`} · η {form.eta} % ·{' '}
          {form.airMode === 'density'
            ? `ρ ${form.density} kg/m³`
            : form.airMode === 'weather'
              ? 'air from T, p, RH'
              : 'air from the file'}
        </span>
        <Button
          variant="secondary"
          onClick={() => {
            setForm(formOf(session.environment, system))
            setShown((s) => !s)
          }}
        >
          {shown ? 'Close' : 'Edit inputs'}
        </Button>
      </div>
      {shown ? (
        <form
          className="mt-4 space-y-4"
          onSubmit={(e) => {
            e.preventDefault()
            if (!invalid) save.mutate()
          }}
        >
          <div className="grid gap-4 sm:grid-cols-3">
            <Field
              label="System mass (rider, bike, kit)"
              unit={unitLabel('mass', system)}
              {...bind('mass')}
            />
            <Select
              label="Rolling resistance"
              value={form.crrMode}
              onChange={(v) => set('crrMode', v)}
              options={[
                { value: 'fit', label: 'Fit Crr from the data' },
                { value: 'fixed', label: 'Fixed Crr' },
              ]}
            />
            {form.crrMode === 'fixed' ? <Field label="Crr" {...bind('crr')} /> : <div />}
            <Field
              label="Drivetrain efficiency"
              unit="%"
              {...bind('eta')}
              hint="97.6 % for crank power; 100 % for a hub"
            />
            <Select
              label="Air density"
              value={form.airMode}
              onChange={(v) => set('airMode', v)}
              options={[
                { value: 'file', label: 'From the file (sensor, else altitude)' },
                { value: 'density', label: 'Given density' },
                { value: 'weather', label: 'From temperature, pressure, humidity' },
              ]}
            />
            <Select
              label="Method"
              value={form.method}
              onChange={(v) => set('method', v)}
              options={[
                { value: 'auto', label: 'Direct where air speed exists, else VE' },
                { value: 've', label: 'Virtual elevation (Chung)' },
                { value: 'direct', label: 'Direct (air speed)' },
              ]}
            />
            {form.airMode === 'density' ? (
              <Field label="Air density" unit="kg/m³" {...bind('density')} />
            ) : null}
            {form.airMode === 'weather' ? (
              <>
                <Field
                  label="Temperature"
                  unit={system === 'metric' ? '°C' : '°F'}
                  {...bind('temperature')}
                />
                <Field label="Station pressure" unit="hPa" {...bind('pressureHpa')} />
                <Field label="Relative humidity" unit="%" {...bind('humidityPct')} />
              </>
            ) : null}
            <Field
              label="Reference speed (watts saved)"
              unit={unitLabel('speed', system)}
              {...bind('refSpeed')}
            />
            <Field label="Reference power (time per 40 km)" unit="W" {...bind('refPower')} />
            <Field
              label="Calibration factor (direct method)"
              {...bind('calibration')}
              hint="Empty: the session device's, else 1.400"
            />
          </div>
          {save.isError ? <Alert>{errorText(save.error)}</Alert> : null}
          <Button type="submit" disabled={invalid || save.isPending}>
            {hasData ? 'Save and analyse again' : 'Save'}
          </Button>
        </form>
      ) : null}
    </Card>
  )
}

// — runs —

const signed = (x: number, digits: number) =>
  `${x > 0 ? '+' : x < 0 ? '−' : '±'}${Math.abs(x).toFixed(digits)}`

function RunsTable({
  runs,
  onBaseline,
  pending,
}: {
  runs: AeroRun[]
  onBaseline(id: string): void
  pending: boolean
}) {
  const { system } = useUnits()
  return (
    <div className="overflow-x-auto rounded-2xl bg-white ring-1 ring-slate-200">
      <table className="w-full text-left text-sm [&_td]:px-2 [&_th]:px-2" data-testid="runs-table">
        <thead className="bg-slate-50 text-slate-600">
          <tr>
            {[
              'Run',
              'Configuration',
              'CdA (m²) ± 95 %',
              'Crr',
              'ΔCdA (m²)',
              'W saved',
              's / 40 km',
              'Verdict',
              'Baseline',
            ].map((h) => (
              <th key={h} className="px-3 py-2 font-medium whitespace-nowrap">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {runs.map((r) => {
            const x = r.results as unknown as AeroRunResults | null
            const half = x ? (x.cda_ci95[1] - x.cda_ci95[0]) / 2 : 0
            return (
              <tr key={r.id}>
                <td className="px-3 py-2 font-medium whitespace-nowrap text-slate-900">{r.name}</td>
                <td className="px-3 py-2 text-slate-600">
                  {Object.entries(r.configuration)
                    .map(([k, v]) => (k === 'setup' ? v : `${k}: ${v}`))
                    .join(', ') || '—'}
                </td>
                <td
                  className="px-3 py-2 whitespace-nowrap text-slate-900 tabular-nums"
                  title={
                    x
                      ? `95 % interval ${x.cda_ci95[0].toFixed(4)}–${x.cda_ci95[1].toFixed(4)}`
                      : undefined
                  }
                >
                  {x ? (
                    <>
                      <span className="block">{`${x.cda.toFixed(3)} ± ${half.toFixed(3)}`}</span>
                      <span className="block text-xs text-slate-500">
                        {x.method === 've' ? 'virtual elevation' : 'direct (air speed)'}
                      </span>
                    </>
                  ) : (
                    'not analysed'
                  )}
                </td>
                <td className="px-3 py-2 text-slate-600 tabular-nums">
                  {x ? x.crr.toFixed(4) : '—'}
                </td>
                <td className="px-3 py-2 whitespace-nowrap tabular-nums">
                  {x?.delta_cda != null && !r.is_baseline ? (
                    <>
                      <span className="block">{signed(x.delta_cda, 3)}</span>
                      {x.delta_cda_ci95 ? (
                        <span className="block text-xs text-slate-500">
                          [{signed(x.delta_cda_ci95[0], 3)}, {signed(x.delta_cda_ci95[1], 3)}]
                        </span>
                      ) : null}
                    </>
                  ) : (
                    '—'
                  )}
                </td>
                <td className="px-3 py-2 tabular-nums">
                  {x?.watts_saved != null && !r.is_baseline ? signed(x.watts_saved, 1) : '—'}
                </td>
                <td className="px-3 py-2 tabular-nums">
                  {x?.seconds_per_40km != null && !r.is_baseline
                    ? signed(x.seconds_per_40km, 1)
                    : '—'}
                </td>
                <td className="px-3 py-2">
                  {x?.verdict === 'faster' ? (
                    <span className="rounded-full bg-green-100 px-2 py-0.5 text-xs font-semibold text-green-800">
                      Faster
                    </span>
                  ) : x?.verdict === 'slower' ? (
                    <span className="rounded-full bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-800">
                      Slower
                    </span>
                  ) : x?.verdict === 'no_difference' ? (
                    <span className="text-xs whitespace-nowrap text-slate-500">Within noise</span>
                  ) : (
                    '—'
                  )}
                </td>
                <td className="px-3 py-2">
                  {r.is_baseline ? (
                    <span className="rounded-full bg-slate-900 px-2 py-0.5 text-xs font-semibold text-white">
                      Baseline
                    </span>
                  ) : (
                    <button
                      type="button"
                      disabled={pending}
                      onClick={() => onBaseline(r.id)}
                      className="text-xs font-semibold whitespace-nowrap text-brand-700 hover:underline disabled:opacity-50"
                    >
                      Set baseline
                    </button>
                  )}
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
      <ComparisonNote system={system} />
    </div>
  )
}

function ComparisonNote({ system }: { system: UnitSystem }) {
  return (
    <p className="border-t border-slate-100 px-3 py-2 text-xs text-slate-500">
      ΔCdA against the baseline, corrected for the baseline&apos;s drift in time; positive W and s
      are savings. A verdict only when the 95 % interval of ΔCdA excludes zero. Speeds and masses in{' '}
      {system === 'metric' ? 'metric' : 'imperial'} units (Quick settings).
    </p>
  )
}

function ComparisonSummary({ analysis }: { analysis: AeroAnalysisVersion }) {
  const { system } = useUnits()
  const c = analysis.summary?.comparison as AeroComparison | null | undefined
  if (!c) return null
  return (
    <dl className="mt-4 grid gap-3 sm:grid-cols-4" data-testid="comparison-summary">
      <Stat label="Baseline" value={c.baseline || 'unlabelled'} />
      <Stat label="Baseline CdA" value={`${c.baselineCda.toFixed(3)} m²`} />
      <Stat
        label="Drift of the baseline"
        value={`${signed(c.driftPerHour * 1000, 1)} ×10⁻³ m²/h`}
      />
      <Stat
        label="Reference"
        value={`${formatQuantity('speed', c.referenceSpeedMps, system, 0)} · ${Math.round(c.referencePowerW)} W`}
      />
    </dl>
  )
}

function Stat({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div className="rounded-md bg-white px-3 py-2 ring-1 ring-slate-200">
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="font-semibold text-slate-900">{value}</dd>
    </div>
  )
}

// — data blocks —

function RunCharts({ latest }: { latest: VersionAnswer }) {
  const [selected, setSelected] = useState(0)
  const block: RunBlock | undefined = latest.runs[selected] ?? latest.runs[0]
  if (!block)
    return (
      <EmptyState title="No run data yet">
        Upload a file: each run&apos;s aggregate and its virtual-elevation trace show here.
      </EmptyState>
    )
  return (
    <div className="space-y-6">
      <Card>
        <div className="mb-3 flex flex-wrap items-end justify-between gap-3">
          <div className="min-w-72">
            <Select
              label="Run to plot"
              value={String(selected)}
              onChange={(v) => setSelected(Number(v))}
              options={latest.runs.map((r, i) => ({
                value: String(i),
                label: `${r.data.name} — CdA ${r.data.results.cda.toFixed(3)} m²`,
              }))}
            />
          </div>
          <span className="text-xs text-slate-500">
            {block.data.results.method === 'direct'
              ? 'Direct method (air speed)'
              : 'Virtual elevation (Chung)'}
            {block.data.results.ve_rmse_m != null
              ? ` · fit RMSE ${block.data.results.ve_rmse_m.toFixed(2)} m`
              : ''}
          </span>
        </div>
        <VeChart key={block.id} block={block} />
      </Card>
      <Card title="Where the runs were ridden">
        <LapsMap runs={latest.runs} />
      </Card>
      <table
        className="w-full overflow-hidden rounded-2xl bg-white text-left text-sm ring-1 ring-slate-200"
        aria-label="Run data blocks"
      >
        <thead className="bg-slate-50 text-slate-600">
          <tr>
            {['Block', 'From–to (s)', 'Samples', 'Mean speed', 'Mean power', 'Air density'].map(
              (h) => (
                <th key={h} className="px-3 py-2 font-medium">
                  {h}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {latest.runs.map((r) => (
            <BlockRow key={r.id} block={r} />
          ))}
        </tbody>
      </table>
    </div>
  )
}

function BlockRow({ block }: { block: RunBlock }) {
  const { system } = useUnits()
  const x = block.data.results
  return (
    <tr>
      <td className="px-3 py-2 text-slate-900">{block.data.name}</td>
      <td className="px-3 py-2 tabular-nums text-slate-600">
        {Math.round(block.start_time ?? 0)}–{Math.round(block.end_time ?? 0)}
      </td>
      <td className="px-3 py-2 tabular-nums text-slate-600">{block.data.series.t.length}</td>
      <td className="px-3 py-2 tabular-nums text-slate-600">
        {formatQuantity('speed', x.mean_speed_mps, system)}
      </td>
      <td className="px-3 py-2 tabular-nums text-slate-600">{Math.round(x.mean_power_w)} W</td>
      <td className="px-3 py-2 tabular-nums text-slate-600">{x.air_density.toFixed(3)} kg/m³</td>
    </tr>
  )
}

function Windows({ latest }: { latest: VersionAnswer }) {
  const { system } = useUnits()
  const names = new Map(latest.runs.map((r) => [r.run_id, r.data.name]))
  if (latest.windows.length === 0) {
    return (
      <EmptyState title="No CdA measurement windows">
        CdA per window comes from the direct method, where the file has air speed from an aero
        sensor.
        {latest.runs.length > 0
          ? ' These runs were fitted by virtual elevation over the whole run.'
          : ''}
      </EmptyState>
    )
  }
  return (
    <div className="overflow-x-auto rounded-2xl bg-white ring-1 ring-slate-200">
      <table className="w-full text-left text-sm" aria-label="CdA measurement windows">
        <thead className="bg-slate-50 text-slate-600">
          <tr>
            {['Run', 'Windows', 'CdA median (m²)', 'CdA range (m²)', 'Mean speed'].map((h) => (
              <th key={h} className="px-3 py-2 font-medium">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {latest.windows.map((w) => {
            const sorted = [...w.data.cda].filter(Number.isFinite).sort((a, b) => a - b)
            const median = sorted[Math.floor(sorted.length / 2)] ?? NaN
            const speed =
              w.data.speed_mps.reduce((a, b) => a + b, 0) / Math.max(1, w.data.speed_mps.length)
            return (
              <tr key={w.id}>
                <td className="px-3 py-2 text-slate-900">{names.get(w.run_id) ?? '—'}</td>
                <td className="px-3 py-2 tabular-nums">{w.data.cda.length}</td>
                <td className="px-3 py-2 tabular-nums">{median.toFixed(3)}</td>
                <td className="px-3 py-2 tabular-nums">
                  {sorted.length
                    ? `${sorted[0]!.toFixed(3)}–${sorted[sorted.length - 1]!.toFixed(3)}`
                    : '—'}
                </td>
                <td className="px-3 py-2 tabular-nums">{formatQuantity('speed', speed, system)}</td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </div>
  )
}

// — the page —

export function SessionPage({ format, anchors }: { format: 'v5' | 'v6'; anchors: Anchor[] }) {
  const { id = '' } = useParams()
  const client = useQueryClient()
  const session = useQuery({
    queryKey: sessionKey(id),
    queryFn: () => api<AeroSession>(`/api/aero-sessions/${encodeURIComponent(id)}`),
  })
  const runs = useQuery({
    queryKey: ['aero-runs', id],
    queryFn: () =>
      api<Page<AeroRun>>(`/api/aero-sessions/${encodeURIComponent(id)}/runs?limit=200`),
  })
  const files = useQuery({ queryKey: ['aero-files', id], queryFn: () => aeroApi.files(id) })
  const versions = useQuery({
    queryKey: ['aero-versions', id],
    queryFn: () => aeroApi.versions(id),
    refetchInterval: (q) =>
      q.state.data?.items.some((v) => v.status === 'queued' || v.status === 'running')
        ? 1000
        : false,
  })
  const latest = useQuery({
    queryKey: ['aero-latest', id],
    queryFn: () => aeroApi.version(id, 'latest'),
  })
  const newest = versions.data?.items.find((v) => v.status === 'succeeded')?.version
  const shown = latest.data?.analysis?.version
  useEffect(() => {
    if (newest != null && newest !== shown) {
      void client.invalidateQueries({ queryKey: ['aero-latest', id] })
      void client.invalidateQueries({ queryKey: ['aero-runs', id] })
    }
  }, [newest, shown, client, id])
  const refresh = () => {
    // the first file also gives the session its start time
    void client.invalidateQueries({ queryKey: sessionKey(id) })
    void client.invalidateQueries({ queryKey: ['aero-versions', id] })
    void client.invalidateQueries({ queryKey: ['aero-files', id] })
    void client.invalidateQueries({ queryKey: ['aero-runs', id] })
  }
  const baseline = useMutation({
    mutationFn: (runId: string) => aeroApi.setBaseline(runId),
    onSuccess: refresh,
  })
  const blocks = useMemo(
    () => latest.data ?? { analysis: null, runs: [], windows: [] },
    [latest.data],
  )

  if (session.isPending) return <PageSpinner />
  if (session.isError) return <Alert>{session.error.message}</Alert>
  const s = session.data
  const hasData = (files.data?.items.length ?? 0) > 0
  const runItems = runs.data?.items ?? []
  const [, , third, fourth] = anchors
  return (
    <>
      <header className="mb-6">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">{s.name}</h1>
        <p className="mt-2 text-sm text-slate-600">
          {format === 'v6' ? 'Version 6' : 'Version 5'} session · {dateOf(s.started_at)}
          {s.location ? ` · ${s.location}` : ''}
        </p>
      </header>
      {s.format !== format && (
        <p role="alert" className="mb-6 rounded-lg bg-amber-50 px-4 py-3 text-sm text-amber-900">
          This session is stored as {s.format}.{' '}
          <Link className="font-semibold underline" to={`/aero/sessions/${s.format}/${s.id}`}>
            Open the {s.format} view
          </Link>
          .
        </p>
      )}
      <nav aria-label="Session sections" className="mb-8 flex flex-wrap gap-2">
        {anchors.map((a) => (
          <a
            key={a.id}
            href={`#${a.id}`}
            className="rounded-full bg-white px-3 py-1 text-sm font-medium text-slate-700 ring-1 ring-slate-200 hover:text-brand-700"
          >
            {a.label}
          </a>
        ))}
      </nav>
      <div className="mb-10">
        <Upload session={s} onQueued={refresh} />
        <Files files={files.data?.items ?? []} />
        <VersionStatus versions={versions.data?.items ?? []} />
      </div>
      <div className="space-y-12">
        <Section id="devices" title="Devices">
          <Devices session={s} />
        </Section>
        <Section
          id="runs"
          title="Runs"
          action={
            <AddRunDialog
              sessionId={s.id}
              nextPosition={runItems.reduce((m, r) => Math.max(m, r.position + 1), 0)}
              files={files.data?.items ?? []}
              onCreated={refresh}
            />
          }
        >
          <div className="space-y-4">
            <SettingsCard session={s} onQueued={refresh} hasData={hasData} />
            {runs.isPending ? (
              <PageSpinner />
            ) : runs.isError ? (
              <Alert>{runs.error.message}</Alert>
            ) : runItems.length === 0 ? (
              <EmptyState title="No runs yet">
                Upload the test: runs are found from laps, repeated loops and out-and-back legs, or
                add one from a time range or a lap. Each gets its CdA and Crr with a 95 % interval.
              </EmptyState>
            ) : (
              <RunsTable
                runs={runItems}
                onBaseline={(r) => baseline.mutate(r)}
                pending={baseline.isPending}
              />
            )}
            {baseline.isError ? <Alert>{errorText(baseline.error)}</Alert> : null}
            {blocks.analysis ? <ComparisonSummary analysis={blocks.analysis} /> : null}
            {blocks.runs.length > 0 ? (
              <Card title="CdA per run, in time order">
                <CdaChart
                  runs={blocks.runs}
                  comparison={
                    (blocks.analysis?.summary?.comparison ?? null) as AeroComparison | null
                  }
                />
              </Card>
            ) : null}
          </div>
        </Section>
        {format === 'v6' ? (
          <>
            <Section id={third!.id} title={third!.label}>
              <Windows latest={blocks} />
            </Section>
            <Section id={fourth!.id} title={fourth!.label}>
              <RunCharts latest={blocks} />
            </Section>
          </>
        ) : (
          <Section id={third!.id} title={third!.label}>
            <div className="space-y-6">
              <RunCharts latest={blocks} />
              <Windows latest={blocks} />
            </div>
          </Section>
        )}
      </div>
    </>
  )
}

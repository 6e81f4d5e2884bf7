import { useQuery } from '@tanstack/react-query'
import { Link, useParams } from 'react-router'
import type { AeroRun, AeroSession, Device, Page } from '@veloptima/contracts'
import { DeviceIcon, WindIcon } from '../../components/icons.tsx'
import { EmptyState } from '../../components/empty-state.tsx'
import { PageSpinner } from '../../components/spinner.tsx'
import { api } from '../../lib/api-client.ts'
import { AddRunDialog } from './add-run-dialog.tsx'

function Title({ children, sub }: { children: React.ReactNode; sub?: React.ReactNode }) {
  return (
    <header className="mb-8">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">{children}</h1>
      {sub && <p className="mt-2 max-w-3xl text-sm leading-6 text-slate-600">{sub}</p>}
    </header>
  )
}

function Failed({ error }: { error: Error }) {
  return (
    <p role="alert" className="rounded-lg bg-red-50 px-4 py-3 text-sm text-red-800">
      {error.message}
    </p>
  )
}

const dateOf = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : 'No start time')

export function SessionsPage() {
  const q = useQuery({
    queryKey: ['aero-sessions'],
    queryFn: () => api<Page<AeroSession>>('/api/aero-sessions?limit=200'),
  })
  return (
    <>
      <Title sub="A session is one outing on the track or the road with your aero sensors: its devices, the runs you rode and the data each device recorded.">
        Sessions
      </Title>
      {q.isPending ? (
        <PageSpinner />
      ) : q.isError ? (
        <Failed error={q.error} />
      ) : q.data.items.length === 0 ? (
        <EmptyState icon={<WindIcon />} title="No aero sessions yet">
          Sessions recorded by your aero sensors will be listed here, newest first, with their runs
          and CdA results. Importing sessions from a device file comes with the aero data import.
        </EmptyState>
      ) : (
        <ul className="divide-y divide-slate-200 overflow-hidden rounded-2xl bg-white ring-1 ring-slate-200">
          {q.data.items.map((s) => (
            <li key={s.id}>
              <Link
                to={`/aero/sessions/${s.format}/${s.id}`}
                className="flex items-center justify-between gap-4 px-5 py-4 hover:bg-slate-50"
              >
                <span>
                  <span className="block font-medium text-slate-900">{s.name}</span>
                  <span className="block text-sm text-slate-500">
                    {dateOf(s.started_at)}
                    {s.location ? ` · ${s.location}` : ''}
                  </span>
                </span>
                <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-semibold text-slate-600 uppercase">
                  {s.format}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </>
  )
}

type Anchor = { id: string; label: string }

function SessionPage({ format, anchors }: { format: 'v5' | 'v6'; anchors: Anchor[] }) {
  const { id = '' } = useParams()
  const session = useQuery({
    queryKey: ['aero-session', id],
    queryFn: () => api<AeroSession>(`/api/aero-sessions/${encodeURIComponent(id)}`),
  })
  const runs = useQuery({
    queryKey: ['aero-runs', id],
    queryFn: () => api<Page<AeroRun>>(`/api/aero-sessions/${encodeURIComponent(id)}/runs`),
  })
  if (session.isPending) return <PageSpinner />
  if (session.isError) return <Failed error={session.error} />
  const s = session.data
  return (
    <>
      <Title
        sub={`${format === 'v6' ? 'Version 6' : 'Version 5'} session · ${dateOf(s.started_at)}${s.location ? ` · ${s.location}` : ''}`}
      >
        {s.name}
      </Title>
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
      <div className="space-y-12">
        <section id="devices" aria-labelledby="devices-title">
          <h2 id="devices-title" className="mb-4 text-lg font-semibold text-slate-900">
            Devices
          </h2>
          {s.devices.length === 0 ? (
            <EmptyState icon={<DeviceIcon />} title="No devices in this session">
              The sensors that recorded this session — with their role and calibration factor — will
              be listed here.
            </EmptyState>
          ) : (
            <ul className="grid gap-3 sm:grid-cols-2">
              {s.devices.map((d) => (
                <li key={d.device_id} className="rounded-xl bg-white p-4 ring-1 ring-slate-200">
                  <Link
                    to={`/aero/devices/${d.device_id}`}
                    className="font-medium text-slate-900 hover:text-brand-700"
                  >
                    {d.role ?? 'Device'}
                  </Link>
                  <p className="text-sm text-slate-500">
                    Calibration factor {d.calibration_factor?.toFixed(3) ?? '1.000'}
                  </p>
                </li>
              ))}
            </ul>
          )}
        </section>
        <section id="runs" aria-labelledby="runs-title">
          <div className="mb-4 flex items-center justify-between gap-4">
            <h2 id="runs-title" className="text-lg font-semibold text-slate-900">
              Runs
            </h2>
            <AddRunDialog sessionId={s.id} nextPosition={runs.data?.items.length ?? 0} />
          </div>
          {runs.isPending ? (
            <PageSpinner />
          ) : runs.isError ? (
            <Failed error={runs.error} />
          ) : runs.data.items.length === 0 ? (
            <EmptyState title="No runs yet">
              Each run is one pass with one configuration (helmet, position, wheels…). Add the runs
              you rode; their CdA and the difference to the baseline will show here.
            </EmptyState>
          ) : (
            <table className="w-full overflow-hidden rounded-2xl bg-white text-left text-sm ring-1 ring-slate-200">
              <thead className="bg-slate-50 text-slate-600">
                <tr>
                  <th className="px-4 py-2 font-medium">Run</th>
                  <th className="px-4 py-2 font-medium">Configuration</th>
                  <th className="px-4 py-2 font-medium">Baseline</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {runs.data.items.map((r) => (
                  <tr key={r.id}>
                    <td className="px-4 py-2 font-medium text-slate-900">{r.name}</td>
                    <td className="px-4 py-2 text-slate-600">
                      {Object.entries(r.configuration)
                        .map(([k, v]) => `${k}: ${v}`)
                        .join(', ') || '—'}
                    </td>
                    <td className="px-4 py-2 text-slate-600">{r.is_baseline ? 'Yes' : 'No'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
        {anchors.slice(2).map((a) => (
          <section key={a.id} id={a.id} aria-labelledby={`${a.id}-title`}>
            <h2 id={`${a.id}-title`} className="mb-4 text-lg font-semibold text-slate-900">
              {a.label}
            </h2>
            <EmptyState title={`${a.label}: shown with the aero analysis`}>
              The recorded data of this session will be plotted here along time, with each
              run&apos;s stretch highlighted.
            </EmptyState>
          </section>
        ))}
      </div>
    </>
  )
}

export function SessionV5Page() {
  return (
    <SessionPage
      format="v5"
      anchors={[
        { id: 'devices', label: 'Devices' },
        { id: 'runs', label: 'Runs' },
        { id: 'data', label: 'Data' },
      ]}
    />
  )
}

export function SessionV6Page() {
  return (
    <SessionPage
      format="v6"
      anchors={[
        { id: 'devices', label: 'Devices' },
        { id: 'runs', label: 'Runs' },
        { id: 'cdam-data-blocks', label: 'CdA·m data blocks' },
        { id: 'run-data-blocks', label: 'Run data blocks' },
      ]}
    />
  )
}

export function DevicesPage() {
  const q = useQuery({
    queryKey: ['devices'],
    queryFn: () => api<Page<Device>>('/api/devices?limit=200'),
  })
  return (
    <>
      <Title sub="Your aero sensors, their firmware and calibration.">Devices</Title>
      {q.isPending ? (
        <PageSpinner />
      ) : q.isError ? (
        <Failed error={q.error} />
      ) : q.data.items.length === 0 ? (
        <EmptyState icon={<DeviceIcon />} title="No devices yet">
          The aero sensors you pair will be listed here with their serial number, model, firmware
          and calibration, ready to be assigned to sessions.
        </EmptyState>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2">
          {q.data.items.map((d) => (
            <li key={d.id}>
              <Link
                to={`/aero/devices/${d.id}`}
                className="block rounded-2xl bg-white p-5 ring-1 ring-slate-200 hover:ring-brand-300"
              >
                <span className="block font-medium text-slate-900">{d.name}</span>
                <span className="block text-sm text-slate-500">
                  {d.model ?? 'Unknown model'} · serial {d.serial}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </>
  )
}

export function DevicePage() {
  const { id = '' } = useParams()
  const q = useQuery({
    queryKey: ['device', id],
    queryFn: () => api<Device>(`/api/devices/${encodeURIComponent(id)}`),
  })
  if (q.isPending) return <PageSpinner />
  if (q.isError) return <Failed error={q.error} />
  const d = q.data
  const rows: [string, string][] = [
    ['Serial number', d.serial],
    ['Model', d.model ?? '—'],
    ['Firmware', d.firmware ?? '—'],
  ]
  return (
    <>
      <Title>{d.name}</Title>
      <dl className="grid gap-4 rounded-2xl bg-white p-6 ring-1 ring-slate-200 sm:grid-cols-3">
        {rows.map(([k, v]) => (
          <div key={k}>
            <dt className="text-sm text-slate-500">{k}</dt>
            <dd className="mt-1 font-medium text-slate-900">{v}</dd>
          </div>
        ))}
      </dl>
      <h2 className="mt-10 mb-4 text-lg font-semibold text-slate-900">Calibration</h2>
      {Object.keys(d.calibration).length === 0 ? (
        <EmptyState title="No calibration stored">
          Calibration values of this device (offsets and factors) will be listed here once the
          device has been calibrated.
        </EmptyState>
      ) : (
        <pre className="overflow-x-auto rounded-xl bg-slate-900 p-4 text-sm text-slate-100">
          {JSON.stringify(d.calibration, null, 2)}
        </pre>
      )}
    </>
  )
}

import { zodResolver } from '@hookform/resolvers/zod'
import { useState, type ReactNode } from 'react'
import { useForm, useWatch } from 'react-hook-form'
import { useMutation, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query'
import { Link, useNavigate, useParams } from 'react-router'
import type { z } from 'zod'
import type { AeroSession, Device, Page } from '@veloptima/contracts'
import { DeviceIcon, WindIcon } from '../../components/icons.tsx'
import { EmptyState } from '../../components/empty-state.tsx'
import { ScrollRegion } from '../../components/scroll-region.tsx'
import { PageSpinner } from '../../components/spinner.tsx'
import { api } from '../../lib/api-client.ts'
import { Field, Select } from '../../components/form.tsx'
import { Button, Card } from './ui.tsx'
import { SessionPage } from './session-page.tsx'
import { Alert, dateOf } from './session-parts.tsx'
import { deviceListQuery, deviceQuery, sessionListQuery } from './lib/queries.ts'
import { OwnerControl, OwnerSelect, useNewItemOwner } from '../../components/owner-control.tsx'
import {
  deviceFormSchema,
  factorOf,
  newSessionFormSchema,
  type DeviceBody,
  type DeviceForm as DeviceFormTexts,
  type NewSessionForm,
} from './form-schemas.ts'

function Title({ children, sub }: { children: React.ReactNode; sub?: React.ReactNode }) {
  return (
    <header className="mb-8">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">{children}</h1>
      {sub && <p className="mt-2 max-w-3xl text-sm leading-6 text-slate-600">{sub}</p>}
    </header>
  )
}

function Failed({ error }: { error: Error }) {
  return <Alert>{error.message}</Alert>
}

/** A list page's items: a spinner while they load, the error, `empty`, or `children` of them. */
function Listing<T>({
  q,
  empty,
  children,
}: {
  q: UseQueryResult<Page<T>>
  empty: ReactNode
  children(items: T[]): ReactNode
}) {
  if (q.isPending) return <PageSpinner />
  if (q.isError) return <Failed error={q.error} />
  if (q.data.items.length === 0) return empty
  return children(q.data.items)
}

export function SessionsPage() {
  const q = useQuery(sessionListQuery())
  return (
    <>
      <Title sub="A session is one outing on the track or the road with your aero sensors: its devices, the runs you rode and the data each device recorded.">
        Sessions
      </Title>
      <p className="-mt-4 mb-6 text-sm text-slate-600">
        Before a test day:{' '}
        <Link to="/aero/planner" className="font-medium text-brand-700 hover:underline">
          Plan a test
        </Link>{' '}
        — how many runs resolve the difference you care about, and when to ride.
      </p>
      <NewSession />
      <Listing
        q={q}
        empty={
          <EmptyState icon={<WindIcon />} title="No aero sessions yet">
            Create a session, then upload the rides of the test day (FIT, TCX, CSV…): the runs are
            found and each gets its CdA and Crr with a 95 % interval.
          </EmptyState>
        }
      >
        {(items) => (
          <ul className="divide-y divide-slate-200 overflow-hidden rounded-2xl bg-white ring-1 ring-slate-200">
            {items.map((s) => (
              <li key={s.id} className="flex items-center gap-3 pr-5 hover:bg-slate-50">
                <Link
                  to={`/aero/sessions/${s.format}/${s.id}`}
                  className="flex flex-1 items-center justify-between gap-4 px-5 py-4"
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
                <OwnerControl
                  collection="aero-sessions"
                  item={s}
                  onMoved={() => void q.refetch()}
                />
              </li>
            ))}
          </ul>
        )}
      </Listing>
    </>
  )
}

/** The sections every session page links to, before its format's data. */
const SESSION_ANCHORS = [
  { id: 'devices', label: 'Devices' },
  { id: 'runs', label: 'Runs' },
]

export function SessionV5Page() {
  return <SessionPage format="v5" anchors={[...SESSION_ANCHORS, { id: 'data', label: 'Data' }]} />
}

export function SessionV6Page() {
  return (
    <SessionPage
      format="v6"
      anchors={[
        ...SESSION_ANCHORS,
        { id: 'cdam-data-blocks', label: 'CdA·m data blocks' },
        { id: 'run-data-blocks', label: 'Run data blocks' },
      ]}
    />
  )
}

export function DevicesPage() {
  const q = useQuery(deviceListQuery())
  return (
    <>
      <Title sub="Your aero sensors, their firmware and calibration.">Devices</Title>
      <RegisterDevice />
      <Listing
        q={q}
        empty={
          <EmptyState icon={<DeviceIcon />} title="No devices yet">
            Register your aero sensors with their serial number, model, firmware and calibration
            factor, ready to be assigned to sessions.
          </EmptyState>
        }
      >
        {(items) => (
          <ul className="grid gap-4 sm:grid-cols-2">
            {items.map((d) => (
              <li
                key={d.id}
                className="flex items-start justify-between gap-3 rounded-2xl bg-white p-5 ring-1 ring-slate-200 hover:ring-brand-300"
              >
                <Link to={`/aero/devices/${d.id}`} className="block flex-1">
                  <span className="block font-medium text-slate-900">{d.name}</span>
                  <span className="block text-sm text-slate-500">
                    {d.model ?? 'Unknown model'} · serial {d.serial}
                  </span>
                </Link>
                <OwnerControl collection="devices" item={d} onMoved={() => void q.refetch()} />
              </li>
            ))}
          </ul>
        )}
      </Listing>
    </>
  )
}

export function DevicePage() {
  const { id = '' } = useParams()
  const q = useQuery(deviceQuery(id))
  if (q.isPending) return <PageSpinner />
  if (q.isError) return <Failed error={q.error} />
  const d = q.data
  const factor = d.calibration.calibration_factor
  const rows: [string, string][] = [
    ['Serial number', d.serial],
    ['Model', d.model ?? '—'],
    ['Firmware', d.firmware ?? '—'],
    [
      'Calibration factor',
      typeof factor === 'number' ? factor.toFixed(3) : '1.400 (default, not calibrated)',
    ],
  ]
  return (
    <>
      <Title>{d.name}</Title>
      <dl className="grid gap-4 rounded-2xl bg-white p-6 ring-1 ring-slate-200 sm:grid-cols-4">
        {rows.map(([k, v]) => (
          <div key={k}>
            <dt className="text-sm text-slate-500">{k}</dt>
            <dd className="mt-1 font-medium text-slate-900">{v}</dd>
          </div>
        ))}
      </dl>
      <EditDevice device={d} />
      <h2 className="mt-10 mb-4 text-lg font-semibold text-slate-900">Calibration</h2>
      {Object.keys(d.calibration).length === 0 ? (
        <EmptyState title="No calibration stored">
          Calibration values of this device (offsets and factors) will be listed here once the
          device has been calibrated.
        </EmptyState>
      ) : (
        <ScrollRegion
          label="Calibration values (scrolls sideways)"
          className="overflow-x-auto rounded-xl bg-slate-900 p-4 text-sm text-slate-100"
        >
          <pre>{JSON.stringify(d.calibration, null, 2)}</pre>
        </ScrollRegion>
      )}
    </>
  )
}

function NewSession() {
  const navigate = useNavigate()
  const [open, setOpen] = useState(false)
  const { handleSubmit, setValue, control, formState } = useForm<
    NewSessionForm,
    unknown,
    z.output<typeof newSessionFormSchema>
  >({
    resolver: zodResolver(newSessionFormSchema),
    defaultValues: { name: '', location: '', format: 'v6' },
  })
  const { name, location, format } = useWatch({ control })
  const texts = { name, location }
  const textField = (key: keyof typeof texts, label: string) => (
    <Field
      label={label}
      value={texts[key] ?? ''}
      onChange={(v) => setValue(key, v)}
      error={formState.errors[key]?.message}
      inputMode="text"
    />
  )
  const [owner, setOwner, teams] = useNewItemOwner()
  const create = useMutation({
    mutationFn: (body: z.output<typeof newSessionFormSchema>) =>
      api<AeroSession>('/api/aero-sessions', {
        method: 'POST',
        body: { ...body, ...(owner ? { owner } : {}) },
      }),
    onSuccess: (s) => navigate(`/aero/sessions/${s.format}/${s.id}`),
  })
  if (!open) {
    return (
      <div className="mb-6">
        <Button onClick={() => setOpen(true)}>New session</Button>
      </div>
    )
  }
  return (
    <Card title="New session" className="mb-6">
      <form
        className="grid gap-4 sm:grid-cols-3 sm:items-end"
        onSubmit={handleSubmit((body) => create.mutate(body))}
      >
        {textField('name', 'Session name')}
        {textField('location', 'Location')}
        <Select
          label="Format"
          value={format ?? 'v6'}
          onChange={(v) => setValue('format', v)}
          options={[
            { value: 'v6', label: 'v6 (CdA windows and run blocks)' },
            { value: 'v5', label: 'v5 (raw data)' },
          ]}
        />
        <OwnerSelect value={owner} onChange={setOwner} teams={teams} className="sm:col-span-3" />
        <div className="flex gap-2 sm:col-span-3">
          <Button type="submit" disabled={!name?.trim() || create.isPending}>
            Create session
          </Button>
          <Button variant="secondary" onClick={() => setOpen(false)}>
            Cancel
          </Button>
        </div>
        {create.isError ? (
          <div className="sm:col-span-3">
            <Failed error={create.error} />
          </div>
        ) : null}
      </form>
    </Card>
  )
}

function DeviceForm({
  initial,
  submitLabel,
  onSubmit,
  pending,
  error,
}: {
  initial: DeviceFormTexts
  submitLabel: string
  onSubmit(body: DeviceBody): void
  pending: boolean
  error: Error | null
}) {
  const { handleSubmit, setValue, control } = useForm<DeviceFormTexts, unknown, DeviceBody>({
    resolver: zodResolver(deviceFormSchema),
    defaultValues: initial,
  })
  const f = { ...initial, ...useWatch({ control }) }
  const set = (k: keyof DeviceFormTexts) => (v: string) => setValue(k, v)
  const factor = factorOf(f.factor)
  const ready = f.serial.trim() !== '' && f.name.trim() !== '' && !factor.error
  return (
    <form className="grid gap-4 sm:grid-cols-3" onSubmit={handleSubmit(onSubmit)}>
      <Field label="Serial number" value={f.serial} onChange={set('serial')} inputMode="text" />
      <Field label="Name" value={f.name} onChange={set('name')} inputMode="text" />
      <Field label="Model" value={f.model} onChange={set('model')} inputMode="text" />
      <Field label="Firmware" value={f.firmware} onChange={set('firmware')} inputMode="text" />
      <Field
        label="Calibration factor"
        value={f.factor}
        onChange={set('factor')}
        error={factor.error}
        hint="Aerosensor cal = 1/(1−Cp); empty: 1.400"
      />
      <div className="flex items-end">
        <Button type="submit" disabled={!ready || pending}>
          {submitLabel}
        </Button>
      </div>
      {error ? (
        <div className="sm:col-span-3">
          <Failed error={error} />
        </div>
      ) : null}
    </form>
  )
}

function RegisterDevice() {
  const client = useQueryClient()
  const [open, setOpen] = useState(false)
  const [owner, setOwner, teams] = useNewItemOwner()
  const create = useMutation({
    mutationFn: (body: DeviceBody) =>
      api<Device>('/api/devices', {
        method: 'POST',
        body: { ...body, ...(owner ? { owner } : {}) },
      }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: deviceListQuery().queryKey })
      setOpen(false)
    },
  })
  if (!open) {
    return (
      <div className="mb-6">
        <Button onClick={() => setOpen(true)}>Register a device</Button>
      </div>
    )
  }
  return (
    <Card title="Register a device" className="mb-6">
      <OwnerSelect value={owner} onChange={setOwner} teams={teams} className="mb-3" />
      <DeviceForm
        initial={{ serial: '', name: '', model: '', firmware: '', factor: '' }}
        submitLabel="Register"
        onSubmit={(body) => create.mutate(body)}
        pending={create.isPending}
        error={create.error}
      />
    </Card>
  )
}

function EditDevice({ device }: { device: Device }) {
  const client = useQueryClient()
  const [open, setOpen] = useState(false)
  const save = useMutation({
    mutationFn: (body: DeviceBody) =>
      api<Device>(`/api/devices/${device.id}`, {
        method: 'PATCH',
        body: { ...body, calibration: { ...device.calibration, ...body.calibration } },
      }),
    onSuccess: (d) => {
      client.setQueryData(deviceQuery(device.id).queryKey, d)
      void client.invalidateQueries({ queryKey: deviceListQuery().queryKey })
      setOpen(false)
    },
  })
  if (!open) {
    return (
      <div className="mt-6">
        <Button variant="secondary" onClick={() => setOpen(true)}>
          Edit
        </Button>
      </div>
    )
  }
  const factor = device.calibration.calibration_factor
  return (
    <Card title="Edit device" className="mt-6">
      <DeviceForm
        initial={{
          serial: device.serial,
          name: device.name,
          model: device.model ?? '',
          firmware: device.firmware ?? '',
          factor: typeof factor === 'number' ? String(factor) : '',
        }}
        submitLabel="Save"
        onSubmit={(body) => save.mutate(body)}
        pending={save.isPending}
        error={save.error}
      />
    </Card>
  )
}

// The aero session's devices: register a sensor and pick the one whose data the session uses.
import { useState } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from 'react-router'
import type { AeroSession } from '@veloptima/contracts'
import { EmptyState } from '../../components/empty-state.tsx'
import { api } from '../../lib/api-client.ts'
import { Select } from '../../components/form.tsx'
import { Button } from './ui.tsx'
import { errorText } from './api.ts'
import { Alert } from './session-parts.tsx'
import { deviceListQuery, sessionQuery } from './lib/queries.ts'

export function Devices({ session }: { session: AeroSession }) {
  const client = useQueryClient()
  const mine = useQuery(deviceListQuery())
  const [adding, setAdding] = useState('')
  const save = useMutation({
    mutationFn: (devices: AeroSession['devices']) =>
      api<AeroSession>(`/api/aero-sessions/${session.id}`, { method: 'PATCH', body: { devices } }),
    onSuccess: (s) => client.setQueryData(sessionQuery(session.id).queryKey, s),
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

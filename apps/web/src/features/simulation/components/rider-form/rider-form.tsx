// A new or stored rider setup's form: the cards of its parts, saving (a new setup belongs to the
// team the user works in unless "Save in" says otherwise) and deleting.
import { useMutation } from '@tanstack/react-query'
import { useState } from 'react'
import { FormProvider, type FieldErrors, type FieldPath } from 'react-hook-form'
import { Link, useNavigate } from 'react-router'
import { pacingGaps, type RiderSetupForm } from '@veloptima/contracts'
import { api, ApiError } from '../../../../lib/api-client.ts'
import { firstMessage } from '../../../../lib/form-errors.ts'
import { OwnerSelect, useNewItemOwner } from '../../../../components/owner-control.tsx'
import { Button, OutcomeLine, Page, PageHeader, type Outcome } from '../ui.tsx'
import { PrefillSummary } from '../setup-prefill.tsx'
import { errorMessage, type RiderSetup } from '../../lib/api.ts'
import type { ProfileValues, SetupForm } from '../../lib/setup-form.ts'
import { BikeCard } from './bike-card.tsx'
import { PositionsCard } from './positions-card.tsx'
import { RiderCard } from './rider-card.tsx'
import { fieldErrorsOf } from './schema.ts'
import { TyresCard } from './tyres-card.tsx'
import { useRiderForm } from './use-rider-form.ts'

export function RiderForm({
  setup,
  profile,
}: {
  setup: RiderSetup | undefined
  /** The rider profile a new setup starts from (null: none). */
  profile: ProfileValues | null
}) {
  const navigate = useNavigate()
  const state = useRiderForm(setup, profile)
  const { form } = state
  const [owner, setOwner, teams] = useNewItemOwner()
  const [prefilled] = useState(() => (setup ? null : profile))
  const [status, setStatus] = useState<Outcome | null>(null)

  const save = useMutation({
    mutationFn: (body: RiderSetupForm) =>
      setup
        ? api<RiderSetup>(`/api/rider-setups/${setup.id}`, { method: 'PATCH', body })
        : api<RiderSetup>('/api/rider-setups', {
            method: 'POST',
            body: { ...body, ...(owner ? { owner } : {}) },
          }),
    onSuccess: (saved) => {
      if (setup) setStatus({ ok: true, text: 'Saved.' })
      else navigate(`/simulation/riders/${saved.id}`, { replace: true })
    },
    onError: (e) => {
      if (e instanceof ApiError && e.status === 400) {
        for (const { path, message } of fieldErrorsOf(e.details)) {
          form.setError(path as FieldPath<SetupForm>, { type: 'server', message })
        }
      }
      setStatus({ ok: false, text: errorMessage(e) })
    },
  })
  const { handleSubmit } = form
  const send = (body: RiderSetupForm) => {
    setStatus(null)
    save.mutate(body)
  }
  const refuse = (errors: FieldErrors<SetupForm>) =>
    setStatus({ ok: false, text: firstMessage(errors) ?? 'Check the fields.' })

  async function remove() {
    if (!setup || !window.confirm(`Delete the rider setup “${setup.name}”?`)) return
    try {
      await api(`/api/rider-setups/${setup.id}`, { method: 'DELETE' })
      navigate('/simulation/riders')
    } catch (e) {
      setStatus({ ok: false, text: errorMessage(e) })
    }
  }

  return (
    <Page>
      <PageHeader title={setup ? setup.name : 'New rider setup'}>
        {setup ? (
          <Button variant="danger" onClick={remove}>
            Delete
          </Button>
        ) : null}
      </PageHeader>
      <FormProvider {...form}>
        {setup ? (
          <SetupGaps setup={setup} />
        ) : (
          <PrefillSummary profile={prefilled} derived={state.derived} />
        )}
        <form
          noValidate
          className="mt-4 grid grid-cols-1 gap-4 lg:grid-cols-2"
          onSubmit={(e) => void handleSubmit(send, refuse)(e)}
        >
          <RiderCard state={state}>
            {!setup ? <OwnerSelect value={owner} onChange={setOwner} teams={teams} /> : null}
          </RiderCard>
          <BikeCard state={state} />
          <PositionsCard state={state} />
          <TyresCard state={state} />
          <div className="flex items-center gap-3 lg:col-span-2">
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? 'Saving…' : setup ? 'Save' : 'Create rider setup'}
            </Button>
            <Link to="/simulation/riders" className="text-sm text-slate-600 underline">
              Back to rider setups
            </Link>
            <OutcomeLine outcome={status} />
          </div>
        </form>
      </FormProvider>
    </Page>
  )
}

/** What a stored setup lacks for a pacing plan (pacingGaps), or nothing. */
function SetupGaps({ setup }: { setup: RiderSetup }) {
  const gaps = pacingGaps(setup)
  if (gaps.length === 0) return null
  return (
    <p
      className="mt-4 rounded-lg bg-amber-50 p-4 text-sm text-amber-900 ring-1 ring-amber-200"
      data-testid="setup-gaps"
    >
      A pacing plan needs {gaps.map((g) => g.label).join(' and ')}, which this setup does not have
      yet: enter {gaps.length > 1 ? 'them' : 'it'} below and save.
    </p>
  )
}

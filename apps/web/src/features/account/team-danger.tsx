// The team page's danger zone: hand the team over, leave, and delete it (with what goes).
import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react'
import { useState } from 'react'
import { useNavigate } from 'react-router'
import type { TeamMember } from '@veloptima/contracts'
import { buttonClass } from '../../components/button.ts'
import { FieldLabel, Options } from '../../components/form.tsx'
import { PageSpinner } from '../../components/spinner.tsx'
import { deletionSummary, roleLabels } from './team-rules.ts'
import { useTeamActions, useTeamContents } from './teams-api.ts'
import { dangerButton, ErrorText, inputClass, Section } from './team-ui.tsx'

export function DangerSection({
  teamId,
  name,
  me,
  members,
}: {
  teamId: string
  name: string
  me: TeamMember
  members: TeamMember[]
}) {
  const actions = useTeamActions(teamId)
  const navigate = useNavigate()
  const others = members.filter((m) => m.uid !== me.uid)
  const [to, setTo] = useState('')
  const [confirming, setConfirming] = useState(false)
  return (
    <Section title="Ownership and deletion" id="danger">
      <div className="flex flex-wrap items-end gap-3">
        <div className="min-w-64">
          <FieldLabel htmlFor="transfer-to">Hand the team over to</FieldLabel>
          <select
            id="transfer-to"
            value={to}
            onChange={(e) => setTo(e.target.value)}
            className={`mt-1 ${inputClass} pr-8`}
            disabled={others.length === 0}
          >
            <option value="">{others.length ? 'Choose a member' : 'No other member yet'}</option>
            <Options
              options={others.map((m) => ({
                value: m.uid,
                label: `${m.display_name || m.email} (${roleLabels[m.role].toLowerCase()})`,
              }))}
            />
          </select>
        </div>
        <button
          type="button"
          className={buttonClass.secondary}
          disabled={!to || actions.transfer.isPending}
          onClick={() => {
            const who = others.find((m) => m.uid === to)
            if (
              !window.confirm(`Make ${who?.display_name || who?.email} owner? You become admin.`)
            ) {
              return
            }
            actions.transfer.mutate(to, { onSuccess: () => setTo('') })
          }}
        >
          Transfer ownership
        </button>
      </div>
      <p className="mt-2 text-sm text-slate-500">
        The new owner can then make you a member or remove you; you stay an admin until then.
      </p>
      <ErrorText error={actions.transfer.error} />
      <div className="mt-8 border-t border-slate-100 pt-6">
        <button type="button" className={dangerButton} onClick={() => setConfirming(true)}>
          Delete team…
        </button>
      </div>
      {confirming && (
        <DeleteDialog
          teamId={teamId}
          name={name}
          pending={actions.remove.isPending}
          error={actions.remove.error}
          onClose={() => setConfirming(false)}
          onConfirm={
            () =>
              void actions.remove
                .mutateAsync()
                .then(() => navigate('/account'))
                .catch(() => undefined) // shown from actions.remove.error
          }
        />
      )}
    </Section>
  )
}

function DeleteDialog(props: {
  teamId: string
  name: string
  pending: boolean
  error: Error | null
  onClose: () => void
  onConfirm: () => void
}) {
  const contents = useTeamContents(props.teamId, true)
  const [typed, setTyped] = useState('')
  return (
    <Dialog open onClose={props.onClose} className="relative z-50">
      <div className="fixed inset-0 bg-slate-900/30" aria-hidden="true" />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        <DialogPanel className="w-full max-w-lg rounded-2xl bg-white p-6 shadow-xl">
          <DialogTitle className="text-lg font-semibold text-slate-900">
            Delete {props.name}?
          </DialogTitle>
          {contents.isPending ? (
            <PageSpinner label="Counting the team's items" />
          ) : contents.isError ? (
            <ErrorText error={contents.error} />
          ) : (
            <ul className="mt-4 list-disc space-y-2 pl-5 text-sm text-slate-700">
              {deletionSummary(contents.data).map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          )}
          <p className="mt-4 text-sm font-medium text-slate-900">This cannot be undone.</p>
          <label htmlFor="confirm-name" className="mt-4 block text-sm text-slate-700">
            Type the team&apos;s name to confirm
          </label>
          <input
            id="confirm-name"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            className={`mt-1 ${inputClass}`}
          />
          <ErrorText error={props.error} />
          <div className="mt-6 flex justify-end gap-3">
            <button type="button" className={buttonClass.secondary} onClick={props.onClose}>
              Cancel
            </button>
            <button
              type="button"
              className={dangerButton}
              disabled={typed.trim() !== props.name || props.pending}
              onClick={props.onConfirm}
            >
              Delete the team and its items
            </button>
          </div>
        </DialogPanel>
      </div>
    </Dialog>
  )
}

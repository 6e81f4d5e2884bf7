// The team page's invitations: send one by e-mail (or show the link to copy), list, revoke.
import { zodResolver } from '@hookform/resolvers/zod'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import type { z } from 'zod'
import { invitationCreateSchema, type InvitationCreated, type TeamRole } from '@veloptima/contracts'
import { buttonClass } from '../../components/button.ts'
import { FieldLabel, FormError, Options } from '../../components/form.tsx'
import { PageSpinner } from '../../components/spinner.tsx'
import { formatDay } from '../../lib/dates.ts'
import { invitableRoles, roleLabels } from './team-rules.ts'
import { useTeamActions, useTeamInvitations } from './teams-api.ts'
import { ErrorText, inputClass, Section } from './team-ui.tsx'

type InvitationForm = z.input<typeof invitationCreateSchema>

export function InvitationsSection({ teamId, role }: { teamId: string; role: TeamRole }) {
  const actions = useTeamActions(teamId)
  const invitations = useTeamInvitations(teamId, true)
  // raw: what is sent is what was typed; the browser's own checks (required, type) stay.
  const { register, handleSubmit, resetField, formState } = useForm<InvitationForm>({
    resolver: zodResolver(invitationCreateSchema, undefined, { raw: true }),
    defaultValues: { email: '', role: 'member' },
  })
  const [created, setCreated] = useState<InvitationCreated>()
  const [copied, setCopied] = useState(false)
  const submit = (values: InvitationForm) => {
    setCopied(false)
    actions.invite.mutate(
      { email: values.email, role: values.role ?? 'member' },
      {
        onSuccess: (result) => {
          setCreated(result)
          resetField('email')
        },
      },
    )
  }
  return (
    <Section title="Invite people" id="invitations">
      <form onSubmit={handleSubmit(submit)} className="flex flex-wrap items-end gap-3">
        <div className="min-w-64 grow">
          <FieldLabel htmlFor="invite-email">E-mail address</FieldLabel>
          <input
            id="invite-email"
            type="email"
            required
            className={`mt-1 ${inputClass}`}
            placeholder="rider@example.com"
            {...register('email')}
          />
        </div>
        <div>
          <FieldLabel htmlFor="invite-role">Role</FieldLabel>
          <select id="invite-role" className={`mt-1 ${inputClass} pr-8`} {...register('role')}>
            <Options
              options={invitableRoles(role).map((r) => ({ value: r, label: roleLabels[r] }))}
            />
          </select>
        </div>
        <button type="submit" className={buttonClass.primary} disabled={actions.invite.isPending}>
          Send invitation
        </button>
      </form>
      <FormError message={formState.errors.email?.message} className="mt-2" />
      <ErrorText error={actions.invite.error} />
      {created && (
        <div className="mt-4 rounded-xl bg-slate-50 p-4 text-sm" role="status">
          {created.emailed ? (
            <p>
              An e-mail with the link is on its way to <strong>{created.invitation.email}</strong>.
            </p>
          ) : (
            <>
              <p className="text-slate-700">
                E-mail is not set up on this server, so nothing was sent: give this link to{' '}
                <strong>{created.invitation.email}</strong>. It works once, for that address only,
                until {formatDay(created.invitation.expires_at)}.
              </p>
              <div className="mt-3 flex flex-wrap gap-2">
                <input
                  readOnly
                  aria-label="Invitation link"
                  value={created.link ?? ''}
                  onFocus={(e) => e.target.select()}
                  className={`${inputClass} min-w-64 grow font-mono text-xs`}
                />
                <button
                  type="button"
                  className={buttonClass.secondary}
                  onClick={() => {
                    void navigator.clipboard?.writeText(created.link ?? '').then(
                      () => setCopied(true),
                      () => setCopied(false),
                    )
                  }}
                >
                  {copied ? 'Copied' : 'Copy link'}
                </button>
              </div>
            </>
          )}
        </div>
      )}
      <h3 className="mt-8 text-sm font-semibold text-slate-900">Open invitations</h3>
      {invitations.isPending ? (
        <PageSpinner />
      ) : invitations.isError ? (
        <ErrorText error={invitations.error} />
      ) : invitations.data.length === 0 ? (
        <p className="mt-2 text-sm text-slate-500">
          None: every invitation was accepted or revoked.
        </p>
      ) : (
        <ul className="mt-2 divide-y divide-slate-100" aria-label="Open invitations">
          {invitations.data.map((inv) => (
            <li key={inv.id} className="flex flex-wrap items-center gap-x-4 gap-y-1 py-2 text-sm">
              <span className="grow text-slate-900">{inv.email}</span>
              <span className="text-slate-600">{roleLabels[inv.role]}</span>
              <span className={inv.status === 'expired' ? 'text-red-700' : 'text-slate-500'}>
                {inv.status === 'expired' ? 'expired' : 'valid until'} {formatDay(inv.expires_at)}
              </span>
              <button
                type="button"
                className={`${buttonClass.ghost} px-3 py-1.5`}
                disabled={actions.revoke.isPending}
                onClick={() => actions.revoke.mutate(inv.id)}
              >
                {inv.status === 'expired' ? 'Remove' : 'Revoke'}
              </button>
            </li>
          ))}
        </ul>
      )}
      <ErrorText error={actions.revoke.error} />
    </Section>
  )
}

import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react'
import { useState, type FormEvent, type ReactNode } from 'react'
import { Link, useNavigate, useParams } from 'react-router'
import type { InvitationCreated, TeamMember, TeamRole } from '@veloptima/contracts'
import { buttonClass } from '../../components/button.ts'
import { ChevronLeft } from '../../components/icons.tsx'
import { PageSpinner } from '../../components/spinner.tsx'
import { useAuth } from '../../lib/auth.ts'
import {
  assignableRoles,
  canManage,
  deletionSummary,
  invitableRoles,
  removalBlocked,
  roleLabels,
} from './team-rules.ts'
import {
  useTeam,
  useTeamActions,
  useTeamContents,
  useTeamInvitations,
  useTeamMembers,
} from './teams-api.ts'

const dangerButton =
  'inline-flex items-center justify-center gap-2 rounded-lg bg-white px-4 py-2.5 text-sm font-semibold text-red-700 ring-1 ring-red-300 ring-inset transition hover:bg-red-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-600 disabled:cursor-not-allowed disabled:opacity-60'

const inputClass =
  'block w-full rounded-lg border-0 px-3 py-2 text-sm ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-brand-600'

function Section({ title, children, id }: { title: string; children: ReactNode; id: string }) {
  return (
    <section
      aria-labelledby={`${id}-title`}
      className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8"
    >
      <h2 id={`${id}-title`} className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      <div className="mt-5">{children}</div>
    </section>
  )
}

function ErrorText({ error }: { error: Error | null }) {
  if (!error) return null
  return (
    <p role="alert" className="mt-2 text-sm text-red-700">
      {error.message}
    </p>
  )
}

/** /account/teams/:teamId: the team's name, members and roles, invitations, hand-over, delete. */
export function TeamPage() {
  const { teamId = '' } = useParams()
  const auth = useAuth()
  const team = useTeam(teamId)
  const members = useTeamMembers(teamId)
  if (team.isPending || members.isPending) return <PageSpinner label="Loading the team" />
  if (team.isError || members.isError) {
    return (
      <div className="space-y-4">
        <BackLink />
        <p role="alert" className="text-slate-700">
          {(team.error ?? members.error)?.message} You may have left the team, or it was deleted.
        </p>
      </div>
    )
  }
  const me = members.data.find((m) => m.uid === auth.user?.uid)
  if (!me) return <BackLink />
  return (
    <div className="space-y-8">
      <BackLink />
      <TeamHeader teamId={teamId} name={team.data.name} role={me.role} />
      <MembersSection teamId={teamId} me={me} members={members.data} />
      {canManage(me.role) && <InvitationsSection teamId={teamId} role={me.role} />}
      {me.role === 'owner' && (
        <DangerSection teamId={teamId} name={team.data.name} me={me} members={members.data} />
      )}
    </div>
  )
}

function BackLink() {
  return (
    <Link
      to="/account"
      className="inline-flex items-center gap-1 text-sm text-slate-600 hover:text-slate-900"
    >
      <ChevronLeft className="h-4 w-4" /> Your account
    </Link>
  )
}

function TeamHeader({ teamId, name, role }: { teamId: string; name: string; role: TeamRole }) {
  const { rename } = useTeamActions(teamId)
  const [editing, setEditing] = useState(false)
  const [draft, setDraft] = useState(name)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    rename.mutate(draft, { onSuccess: () => setEditing(false) })
  }
  return (
    <header>
      {editing ? (
        <form onSubmit={submit} className="flex max-w-lg flex-wrap items-end gap-3">
          <div className="grow">
            <label htmlFor="team-name" className="text-sm font-medium text-slate-700">
              Team name
            </label>
            <input
              id="team-name"
              value={draft}
              maxLength={100}
              required
              onChange={(e) => setDraft(e.target.value)}
              className={`mt-1 ${inputClass}`}
            />
          </div>
          <button type="submit" className={buttonClass.primary} disabled={rename.isPending}>
            Save name
          </button>
          <button type="button" className={buttonClass.ghost} onClick={() => setEditing(false)}>
            Cancel
          </button>
        </form>
      ) : (
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-2xl font-bold tracking-tight text-slate-900">{name}</h1>
          <span className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-medium text-slate-700">
            You are {roleLabels[role].toLowerCase()}
          </span>
          {canManage(role) && (
            <button
              type="button"
              className={buttonClass.ghost}
              onClick={() => {
                setDraft(name)
                setEditing(true)
              }}
            >
              Rename
            </button>
          )}
        </div>
      )}
      <ErrorText error={rename.error} />
    </header>
  )
}

function MembersSection({
  teamId,
  me,
  members,
}: {
  teamId: string
  me: TeamMember
  members: TeamMember[]
}) {
  const actions = useTeamActions(teamId)
  const navigate = useNavigate()
  const owners = members.filter((m) => m.role === 'owner').length
  const error = actions.setRole.error ?? actions.removeMember.error
  return (
    <Section title={`Members (${members.length})`} id="members">
      <ul className="divide-y divide-slate-100" aria-label="Members">
        {members.map((m) => {
          const self = m.uid === me.uid
          const roles = assignableRoles(me.role, m.role)
          // The last owner's role is shown but cannot be lowered.
          const lockedOwner = m.role === 'owner' && owners <= 1
          const blocked = removalBlocked(me.role, m.role, self, owners)
          const name = m.display_name || m.email
          return (
            <li
              key={m.uid}
              className="flex flex-wrap items-center gap-x-4 gap-y-2 py-3"
              data-testid={`member-${m.email}`}
            >
              <div className="min-w-0 grow">
                <p className="truncate text-sm font-medium text-slate-900">
                  {name}
                  {self && <span className="text-slate-500"> (you)</span>}
                </p>
                <p className="truncate text-sm text-slate-500">{m.email}</p>
              </div>
              {roles.length > 0 && !lockedOwner ? (
                <select
                  aria-label={`Role of ${name}`}
                  value={m.role}
                  disabled={actions.setRole.isPending}
                  onChange={(e) =>
                    actions.setRole.mutate({ uid: m.uid, role: e.target.value as TeamRole })
                  }
                  className="rounded-lg border-0 py-1.5 pr-8 pl-3 text-sm ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-brand-600"
                >
                  {[...new Set<TeamRole>([m.role, ...roles])].map((r) => (
                    <option key={r} value={r}>
                      {roleLabels[r]}
                    </option>
                  ))}
                </select>
              ) : (
                <span
                  className="text-sm text-slate-700"
                  title={lockedOwner ? 'A team always keeps at least one owner.' : undefined}
                >
                  {roleLabels[m.role]}
                </span>
              )}
              {(self || canManage(me.role)) && (
                <button
                  type="button"
                  className={`${buttonClass.ghost} px-3 py-1.5`}
                  disabled={Boolean(blocked) || actions.removeMember.isPending}
                  title={blocked}
                  onClick={() => {
                    const question = self
                      ? 'Leave this team? You lose access to its items.'
                      : `Remove ${name} from the team? Their personal items stay theirs.`
                    if (!window.confirm(question)) return
                    actions.removeMember
                      .mutateAsync(m.uid)
                      .then(() => self && navigate('/account'))
                      .catch(() => undefined) // shown from actions.removeMember.error
                  }}
                >
                  {self ? 'Leave' : 'Remove'}
                </button>
              )}
            </li>
          )
        })}
      </ul>
      {me.role === 'owner' && owners <= 1 && (
        <p className="mt-3 text-sm text-slate-500">
          You are the team&apos;s only owner: to leave, hand the team over first.
        </p>
      )}
      <ErrorText error={error} />
    </Section>
  )
}

function InvitationsSection({ teamId, role }: { teamId: string; role: TeamRole }) {
  const actions = useTeamActions(teamId)
  const invitations = useTeamInvitations(teamId, true)
  const [email, setEmail] = useState('')
  const [inviteRole, setInviteRole] = useState<'admin' | 'member'>('member')
  const [created, setCreated] = useState<InvitationCreated>()
  const [copied, setCopied] = useState(false)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    setCopied(false)
    actions.invite.mutate(
      { email, role: inviteRole },
      {
        onSuccess: (result) => {
          setCreated(result)
          setEmail('')
        },
      },
    )
  }
  return (
    <Section title="Invite people" id="invitations">
      <form onSubmit={submit} className="flex flex-wrap items-end gap-3">
        <div className="min-w-64 grow">
          <label htmlFor="invite-email" className="text-sm font-medium text-slate-700">
            E-mail address
          </label>
          <input
            id="invite-email"
            type="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            className={`mt-1 ${inputClass}`}
            placeholder="rider@example.com"
          />
        </div>
        <div>
          <label htmlFor="invite-role" className="text-sm font-medium text-slate-700">
            Role
          </label>
          <select
            id="invite-role"
            value={inviteRole}
            onChange={(e) => setInviteRole(e.target.value as 'admin' | 'member')}
            className={`mt-1 ${inputClass} pr-8`}
          >
            {invitableRoles(role).map((r) => (
              <option key={r} value={r}>
                {roleLabels[r]}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className={buttonClass.primary} disabled={actions.invite.isPending}>
          Send invitation
        </button>
      </form>
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
                until {new Date(created.invitation.expires_at).toLocaleDateString()}.
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
                {inv.status === 'expired' ? 'expired' : 'valid until'}{' '}
                {new Date(inv.expires_at).toLocaleDateString()}
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

function DangerSection({
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
          <label htmlFor="transfer-to" className="text-sm font-medium text-slate-700">
            Hand the team over to
          </label>
          <select
            id="transfer-to"
            value={to}
            onChange={(e) => setTo(e.target.value)}
            className={`mt-1 ${inputClass} pr-8`}
            disabled={others.length === 0}
          >
            <option value="">{others.length ? 'Choose a member' : 'No other member yet'}</option>
            {others.map((m) => (
              <option key={m.uid} value={m.uid}>
                {m.display_name || m.email} ({roleLabels[m.role].toLowerCase()})
              </option>
            ))}
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

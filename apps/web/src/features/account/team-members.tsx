// The team page's members: names, e-mails, roles (change, remove, leave).
import { useNavigate } from 'react-router'
import type { TeamMember, TeamRole } from '@veloptima/contracts'
import { buttonClass } from '../../components/button.ts'
import { Options } from '../../components/form.tsx'
import { assignableRoles, canManage, removalBlocked, roleLabels } from './team-rules.ts'
import { useTeamActions } from './teams-api.ts'
import { ErrorText, Section } from './team-ui.tsx'

export function MembersSection({
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
                  <Options
                    options={[...new Set<TeamRole>([m.role, ...roles])].map((r) => ({
                      value: r,
                      label: roleLabels[r],
                    }))}
                  />
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

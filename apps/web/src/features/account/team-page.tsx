import { zodResolver } from '@hookform/resolvers/zod'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { Link, useParams } from 'react-router'
import { teamPatchSchema, type TeamRole } from '@veloptima/contracts'
import type { z } from 'zod'
import { buttonClass } from '../../components/button.ts'
import { ChevronLeft } from '../../components/icons.tsx'
import { PageSpinner } from '../../components/spinner.tsx'
import { useAuth } from '../../lib/auth.ts'
import { canManage, roleLabels } from './team-rules.ts'
import { useTeam, useTeamActions, useTeamMembers } from './teams-api.ts'
import { ErrorText, TeamNameField } from './team-ui.tsx'
import { DangerSection } from './team-danger.tsx'
import { InvitationsSection } from './team-invitations.tsx'
import { MembersSection } from './team-members.tsx'
import { FormError } from '../../components/form.tsx'

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
  // raw: what is sent is what was typed; the browser's own checks (required, maxLength) stay.
  const { register, handleSubmit, reset, formState } = useForm<z.input<typeof teamPatchSchema>>({
    resolver: zodResolver(teamPatchSchema, undefined, { raw: true }),
    defaultValues: { name },
  })
  const submit = ({ name: draft }: z.input<typeof teamPatchSchema>) => {
    rename.mutate(draft, { onSuccess: () => setEditing(false) })
  }
  return (
    <header>
      {editing ? (
        <form onSubmit={handleSubmit(submit)} className="flex max-w-lg flex-wrap items-end gap-3">
          <TeamNameField id="team-name" label="Team name" field={register('name')} />
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
                reset({ name })
                setEditing(true)
              }}
            >
              Rename
            </button>
          )}
        </div>
      )}
      <FormError message={formState.errors.name?.message} className="mt-2" />
      <ErrorText error={rename.error} />
    </header>
  )
}

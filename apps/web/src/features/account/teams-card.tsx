import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'
import { Link } from 'react-router'
import { teamCreateSchema } from '@veloptima/contracts'
import type { z } from 'zod'
import { buttonClass } from '../../components/button.ts'
import { PageSpinner } from '../../components/spinner.tsx'
import { useMyTeams, usePatchUser, useUserDoc } from '../../lib/user.ts'
import { roleLabels } from './team-rules.ts'
import { useCreateTeam } from './teams-api.ts'
import { FieldLabel, FormError, Options } from '../../components/form.tsx'
import { inputClass, TeamNameField } from './team-ui.tsx'

/** The account page's teams: the team to work in, the caller's teams, and a new team. */
export function TeamsCard() {
  const teams = useMyTeams()
  const userDoc = useUserDoc()
  const patch = usePatchUser()
  const create = useCreateTeam()
  // raw: what is sent is what was typed; the browser's own checks (required, maxLength) stay.
  const { register, handleSubmit, reset, formState } = useForm<z.input<typeof teamCreateSchema>>({
    resolver: zodResolver(teamCreateSchema, undefined, { raw: true }),
    defaultValues: { name: '' },
  })
  const submit = ({ name }: z.input<typeof teamCreateSchema>) => {
    create.mutate(name, {
      onSuccess: (team) => {
        reset()
        // A new team becomes the one worked in: it is why it was made.
        patch.mutate({ current_team: team.id })
      },
    })
  }
  return (
    <section
      id="team"
      aria-labelledby="team-title"
      className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8"
    >
      <h2 id="team-title" className="text-lg font-semibold text-slate-900">
        Teams
      </h2>
      <div className="mt-5 space-y-8">
        {teams.isPending || userDoc.isPending ? (
          <PageSpinner />
        ) : teams.isError ? (
          <p role="alert" className="text-sm text-red-700">
            {teams.error.message}
          </p>
        ) : teams.data.length === 0 ? (
          <p className="text-sm text-slate-600">
            You are not in a team. Create one and invite your riders, or open the invitation link a
            coach sent you.
          </p>
        ) : (
          <>
            <div className="max-w-sm">
              <FieldLabel htmlFor="current-team">Work in</FieldLabel>
              <select
                id="current-team"
                value={userDoc.data?.current_team ?? ''}
                disabled={patch.isPending}
                onChange={(e) => patch.mutate({ current_team: e.target.value || null })}
                className={`mt-1 ${inputClass}`}
              >
                <option value="">Only my own items</option>
                <Options
                  options={teams.data.map((t) => ({ value: t.id, label: `${t.name} (${t.role})` }))}
                />
              </select>
              <p className="mt-2 text-sm text-slate-500" role="status">
                {patch.isError
                  ? patch.error.message
                  : patch.isSuccess
                    ? 'Saved.'
                    : 'New items are created for the team you work in.'}
              </p>
            </div>
            <ul className="divide-y divide-slate-100" aria-label="Your teams">
              {teams.data.map((t) => (
                <li key={t.id} className="flex items-center gap-4 py-3">
                  <div className="min-w-0 grow">
                    <p className="truncate text-sm font-medium text-slate-900">{t.name}</p>
                    <p className="text-sm text-slate-500">{roleLabels[t.role]}</p>
                  </div>
                  <Link
                    to={`/account/teams/${t.id}`}
                    className={`${buttonClass.secondary} px-3 py-1.5`}
                    aria-label={`Members of ${t.name}`}
                  >
                    Members
                  </Link>
                </li>
              ))}
            </ul>
          </>
        )}
        <form onSubmit={handleSubmit(submit)} className="flex max-w-lg flex-wrap items-end gap-3">
          <TeamNameField
            id="new-team"
            label="New team"
            placeholder="e.g. Alpine Racing"
            field={register('name')}
          />
          <button type="submit" className={buttonClass.primary} disabled={create.isPending}>
            Create team
          </button>
        </form>
        <FormError message={formState.errors.name?.message} />
        <FormError message={create.error?.message} />
      </div>
    </section>
  )
}

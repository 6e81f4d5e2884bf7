import { Link, useLocation, useParams } from 'react-router'
import { buttonClass } from '../../components/button.ts'
import { PageSpinner } from '../../components/spinner.tsx'
import { ApiError } from '../../lib/api-client.ts'
import { useAuth } from '../../lib/auth.ts'
import { formatDay } from '../../lib/dates.ts'
import { roleLabels } from './team-rules.ts'
import { useAcceptInvitation, useInvitationPreview } from './teams-api.ts'

const titles: Record<string, string> = {
  'invitation-invalid': 'This invitation link is not valid',
  'invitation-used': 'This invitation has already been used',
  'invitation-expired': 'This invitation has expired',
  'invitation-revoked': 'This invitation was withdrawn',
}

function Panel({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div
      className="mx-auto max-w-lg rounded-2xl bg-white p-8 text-center shadow-sm ring-1 ring-slate-200"
      data-testid="invitation"
    >
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
      <div className="mt-3 text-base leading-7 text-slate-600">{children}</div>
    </div>
  )
}

/**
 * /account/invitations/:token — the page of an invitation link. Signed out, it says what to do
 * (sign in or sign up, then come back here); the invited e-mail address must be the one signed
 * in (case-insensitive), which the page says before the button does anything.
 */
export function InvitationPage() {
  const { token = '' } = useParams()
  const auth = useAuth()
  const location = useLocation()
  const preview = useInvitationPreview(token)
  const accept = useAcceptInvitation(token)

  if (auth.isLoading || auth.loggingIn) return <PageSpinner label="Checking your session" />
  if (!auth.user) {
    return (
      <Panel title="You are invited to a team on Veloptima">
        <p>
          Sign in with the e-mail address the invitation was sent to. New to Veloptima? Choose
          &ldquo;Create an account&rdquo; on the next page, with that address. You come straight
          back here to accept.
        </p>
        <div className="mt-6">
          <button
            type="button"
            className={buttonClass.primary}
            onClick={() => void auth.login(location.pathname)}
          >
            Sign in to accept
          </button>
        </div>
      </Panel>
    )
  }
  if (accept.isSuccess) {
    const team = accept.data
    return (
      <Panel title={`Welcome to ${team.name}`}>
        <p>
          You are now a {roleLabels[team.role].toLowerCase()} of {team.name}. The team&apos;s
          courses, rider setups and sessions appear next to yours while you work in the team.
        </p>
        <div className="mt-6 flex flex-wrap justify-center gap-3">
          <Link to={`/account/teams/${team.id}`} className={buttonClass.primary}>
            See the team
          </Link>
          <Link to="/" className={buttonClass.secondary}>
            Home
          </Link>
        </div>
      </Panel>
    )
  }
  if (preview.isPending) return <PageSpinner label="Checking the invitation" />
  if (preview.isError) {
    const code = preview.error instanceof ApiError ? preview.error.code : ''
    return (
      <Panel title={titles[code] ?? 'This invitation cannot be opened'}>
        <p>{preview.error.message}</p>
        <div className="mt-6">
          <Link to="/" className={buttonClass.secondary}>
            Home
          </Link>
        </div>
      </Panel>
    )
  }
  const inv = preview.data
  const who = inv.invited_by_name ? `${inv.invited_by_name} invites you` : 'You are invited'
  if (inv.already_member) {
    return (
      <Panel title={`You are already in ${inv.team_name}`}>
        <p>Nothing to accept: you are a member of this team already.</p>
      </Panel>
    )
  }
  return (
    <Panel title={`Join ${inv.team_name}`}>
      <p>
        {who} to join <strong className="text-slate-900">{inv.team_name}</strong> as{' '}
        {roleLabels[inv.role].toLowerCase()}. The invitation is for{' '}
        <strong className="text-slate-900">{inv.email}</strong> and is valid until{' '}
        {formatDay(inv.expires_at)}.
      </p>
      {inv.email_matches ? (
        <div className="mt-6">
          <button
            type="button"
            className={buttonClass.primary}
            disabled={accept.isPending}
            onClick={() => accept.mutate()}
          >
            Accept and join
          </button>
        </div>
      ) : (
        <div className="mt-6 space-y-4">
          <p role="alert" className="text-sm text-red-700">
            You are signed in as {auth.user?.email}. Only {inv.email} can accept this invitation:
            sign out, then sign in or sign up with {inv.email} and open the link again.
          </p>
          <button
            type="button"
            className={buttonClass.secondary}
            onClick={() => void auth.logout()}
          >
            Sign out
          </button>
        </div>
      )}
      {accept.isError && (
        <p role="alert" className="mt-4 text-sm text-red-700">
          {accept.error.message}
        </p>
      )}
    </Panel>
  )
}

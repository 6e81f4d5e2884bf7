import { Menu, MenuButton, MenuItem, MenuItems } from '@headlessui/react'
import { Link } from 'react-router'
import { CheckIcon } from '../../components/icons.tsx'
import type { LoggedInUser } from '../../lib/auth.ts'
import { useMyTeams, usePatchUser, useUserDoc } from '../../lib/user.ts'
import { Avatar } from './avatar.tsx'

const itemClass =
  'flex w-full items-center gap-2 rounded-lg px-3 py-2 text-left text-sm text-slate-700 data-focus:bg-slate-50 data-focus:text-slate-900'

/** "Work in": the current team (or only one's own items), when the user is in a team. */
function TeamSwitch() {
  const teams = useMyTeams()
  const userDoc = useUserDoc()
  const patch = usePatchUser()
  if (!teams.data?.length || !userDoc.data) return null
  const current = userDoc.data.current_team
  const choices = [
    { id: null, name: 'Only my own items' },
    ...teams.data.map((t) => ({ id: t.id, name: t.name })),
  ]
  return (
    <>
      <div className="my-1 h-px bg-slate-100" />
      <p className="px-3 pt-2 pb-1 text-xs font-medium tracking-wide text-slate-500 uppercase">
        Work in
      </p>
      {choices.map((c) => (
        <MenuItem key={c.id ?? 'own'}>
          <button
            type="button"
            aria-current={c.id === current ? 'true' : undefined}
            onClick={() => c.id !== current && patch.mutate({ current_team: c.id })}
            className={itemClass}
          >
            <CheckIcon
              className={`h-4 w-4 shrink-0 ${c.id === current ? 'text-brand-600' : 'invisible'}`}
            />
            <span className="truncate">{c.name}</span>
          </button>
        </MenuItem>
      ))}
    </>
  )
}

/** The user menu: name, e-mail, photo; the team worked in; Your account; Sign out. */
export function UserMenu({ user, onSignOut }: { user: LoggedInUser; onSignOut: () => void }) {
  return (
    <Menu as="div" className="relative">
      <MenuButton
        aria-label={`Open user menu for ${user.displayName || user.email}`}
        className="flex rounded-full focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
      >
        <Avatar user={user} className="h-9 w-9" />
      </MenuButton>
      <MenuItems
        anchor="bottom end"
        className="z-50 mt-2 w-64 origin-top-right rounded-xl bg-white p-1 shadow-lg ring-1 ring-slate-900/5 focus:outline-none"
      >
        <div className="flex items-center gap-3 px-3 py-3">
          <Avatar user={user} className="h-10 w-10" />
          <div className="min-w-0">
            <p className="truncate text-sm font-semibold text-slate-900">{user.displayName}</p>
            <p className="truncate text-xs text-slate-500">{user.email}</p>
          </div>
        </div>
        <TeamSwitch />
        <div className="my-1 h-px bg-slate-100" />
        <MenuItem>
          <Link
            to="/account"
            className="block rounded-lg px-3 py-2 text-sm text-slate-700 data-focus:bg-slate-50 data-focus:text-slate-900"
          >
            Your account
          </Link>
        </MenuItem>
        <MenuItem>
          <button
            type="button"
            onClick={onSignOut}
            className="block w-full rounded-lg px-3 py-2 text-left text-sm text-slate-700 data-focus:bg-slate-50 data-focus:text-slate-900"
          >
            Sign out
          </button>
        </MenuItem>
      </MenuItems>
    </Menu>
  )
}

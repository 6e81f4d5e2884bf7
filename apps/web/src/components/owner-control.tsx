// Who owns an item of a list (a "Personal" or team-name badge) and, for those who may, a
// "Move to…" select: POST /api/<collection>/:id/move {owner}. A personal item is moved by its
// owner, a team's item by the team's owners and admins; the API's refusal (e.g. an optimization
// whose course is not the team's) is shown under the select. For a new item, OwnerSelect: who
// will own it, by default the team the user works in (current_team), else the user; the API
// checks that the caller belongs to the team named.
import { useId, useState } from 'react'
import type { MyTeam } from '@veloptima/contracts'
import { api } from '../lib/api-client.ts'
import { Options } from './form.tsx'
import { humanError, MessageDetails } from './message-details.tsx'
import { useAuth } from '../lib/auth.ts'
import { useMyTeams, useUserDoc } from '../lib/user.ts'

export type OwnedItem = { id: string; name?: string; owner: string | null; owner_type: string }

/** Whether `uid` may move `item` (the API's rule, so no select is shown that would be refused). */
export function canMove(item: OwnedItem, uid: string | undefined, teams: MyTeam[]): boolean {
  if (!uid) return false
  if (item.owner_type === 'user') return item.owner === uid
  if (item.owner_type !== 'team') return false
  const role = teams.find((t) => t.id === item.owner)?.role
  return role === 'owner' || role === 'admin'
}

/** Where `item` may go: back to the caller, or any of the caller's other teams. */
export function moveTargets(item: OwnedItem, uid: string, teams: MyTeam[]) {
  const targets = teams
    .filter((t) => t.id !== item.owner)
    .map((t) => ({ value: t.id, label: t.name }))
  return item.owner_type === 'team' ? [{ value: uid, label: 'Personal' }, ...targets] : targets
}

export function OwnerControl({
  collection,
  item,
  onMoved,
}: {
  /** The API path segment: courses, rider-setups, optimizations, devices, aero-sessions. */
  collection: string
  item: OwnedItem
  onMoved(): void
}) {
  const { user } = useAuth()
  const teams = useMyTeams().data ?? []
  const [error, setError] = useState<{ message: string; detail?: string } | null>(null)
  const [busy, setBusy] = useState(false)
  if (item.owner_type === 'sample') return null
  const team = item.owner_type === 'team' ? teams.find((t) => t.id === item.owner) : undefined
  const badge = item.owner_type === 'team' ? (team?.name ?? 'Team') : 'Personal'
  const targets = user && canMove(item, user.uid, teams) ? moveTargets(item, user.uid, teams) : []

  async function move(owner: string) {
    setBusy(true)
    setError(null)
    try {
      await api(`/api/${collection}/${encodeURIComponent(item.id)}/move`, {
        method: 'POST',
        body: { owner },
      })
      onMoved()
    } catch (e) {
      setError(humanError(e, 'The move failed; try again in a moment.'))
    } finally {
      setBusy(false)
    }
  }

  return (
    <span className="inline-flex flex-col items-end gap-1">
      <span className="inline-flex items-center gap-2">
        <span
          className={
            item.owner_type === 'team'
              ? 'rounded-full bg-brand-50 px-2 py-0.5 text-xs font-medium text-brand-700'
              : 'rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-600'
          }
        >
          {badge}
        </span>
        {targets.length > 0 ? (
          <select
            aria-label={`Move ${item.name ?? 'item'} to`}
            className="rounded border border-slate-300 bg-white px-1 py-0.5 text-xs text-slate-700"
            value=""
            disabled={busy}
            onChange={(e) => e.target.value && void move(e.target.value)}
          >
            <option value="">Move to…</option>
            <Options options={targets} />
          </select>
        ) : null}
      </span>
      {error ? <MessageDetails {...error} className="max-w-xs text-right text-xs" /> : null}
    </span>
  )
}

/**
 * The owner a new item gets unless the user picks another: the team the user works in (the
 * current team, when they still belong to it), else the user ('' = personal).
 */
export function defaultOwner(currentTeam: string | null | undefined, teams: MyTeam[]): string {
  return currentTeam && teams.some((t) => t.id === currentTeam) ? currentTeam : ''
}

/**
 * Who will own a new item: `[owner, setOwner, teams]`, '' for the user. Follows the current team
 * until the user picks an owner; `fitsTeam` (e.g. "its course and setup are the team's") can
 * keep the default personal when the team could not own the item.
 */
export function useNewItemOwner(
  fitsTeam: (team: string) => boolean = () => true,
): [string, (owner: string) => void, MyTeam[]] {
  const teams = useMyTeams().data ?? []
  const currentTeam = useUserDoc().data?.current_team
  const [picked, setPicked] = useState<string | null>(null)
  const team = defaultOwner(currentTeam, teams)
  return [picked ?? (team && fitsTeam(team) ? team : ''), setPicked, teams]
}

/** Whether a referenced item can serve a team's item: the team's own, or a sample. */
export function sharedWithTeam(
  item: { owner: string | null; owner_type: string } | undefined,
  team: string,
): boolean {
  return Boolean(
    item && (item.owner_type === 'sample' || (item.owner_type === 'team' && item.owner === team)),
  )
}

/** "Save in": Personal or one of the user's teams; nothing when the user has no team. */
export function OwnerSelect({
  value,
  onChange,
  teams,
  label = 'Save in',
  className = '',
}: {
  value: string
  onChange(owner: string): void
  teams: MyTeam[]
  label?: string
  className?: string
}) {
  const id = useId()
  if (teams.length === 0) return null
  return (
    <span className={`inline-flex items-center gap-2 text-sm ${className}`}>
      <label htmlFor={id} className="font-medium text-slate-700">
        {label}
      </label>
      <select
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm text-slate-800"
      >
        <option value="">Personal</option>
        <Options options={teams.map((t) => ({ value: t.id, label: t.name }))} />
      </select>
    </span>
  )
}

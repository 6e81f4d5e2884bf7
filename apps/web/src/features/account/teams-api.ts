import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type {
  Invitation,
  InvitationCreated,
  InvitationPreview,
  MyTeam,
  Page,
  Team,
  TeamContents,
  TeamMember,
  TeamRole,
} from '@veloptima/contracts'
import { api } from '../../lib/api-client.ts'
import { useAuth } from '../../lib/auth.ts'
import { userKey } from '../../lib/user.ts'

const teamPath = (id: string) => `/api/teams/${encodeURIComponent(id)}`

export function useTeam(id: string) {
  return useQuery({ queryKey: ['team', id], queryFn: () => api<Team>(teamPath(id)) })
}

export function useTeamMembers(id: string) {
  return useQuery({
    queryKey: ['team', id, 'members'],
    queryFn: async () => (await api<Page<TeamMember>>(`${teamPath(id)}/members`)).items,
  })
}

export function useTeamInvitations(id: string, enabled: boolean) {
  return useQuery({
    queryKey: ['team', id, 'invitations'],
    queryFn: async () => (await api<Page<Invitation>>(`${teamPath(id)}/invitations`)).items,
    enabled,
  })
}

export function useTeamContents(id: string, enabled: boolean) {
  return useQuery({
    queryKey: ['team', id, 'contents'],
    queryFn: () => api<TeamContents>(`${teamPath(id)}/contents`),
    enabled,
  })
}

/**
 * The team mutations. Each one refreshes what it changes: the team, its members and
 * invitations, the caller's team list and user document (current team), and the claims
 * (a team plan's claims follow membership).
 */
export function useTeamActions(id: string) {
  const client = useQueryClient()
  const auth = useAuth()
  const uid = auth.user?.uid
  // `gone`: the caller no longer sees the team (deleted, or left): its queries are not
  // refetched (they would answer 404 under the page that is navigating away).
  const refresh = async (also: { claims?: boolean; gone?: boolean } = {}) => {
    if (also.gone) await client.cancelQueries({ queryKey: ['team', id] })
    await Promise.all([
      also.gone ? undefined : client.invalidateQueries({ queryKey: ['team', id] }),
      client.invalidateQueries({ queryKey: ['teams', uid] }),
      client.invalidateQueries({ queryKey: userKey(uid) }),
    ])
    if (also.claims) await auth.refreshClaims()
  }
  return {
    rename: useMutation({
      mutationFn: (name: string) => api<Team>(teamPath(id), { method: 'PATCH', body: { name } }),
      onSuccess: () => refresh(),
    }),
    remove: useMutation({
      mutationFn: () => api<void>(teamPath(id), { method: 'DELETE' }),
      onSuccess: () => refresh({ claims: true, gone: true }),
    }),
    setRole: useMutation({
      mutationFn: (v: { uid: string; role: TeamRole }) =>
        api(`${teamPath(id)}/members/${encodeURIComponent(v.uid)}`, {
          method: 'PATCH',
          body: { role: v.role },
        }),
      onSuccess: () => refresh(),
    }),
    removeMember: useMutation({
      mutationFn: (memberUid: string) =>
        api<void>(`${teamPath(id)}/members/${encodeURIComponent(memberUid)}`, {
          method: 'DELETE',
        }),
      onSuccess: (_v, memberUid) => refresh({ claims: memberUid === uid, gone: memberUid === uid }),
    }),
    transfer: useMutation({
      mutationFn: (to: string) =>
        api(`${teamPath(id)}/transfer`, { method: 'POST', body: { uid: to } }),
      onSuccess: () => refresh(),
    }),
    invite: useMutation({
      mutationFn: (v: { email: string; role: 'admin' | 'member' }) =>
        api<InvitationCreated>(`${teamPath(id)}/invitations`, { method: 'POST', body: v }),
      onSuccess: () => refresh(),
    }),
    revoke: useMutation({
      mutationFn: (invitationId: string) =>
        api<void>(`${teamPath(id)}/invitations/${encodeURIComponent(invitationId)}`, {
          method: 'DELETE',
        }),
      onSuccess: () => refresh(),
    }),
  }
}

export function useCreateTeam() {
  const client = useQueryClient()
  const auth = useAuth()
  return useMutation({
    mutationFn: (name: string) => api<MyTeam>('/api/teams', { method: 'POST', body: { name } }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['teams', auth.user?.uid] }),
  })
}

export function useInvitationPreview(token: string) {
  const { user } = useAuth()
  return useQuery({
    queryKey: ['invitation', token, user?.uid],
    queryFn: () =>
      api<InvitationPreview>('/api/invitations/inspect', { method: 'POST', body: { token } }),
    enabled: Boolean(user),
    retry: false,
  })
}

export function useAcceptInvitation(token: string) {
  const client = useQueryClient()
  const auth = useAuth()
  return useMutation({
    mutationFn: () => api<MyTeam>('/api/invitations/accept', { method: 'POST', body: { token } }),
    onSuccess: async () => {
      await Promise.all([
        client.invalidateQueries({ queryKey: ['teams', auth.user?.uid] }),
        client.invalidateQueries({ queryKey: userKey(auth.user?.uid) }),
      ])
      await auth.refreshClaims()
    },
  })
}

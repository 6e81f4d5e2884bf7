import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { MyTeam, Page, User, UserPatch } from '@veloptima/contracts'
import { api } from './api-client.ts'
import { useAuth } from './auth.ts'

export const userKey = (uid: string | undefined) => ['user', uid] as const

/** The signed-in user's document (users/{uid}: current_team, trial_used, units). */
export function useUserDoc() {
  const { user } = useAuth()
  const uid = user?.uid
  return useQuery({
    queryKey: userKey(uid),
    queryFn: () => api<User>(`/api/users/${encodeURIComponent(uid!)}`),
    enabled: Boolean(uid),
    staleTime: 60_000,
  })
}

/** PATCH /api/users/:uid; the cached document follows at once (optimistic) and on answer. */
export function usePatchUser() {
  const { user } = useAuth()
  const client = useQueryClient()
  const uid = user?.uid
  return useMutation({
    mutationFn: (patch: UserPatch) =>
      api<User>(`/api/users/${encodeURIComponent(uid!)}`, { method: 'PATCH', body: patch }),
    onMutate: (patch) => {
      const before = client.getQueryData<User>(userKey(uid))
      if (before) client.setQueryData<User>(userKey(uid), { ...before, ...patch } as User)
      return { before }
    },
    onError: (_error, _patch, context) => {
      if (context?.before) client.setQueryData(userKey(uid), context.before)
    },
    onSuccess: (next) => client.setQueryData(userKey(uid), next),
  })
}

/** The caller's teams (GET /api/teams). */
export function useMyTeams() {
  const { user } = useAuth()
  return useQuery({
    queryKey: ['teams', user?.uid],
    queryFn: async () => (await api<Page<MyTeam>>('/api/teams')).items,
    enabled: Boolean(user),
    staleTime: 60_000,
  })
}

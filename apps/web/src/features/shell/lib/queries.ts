// The reads of the shell: one `queryOptions` per endpoint (features/simulation/lib/queries.ts is
// the model).
import { queryOptions } from '@tanstack/react-query'
import type { Notification, Page } from '@veloptima/contracts'
import { api } from '../../../lib/api-client.ts'

/**
 * The signed-in user's notifications not shown yet (GET /api/notifications?showed=false), read
 * once per sign-in: live notifications follow on the stream. Not kept once the popups are up
 * (gcTime 0): those it held are marked showed, and the next sign-in reads the ones left.
 */
export const unshownNotificationsQuery = (uid: string) =>
  queryOptions({
    queryKey: ['notifications', 'unshown', uid],
    queryFn: () => api<Page<Notification>>('/api/notifications?showed=false&limit=50'),
    retry: false,
    gcTime: 0,
  })

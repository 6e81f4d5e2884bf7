// What every server read of the web app shares (ARCHITECTURE.md: TanStack Query for server state).
import { queryOptions } from '@tanstack/react-query'
import { ApiError } from './api-client.ts'
import { mapTileUrl } from './public-config.ts'

/**
 * Whether a failed read is tried again: once when the network or the server failed; never when
 * the API answered the request itself (a 4xx: not found, not the caller's, invalid), whose
 * message the page shows at once.
 */
export function retryServerErrors(failures: number, error: Error): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false
  return failures < 1
}

/** A read of the API under `queryKey`, tried again on server errors only (retryServerErrors). */
export const apiRead = <T, K extends readonly unknown[]>(queryKey: K, queryFn: () => Promise<T>) =>
  queryOptions({ queryKey, queryFn, retry: retryServerErrors })

/** The maps' tile server (null: none configured): read with the public configuration, once a page. */
export const mapTileQuery = () =>
  queryOptions({
    queryKey: ['public-config', 'map-tile-url'],
    queryFn: mapTileUrl,
    staleTime: Infinity,
  })

import { describe, expect, it } from 'vitest'
import { QueryClient } from '@tanstack/react-query'
import { liveTeamItemsSchema } from '@veloptima/contracts'
import {
  courseListQuery,
  courseQuery,
  optimizationListQuery,
  optimizationResultsQuery,
  riderSetupListQuery,
} from './queries.ts'

// LiveProvider (lib/live.tsx) invalidates the queries under [collection] for each team-item
// event: the keys of queries.ts put each read under the collection of its path.
describe('a team-item event and the simulation queries', () => {
  const lists: Record<string, readonly (readonly unknown[])[]> = {
    courses: [courseListQuery().queryKey],
    'rider-setups': [riderSetupListQuery().queryKey],
    optimizations: [
      optimizationListQuery(null).queryKey,
      optimizationListQuery('pacing').queryKey,
      optimizationListQuery('equipment').queryKey,
    ],
  }

  it('invalidates every list of the named collection and leaves the other collections alone', async () => {
    for (const [collection, keys] of Object.entries(lists)) {
      const client = new QueryClient()
      const all = Object.values(lists).flat()
      for (const key of all) client.setQueryData(key, [])
      await client.invalidateQueries({ queryKey: [collection] })
      for (const key of all) {
        expect(client.getQueryState(key)?.isInvalidated, JSON.stringify(key)).toBe(
          keys.includes(key),
        )
      }
    }
  })

  it('names a collection of the live stream for each simulation list', () => {
    const names: readonly string[] = liveTeamItemsSchema.shape.collection.options
    for (const collection of Object.keys(lists)) expect(names).toContain(collection)
  })

  it('reaches an item and its sub-lists, which other collections do not', async () => {
    const client = new QueryClient()
    const course = courseQuery('c1').queryKey
    const results = optimizationResultsQuery('o1').queryKey
    client.setQueryData(course, { id: 'c1' } as never)
    client.setQueryData(results, [])
    await client.invalidateQueries({ queryKey: ['rider-setups'] })
    expect(client.getQueryState(course)?.isInvalidated).toBe(false)
    expect(client.getQueryState(results)?.isInvalidated).toBe(false)
    await client.invalidateQueries({ queryKey: ['optimizations'] })
    expect(client.getQueryState(results)?.isInvalidated).toBe(true)
  })
})

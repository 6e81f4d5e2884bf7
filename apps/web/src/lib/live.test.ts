import { describe, expect, it } from 'vitest'
import { liveTeamItemsSchema } from '@veloptima/contracts'
import { listCollection } from './live.tsx'

// Which collection a list path belongs to, for the live stream's `team-item` events
// (useTeamItemsReload).
describe('listCollection', () => {
  it('names the collection of a list path, with or without a query', () => {
    expect(listCollection('/api/courses')).toBe('courses')
    expect(listCollection('/api/rider-setups')).toBe('rider-setups')
    expect(listCollection('/api/optimizations?type=pacing')).toBe('optimizations')
  })

  it('leaves alone what is not a whole collection (one item, an item’s sub-list)', () => {
    expect(listCollection('/api/courses/0b6c3c1e-4a57-4a8e-9d43-1f6f5d2b8e10')).toBeUndefined()
    expect(listCollection('/api/optimizations/abc/results')).toBeUndefined()
    expect(listCollection('/api/coursesX/1')).toBeUndefined()
  })

  it('every collection of a team-item event is one a list path can name', () => {
    for (const collection of liveTeamItemsSchema.shape.collection.options) {
      expect(listCollection(`/api/${collection}`)).toBe(collection)
    }
  })
})

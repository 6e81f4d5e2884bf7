// The "Open session" link of aero notifications: the route the aero area declares for the
// session's format (features/aero/routes.tsx: sessions/v5/:id and sessions/v6/:id), read from the
// data the API's aero-analysis job writes (aero_session_id, aero_session_format; its notifications
// are stored by jobs/aero-analysis-store.ts).
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { sessionPathOf } from './notifications.tsx'

const routes = readFileSync(resolve(import.meta.dirname, '../aero/routes.tsx'), 'utf8')
const job = readFileSync(
  resolve(import.meta.dirname, '../../../../api/src/jobs/aero-analysis-store.ts'),
  'utf8',
)

describe('sessionPathOf: the aero session a notification links to', () => {
  it('v5 and v6 sessions go to their own route, which the aero area declares', () => {
    expect(sessionPathOf({ data: { aero_session_id: 'abc', aero_session_format: 'v5' } })).toBe(
      '/aero/sessions/v5/abc',
    )
    expect(sessionPathOf({ data: { aero_session_id: 'abc', aero_session_format: 'v6' } })).toBe(
      '/aero/sessions/v6/abc',
    )
    // a plain search of the route table: both formats' session routes exist under /aero
    expect(routes).toContain("path: 'sessions/v5/:id'")
    expect(routes).toContain("path: 'sessions/v6/:id'")
    // and the job writes the two fields this reads (both notifications: ready and failed)
    expect(job.match(/aero_session_id:/g)?.length).toBeGreaterThanOrEqual(2)
    expect(job.match(/aero_session_format:/g)?.length).toBeGreaterThanOrEqual(2)
  })

  it('notifications written before the format was stored open the v6 page; the id is escaped', () => {
    expect(sessionPathOf({ data: { aero_session_id: 'a/b c' } })).toBe(
      '/aero/sessions/v6/a%2Fb%20c',
    )
  })

  it('no link for other notifications (optimizations, downloads) or a missing id', () => {
    expect(sessionPathOf({ data: null })).toBeUndefined()
    expect(sessionPathOf({ data: { optimization_id: 'x' } })).toBeUndefined()
    expect(sessionPathOf({ data: { aero_session_id: '' } })).toBeUndefined()
    expect(sessionPathOf({ data: { aero_session_id: 7 } })).toBeUndefined()
  })
})

// The job threads' waiting line (pool.ts): with every thread busy, waiting tasks start by their
// `order` (a job's turn, docs/limits-jobs.md), equal orders in the order they came.
import { afterAll, describe, expect, it } from 'vitest'
import { WorkerPool } from './pool.ts'

/** A small GPX track for the import task (a real task in a real thread). */
function gpx(points: number): Uint8Array {
  const pts = Array.from({ length: points }, (_, i) => {
    const lat = (45 + i * 0.0009).toFixed(6)
    const lon = (6 + Math.sin(i / 10) * 0.0005).toFixed(6)
    return `<trkpt lat="${lat}" lon="${lon}"><ele>${(700 + i * 4.5).toFixed(1)}</ele></trkpt>`
  }).join('')
  return new TextEncoder().encode(
    `<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="veloptima-test" ` +
      `xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>${pts}</trkseg></trk></gpx>`,
  )
}

describe('WorkerPool: the waiting line', () => {
  const pool = new WorkerPool(1)
  afterAll(() => pool.close())

  it('starts waiting tasks by ascending order, then first come first served', async () => {
    const finished: string[] = []
    const task = (name: string, order: number) =>
      pool
        .run(
          'import-course',
          { bytes: gpx(50), fileName: `${name}.gpx` },
          () => {},
          undefined,
          order,
        )
        .then(() => finished.push(name))
    // The first takes the only thread at once; the others wait, queued in this order.
    await Promise.all([
      task('first', 9),
      task('late', 5),
      task('early-a', 1),
      task('middle', 3),
      task('early-b', 1),
    ])
    expect(finished).toEqual(['first', 'early-a', 'early-b', 'middle', 'late'])
  })
})

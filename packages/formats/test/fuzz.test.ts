// Replayable fuzzing: truncated real files and random bytes either import or raise ImportError,
// never another exception (seeded; a failure names its seed and cut).
import { describe, expect, it } from 'vitest'
import { importCourse, ImportError } from '../src/index.ts'
import { needs } from '../../../scripts/test-data.ts'
import { rng } from './fuzz-mutations.ts'

function outcome(bytes: Uint8Array, label: string): string {
  try {
    importCourse(bytes, label)
    return 'ok'
  } catch (e) {
    if (e instanceof ImportError) return e.code
    throw new Error(`${label}: ${(e as Error).stack}`)
  }
}

describe('fuzzing the readers', () => {
  for (const file of [
    'courses/tt-beton-classic.gpx',
    'rides/edge810-vector-power.fit',
    'aero/helmet-test-2018-10-03-08-36-06.fit',
  ]) {
    const real = needs(file)
    it.skipIf(real.skip)(
      real.title(
        `${file} cut at 12 seeded offsets and with 12 corrupted bytes: ImportError or a course`,
      ),
      () => {
        const bytes = new Uint8Array(real.read(file))
        const r = rng(bytes.length)
        for (let k = 0; k < 12; k++) {
          const cut = Math.floor(r() * bytes.length)
          outcome(bytes.slice(0, cut), `${file} cut at ${cut}`)
          const bad = bytes.slice()
          const at = Math.floor(r() * bad.length)
          bad[at] = Math.floor(r() * 256)
          outcome(bad, `${file} byte ${at} corrupted`)
        }
      },
    )
  }
  it('random bytes (seeds 1–20) are rejected with an ImportError', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const r = rng(seed)
      const bytes = new Uint8Array(1 + Math.floor(r() * 400)).map(() => Math.floor(r() * 256))
      expect(outcome(bytes, `seed ${seed}`)).not.toBe('ok')
    }
  })
})

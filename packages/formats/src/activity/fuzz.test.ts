// Replayable fuzzing of the activity readers: real field tests cut short or with corrupted
// bytes either import (with the invariants the engine relies on) or raise ImportError, never
// another exception. Seeded (mulberry32); a failure names the file, the case and the seed.
import { describe, expect, it } from 'vitest'
import { ImportError, readActivity } from '../index.ts'
import { needs } from '../../../../scripts/test-data.ts'
import { rng } from '../../test/fuzz-mutations.ts'

function outcome(bytes: Uint8Array, label: string): string {
  let a
  try {
    a = readActivity(bytes, label)
  } catch (e) {
    if (e instanceof ImportError) {
      expect(e.message.startsWith(`${label}: `)).toBe(true)
      return e.code
    }
    throw new Error(`${label}: ${(e as Error).stack}`)
  }
  const s = a.samples
  for (let i = 1; i < s.t.length; i++) {
    if (!(s.t[i]! > s.t[i - 1]!)) throw new Error(`${label}: t not increasing at ${i}`)
  }
  expect(s.power.some((p) => p > 0)).toBe(true)
  expect(s.speed.some((v) => v > 0)).toBe(true)
  expect(s.lap.length).toBe(s.t.length)
  return 'ok'
}

describe('fuzzing the activity readers (seeded)', () => {
  for (const file of [
    'aero/helmet-test-2018-10-03-08-36-06.fit',
    'aero/velodrome-2015-a.tcx',
    'aero/airspeed-bom.csv',
    'aero/ibike-windspeed.csv',
  ]) {
    const real = needs(file)
    it.skipIf(real.skip)(
      real.title(`${file}: cut at 10 offsets, 10 corrupted copies — an activity or an ImportError`),
      () => {
        const bytes = new Uint8Array(real.read(file))
        const seed = bytes.length
        const r = rng(seed)
        const seen = new Set<string>()
        for (let k = 0; k < 10; k++) {
          const cut = Math.floor(r() * bytes.length)
          seen.add(outcome(bytes.slice(0, cut), `${file}#cut${cut}(seed ${seed})`))
          const bad = bytes.slice()
          for (let j = 0; j < 8; j++) bad[Math.floor(r() * bad.length)] = Math.floor(r() * 256)
          seen.add(outcome(bad, `${file}#corrupt${k}(seed ${seed})`))
        }
        // FIT and CSV keep what precedes the damage; XML cut short is not well-formed at all.
        if (file.endsWith('.tcx')) expect(seen.has('invalid_xml')).toBe(true)
        else expect(seen.has('ok')).toBe(true)
      },
    )
  }
})

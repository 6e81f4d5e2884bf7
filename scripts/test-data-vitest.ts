// Vitest's face of scripts/test-data.ts: `it` and `describe` that skip, with the reason naming the
// missing real-world files, when one of them is absent. (Playwright journeys and benchmarks use
// scripts/test-data.ts directly: it imports no test runner.)
import { describe, it } from 'vitest'
import { needs } from './test-data.ts'

type Body = () => unknown

/** `it(name, fn, timeout)`, skipped with the reason when one of `files` is absent. */
export function itWith(files: string[], name: string, fn: Body, timeout?: number): void {
  const d = needs(...files)
  it.skipIf(d.skip)(d.title(name), fn as () => Promise<void>, timeout)
}

/** `describe(name, fn)`, skipped with the reason when one of `files` is absent. */
export function describeWith(files: string[], name: string, fn: () => void): void {
  const d = needs(...files)
  describe.skipIf(d.skip)(d.title(name), fn)
}

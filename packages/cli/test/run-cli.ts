// Test helpers: run the real `veloptima` command from the repository root, and write its inputs.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { expect } from 'vitest'

export const repo = resolve(import.meta.dirname, '../../..')

/** Where the written inputs go. */
export const inputDir = mkdtempSync(join(tmpdir(), 'veloptima-cli-'))
let count = 0

export function veloptima(...args: string[]) {
  const r = spawnSync('node', ['packages/cli/bin/veloptima.mjs', ...args], {
    cwd: repo,
    encoding: 'utf8',
  })
  return { code: r.status, stdout: r.stdout, stderr: r.stderr }
}

/** The JSON a run printed, once it is known to have succeeded: nothing on stderr, exit 0. */
export function jsonOf(r: { code: number | null; stdout: string; stderr: string }) {
  expect(r.stderr).toBe('')
  expect(r.code).toBe(0)
  return JSON.parse(r.stdout)
}

/** Writes an input file (JSON unless `content` is a string) and returns its path. */
export function writeInput(content: unknown, ext = 'json'): string {
  const file = join(inputDir, `f${++count}.${ext}`)
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content))
  return file
}

/** Runs a command whose "FILE" argument is replaced by the written `input`. */
export function veloptimaWithInput(args: string[], input?: unknown) {
  const file = input === undefined ? join(inputDir, 'missing.json') : writeInput(input)
  return veloptima(...args.map((a) => (a === 'FILE' ? file : a)))
}

/** A scenario's rider as the files spell it: 75 kg on 8 kg, CdA 0.25 m², CP 300 W, W′ 20 kJ. */
export const scenarioRider = {
  mass_kg: 75,
  bike_mass_kg: 8,
  cda_m2: 0.25,
  crr: 0.004,
  drivetrain_efficiency: 0.976,
  cp_w: 300,
  w_prime_j: 20000,
}

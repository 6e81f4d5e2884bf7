// `veloptima course FILE [--segment-length-m M]`: course summary as JSON.
import { readFileSync } from 'node:fs'
import { importCourse } from '@veloptima/formats'
import { numberFlag, parseArgs, printJson, UsageError } from '../args.ts'

export function readBytes(path: string): Uint8Array {
  try {
    return readFileSync(path)
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    throw new UsageError(
      `${path}: cannot read the file (${code === 'ENOENT' ? 'no such file' : (e as Error).message})`,
    )
  }
}

export async function courseCommand(args: string[]): Promise<number> {
  const p = parseArgs(args, ['segment-length-m'])
  if (p.positionals.length !== 1) {
    throw new UsageError(
      `expected one course file (GPX, TCX, FIT or JSON), got ${p.positionals.length}`,
    )
  }
  const file = p.positionals[0]!
  const segmentLengthM = numberFlag(p, 'segment-length-m', 1, 1000)
  const { stats } = importCourse(readBytes(file), file, segmentLengthM ? { segmentLengthM } : {})
  printJson({
    distance_m: Math.round(stats.distanceM * 10) / 10,
    ascent_m: Math.round(stats.ascentM * 10) / 10,
    descent_m: Math.round(stats.descentM * 10) / 10,
    min_grade: Math.round(stats.minGrade * 1e5) / 1e5,
    max_grade: Math.round(stats.maxGrade * 1e5) / 1e5,
    segment_count: stats.segmentCount,
  })
  return 0
}

// `veloptima simulate SCENARIO.json` (or `-` for stdin): runs the scenario, prints the result as JSON.
import { readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { parseScenario, resultToJson, simulate } from '@veloptima/engine'
import { importCourse, recordedRide } from '@veloptima/formats'
import { parseArgs, printJson, UsageError } from '../args.ts'
import { readBytes } from './course.ts'

export async function simulateCommand(args: string[]): Promise<number> {
  const p = parseArgs(args, [])
  if (p.positionals.length !== 1)
    throw new UsageError(`expected one scenario file, got ${p.positionals.length}`)
  const file = p.positionals[0]!
  // "-" reads the scenario from stdin; a course file is then relative to the working directory.
  const text = file === '-' ? readFileSync(0, 'utf8') : new TextDecoder().decode(readBytes(file))
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (e) {
    throw new UsageError(`${file}: not valid JSON (${(e as Error).message})`)
  }
  const { input } = parseScenario(json, (courseFile) => {
    const path = resolve(file === '-' ? '.' : dirname(file), courseFile)
    const imported = importCourse(readBytes(path), courseFile)
    return { course: imported.course, recorded: recordedRide(imported) }
  })
  printJson(resultToJson(simulate(input), input.course))
  return 0
}

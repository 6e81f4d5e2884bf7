// `veloptima simulate SCENARIO.json`: runs the scenario and prints the result as JSON.
import { dirname, resolve } from 'node:path'
import { parseScenario, resultToJson, simulate } from '@veloptima/engine'
import { importCourse } from '@veloptima/formats'
import { parseArgs, printJson, UsageError } from '../args.ts'
import { readBytes } from './course.ts'

export async function simulateCommand(args: string[]): Promise<number> {
  const p = parseArgs(args, [])
  if (p.positionals.length !== 1)
    throw new UsageError(`expected one scenario file, got ${p.positionals.length}`)
  const file = p.positionals[0]!
  const text = new TextDecoder().decode(readBytes(file))
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (e) {
    throw new UsageError(`${file}: not valid JSON (${(e as Error).message})`)
  }
  const { input } = parseScenario(json, (courseFile) => {
    const path = resolve(dirname(file), courseFile)
    return importCourse(readBytes(path), courseFile).course
  })
  printJson(resultToJson(simulate(input), input.course))
  return 0
}

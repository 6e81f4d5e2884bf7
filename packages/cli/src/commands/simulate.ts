// `veloptima simulate SCENARIO.json` (or `-` for stdin): runs the scenario, prints the result as JSON.
import { dirname, resolve } from 'node:path'
import { parseScenario, resultToJson, simulate } from '@veloptima/engine'
import { importCourse, recordedRide } from '@veloptima/formats'
import { printJson } from '../args.ts'
import { readScenarioFile } from '../scenario-file.ts'
import { readBytes } from './course.ts'

export async function simulateCommand(args: string[]): Promise<number> {
  const { file, json } = readScenarioFile(args)
  const { input } = parseScenario(json, (courseFile) => {
    const path = resolve(file === '-' ? '.' : dirname(file), courseFile)
    const imported = importCourse(readBytes(path), courseFile)
    return { course: imported.course, recorded: recordedRide(imported) }
  })
  printJson(resultToJson(simulate(input), input.course))
  return 0
}

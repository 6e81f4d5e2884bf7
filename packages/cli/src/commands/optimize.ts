// `veloptima optimize SCENARIO.json`: the simulate scenario plus `constraint` (and optional
// `max_targets`, `min_power_w`, `equipment`; `{"type": "target_time", "time_s": …}` asks the
// least-effort plan finishing in that time); prints the optimized ride, its rideable plan, the
// best constant-power baseline and, with equipment, the ranking of the combinations.
import { dirname, resolve } from 'node:path'
import {
  optimizeEquipment,
  optimizeResultToJson,
  pacingOutput,
  parseOptimizeScenario,
  planExtras,
  runPacingScenario,
} from '@veloptima/engine'
import { importCourse } from '@veloptima/formats'
import { parseArgs, printJson, UsageError } from '../args.ts'
import { readBytes } from './course.ts'

export async function optimizeCommand(args: string[]): Promise<number> {
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
  const parsed = parseOptimizeScenario(json, (courseFile) => {
    const path = resolve(dirname(file), courseFile)
    return importCourse(readBytes(path), courseFile).course
  })
  const { input, equipment } = parsed
  if (equipment) {
    const eq = optimizeEquipment({ ...input, equipment })
    printJson(optimizeResultToJson(eq.best, input.course, eq))
    return 0
  }
  const { result, ctx } = runPacingScenario(parsed)
  // under rules, the rows as ridden: split where a rule holds the power (what export writes)
  const ruled = ctx.ruleStretches?.length ? pacingOutput(result, input.course, ctx) : null
  printJson({
    ...optimizeResultToJson(result, input.course, null),
    ...(ruled ? { plan: ruled.plan, targets: ruled.targets } : {}),
    ...(ctx.cpW !== undefined ? { cp_w: ctx.cpW } : {}),
    ...planExtras(result, input.course, ctx),
  })
  return 0
}

// `veloptima wheels INPUT.json`: front/rear wheel recommendation as JSON.
import { recommendWheels } from '@veloptima/engine'
import { runToolCommand } from './tyre-pressure.ts'

export function wheelsCommand(args: string[]): Promise<number> {
  return runToolCommand('wheels', args, recommendWheels)
}

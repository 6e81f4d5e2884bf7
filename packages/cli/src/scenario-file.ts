// The one scenario file a command takes (`-` for stdin), read as JSON.
import { readFileSync } from 'node:fs'
import { parseArgs, UsageError } from './args.ts'
import { readBytes } from './commands/course.ts'

/** The path named by the arguments and its JSON; `expected` names the file in the usage error. */
export function readScenarioFile(
  args: string[],
  expected = 'one scenario file',
): { file: string; json: unknown } {
  const p = parseArgs(args, [])
  if (p.positionals.length !== 1)
    throw new UsageError(`expected ${expected}, got ${p.positionals.length}`)
  const file = p.positionals[0]!
  // "-" reads the scenario from stdin; a file it names is then relative to the working directory.
  const text = file === '-' ? readFileSync(0, 'utf8') : new TextDecoder().decode(readBytes(file))
  try {
    return { file, json: JSON.parse(text) as unknown }
  } catch (e) {
    throw new UsageError(`${file}: not valid JSON (${(e as Error).message})`)
  }
}

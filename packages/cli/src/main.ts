import { CourseError, EngineInputError } from '@veloptima/engine'
import { ImportError } from '@veloptima/formats'
import { UsageError } from './args.ts'
import { commands } from './commands/index.ts'

function usage(): string {
  return [
    'usage: veloptima <command> [options]',
    '',
    ...Object.values(commands).map((c) => `  veloptima ${c.usage}`),
  ].join('\n')
}

/** Entry of the `veloptima` command line; returns the process exit code (2 = bad input). */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv
  if (!command || command === '--help' || command === 'help') {
    process.stdout.write(`${usage()}\n`)
    return 0
  }
  const entry = commands[command]
  if (!entry) {
    process.stderr.write(`veloptima: unknown command "${command}" (try veloptima --help)\n`)
    return 2
  }
  try {
    return await entry.run(rest)
  } catch (e) {
    const bad =
      e instanceof UsageError ||
      e instanceof EngineInputError ||
      e instanceof ImportError ||
      e instanceof CourseError
    const message = (e as Error).message.replace(/\s*\n\s*/g, ' ')
    process.stderr.write(`veloptima ${command}: ${message}\n`)
    return bad ? 2 : 1
  }
}

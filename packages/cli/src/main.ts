/** Entry of the `veloptima` command line; returns the process exit code. */
export async function main(argv: string[]): Promise<number> {
  const [command] = argv
  if (!command || command === '--help' || command === 'help') {
    process.stdout.write('usage: veloptima <command> [options]\n')
    return 0
  }
  process.stderr.write(`veloptima: unknown command "${command}" (try veloptima --help)\n`)
  return 2
}

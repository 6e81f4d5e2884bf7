// How an entry point (server.ts, worker.ts) runs as the process: the configuration read once,
// its errors told plainly, and what the role started closed on SIGINT or SIGTERM.
import { ConfigError, loadConfig, type Config } from './config.ts'

type Role<Started extends { close(): Promise<void> }> = {
  start: (config: Config) => Promise<Started>
  /** What the process prints once the role has started. */
  banner: (config: Config, started: Started) => string
  /** What it prints on a signal, before closing. */
  stopping: (signal: string) => string
}

/**
 * Runs a role when `moduleUrl` (the entry point's `import.meta.url`) is the script node started.
 * A configuration error, from the environment or from `start`, prints its message and exits 2;
 * any other error prints it and exits 1; SIGINT and SIGTERM close the role and exit 0.
 */
export function runEntry<Started extends { close(): Promise<void> }>(
  moduleUrl: string,
  role: Role<Started>,
) {
  if (moduleUrl !== `file://${process.argv[1]}`) return
  run(role).catch((error: unknown) => {
    if (error instanceof ConfigError) {
      console.error(error.message)
      process.exit(2)
    }
    console.error(error)
    process.exit(1)
  })
}

async function run<Started extends { close(): Promise<void> }>(role: Role<Started>) {
  const config = loadConfig()
  const started = await role.start(config)
  console.log(role.banner(config, started))
  const stop = async (signal: string) => {
    console.log(role.stopping(signal))
    await started.close()
    process.exit(0)
  }
  process.once('SIGINT', () => void stop('SIGINT'))
  process.once('SIGTERM', () => void stop('SIGTERM'))
}

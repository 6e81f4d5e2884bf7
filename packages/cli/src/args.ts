// Small argument parsing for the command line: `--name value`, `--name=value`, positionals.
// Bad input raises UsageError; main() prints it as one line and exits with 2.

export class UsageError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UsageError'
  }
}

export interface ParsedArgs {
  flags: Map<string, string>
  positionals: string[]
}

export function parseArgs(args: string[], known: readonly string[]): ParsedArgs {
  const flags = new Map<string, string>()
  const positionals: string[] = []
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!
    if (!a.startsWith('--') || a === '--') {
      positionals.push(a)
      continue
    }
    const eq = a.indexOf('=')
    const name = eq > 0 ? a.slice(2, eq) : a.slice(2)
    if (!known.includes(name)) {
      throw new UsageError(
        `unknown option --${name} (expected ${known.map((k) => `--${k}`).join(', ')})`,
      )
    }
    const value = eq > 0 ? a.slice(eq + 1) : args[++i]
    if (value === undefined) throw new UsageError(`--${name}: expected a value, got nothing`)
    flags.set(name, value)
  }
  return { flags, positionals }
}

/** A numeric flag: finite and within [min, max]. */
export function numberFlag(
  p: ParsedArgs,
  name: string,
  min: number,
  max: number,
): number | undefined {
  const raw = p.flags.get(name)
  if (raw === undefined) return undefined
  const v = Number(raw)
  if (raw.trim() === '' || !Number.isFinite(v) || v < min || v > max) {
    throw new UsageError(`--${name}: expected a number from ${min} to ${max}, got "${raw}"`)
  }
  return v
}

export function requireFlag<T>(v: T | undefined, name: string, what: string): T {
  if (v === undefined) throw new UsageError(`--${name}: expected ${what}, got nothing`)
  return v
}

/** Serializes a result for stdout. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`)
}

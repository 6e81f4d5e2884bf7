// `veloptima tyre-pressure INPUT.json`: front/rear pressure recommendation as JSON. Also the
// plumbing shared with `veloptima wheels`: JSON in from a file (or "-" for stdin), snake_case at
// the command line like every Veloptima JSON, camelCase inside the engine.
import { readFile } from 'node:fs/promises'
import { recommendTyrePressure, ToolInputError } from '@veloptima/engine'

export const camelKey = (k: string): string =>
  k.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase())
export const snakeKey = (k: string): string => k.replace(/([A-Z])/g, (c) => `_${c.toLowerCase()}`)

/** Deep key conversion (values untouched). */
export function convertKeys(value: unknown, key: (k: string) => string): unknown {
  if (Array.isArray(value)) return value.map((v) => convertKeys(v, key))
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [
        key(k),
        convertKeys(v, key),
      ]),
    )
  }
  return value
}

/** Engine field names in messages, shown as the snake_case the user wrote. */
const snakeMessage = (m: string) => m.replace(/\b[a-z]+(?:[A-Z][a-z0-9]*)+\b/g, snakeKey)

async function readInput(path: string): Promise<string> {
  if (path === '-') {
    const chunks: Buffer[] = []
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
    return Buffer.concat(chunks).toString('utf8')
  }
  return readFile(path, 'utf8')
}

/**
 * Runs `compute` on the JSON file named by the first argument and prints the result as JSON.
 * Exit codes (as every command): 0 ok, 2 bad input or usage (the message names the file, the
 * field, what was expected and what was given).
 */
export async function runToolCommand(
  name: string,
  args: string[],
  compute: (input: unknown) => unknown,
): Promise<number> {
  const [path] = args
  if (!path || path === '--help' || args.length > 1) {
    process.stderr.write(
      `usage: veloptima ${name} INPUT.json   (JSON with snake_case fields; "-" reads stdin; see docs/engine/tools.md)\n`,
    )
    return path === '--help' ? 0 : 2
  }
  let text: string
  try {
    text = await readInput(path)
  } catch (e) {
    process.stderr.write(`veloptima ${name}: ${path}: cannot read (${(e as Error).message})\n`)
    return 2
  }
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (e) {
    process.stderr.write(`veloptima ${name}: ${path}: not valid JSON (${(e as Error).message})\n`)
    return 2
  }
  try {
    const result = compute(convertKeys(raw, camelKey))
    process.stdout.write(`${JSON.stringify(convertKeys(result, snakeKey), null, 2)}\n`)
    return 0
  } catch (e) {
    if (e instanceof ToolInputError) {
      process.stderr.write(`veloptima ${name}: ${path}: ${snakeMessage(e.message)}\n`)
      return 2
    }
    throw e
  }
}

export function tyrePressureCommand(args: string[]): Promise<number> {
  return runToolCommand('tyre-pressure', args, recommendTyrePressure)
}

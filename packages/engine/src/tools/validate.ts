/**
 * Input validation for the standalone tools. Every failure names the field, what was expected
 * and what was given ("expected X, got Y"), so the CLI and the web page can show it as is.
 */
export class ToolInputError extends Error {
  constructor(
    public readonly field: string,
    message: string,
  ) {
    super(message)
    this.name = 'ToolInputError'
  }
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value)
  if (value === undefined) return 'nothing'
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) {
    return String(value)
  }
  return Array.isArray(value) ? 'an array' : typeof value
}

export function requireNumber(field: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    throw new ToolInputError(
      field,
      `${field}: expected a number from ${min} to ${max}, got ${describe(value)}`,
    )
  }
  return value
}

export function optionalNumber(
  field: string,
  value: unknown,
  min: number,
  max: number,
): number | undefined {
  return value === undefined || value === null ? undefined : requireNumber(field, value, min, max)
}

export function requireChoice<T extends string>(
  field: string,
  value: unknown,
  choices: readonly T[],
): T {
  if (typeof value !== 'string' || !(choices as readonly string[]).includes(value)) {
    throw new ToolInputError(
      field,
      `${field}: expected one of ${choices.map((c) => `"${c}"`).join(', ')}, got ${describe(value)}`,
    )
  }
  return value as T
}

export function optionalChoice<T extends string>(
  field: string,
  value: unknown,
  choices: readonly T[],
  fallback: T,
): T {
  return value === undefined || value === null ? fallback : requireChoice(field, value, choices)
}

export function requireObject(field: string, value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ToolInputError(field, `${field}: expected an object, got ${describe(value)}`)
  }
  return value as Record<string, unknown>
}

export function optionalBoolean(field: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined || value === null) return fallback
  if (typeof value !== 'boolean') {
    throw new ToolInputError(field, `${field}: expected true or false, got ${describe(value)}`)
  }
  return value
}

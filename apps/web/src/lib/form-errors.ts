// Reading react-hook-form's errors: the first message, in the order the resolver found them.

/** The first message of a form's errors (nested by field path), or undefined when none. */
export function firstMessage(errors: unknown): string | undefined {
  if (!errors || typeof errors !== 'object') return undefined
  const own = (errors as { message?: unknown }).message
  if (typeof own === 'string') return own
  for (const value of Object.values(errors)) {
    const found = firstMessage(value)
    if (found) return found
  }
  return undefined
}

/** Each role's built file (npm run build) and TypeScript source, relative to the root. */
export const roles: Record<'serve' | 'worker', { built: string; source: string }>
/** The command line that starts a process role (see roles.mjs). */
export function roleCommand(role: 'serve' | 'worker'): { args: string[]; built: boolean }

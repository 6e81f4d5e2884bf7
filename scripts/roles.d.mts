/** The command line that starts a process role (see roles.mjs). */
export function roleCommand(role: 'serve' | 'worker'): { args: string[]; built: boolean }

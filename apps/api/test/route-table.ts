// The app's API routes as Fastify registered them, for the tests that walk every route
// (auth-routes: each needs a session; platform-authz: each team route refuses outsiders).
import type { FastifyInstance } from 'fastify'

/** Every (method, path) of the app, read from Fastify's route tree. */
export function apiRoutes(app: FastifyInstance): { method: string; path: string }[] {
  const found: { method: string; path: string }[] = []
  const stack: string[] = []
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^([\s│├└─]*)(\S.*?)(?: \(([A-Z, ]+)\))?$/.exec(line)
    if (!m) continue
    const depth = Math.floor((m[1] ?? '').length / 4)
    stack.length = depth
    stack[depth] = m[2] ?? ''
    const path = stack.join('').replace(/\/+/g, '/')
    for (const method of (m[3] ?? '').split(',').map((s) => s.trim())) {
      if (method && method !== 'HEAD') found.push({ method, path })
    }
  }
  return found.filter((r) => r.path.startsWith('/api/'))
}

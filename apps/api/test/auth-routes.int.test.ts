import { describe, expect, it } from 'vitest'
import { suiteApp } from './helpers.ts'
import { apiRoutes } from './route-table.ts'

// No endpoint accepts a request without a valid session token, except health, readiness, the
// custom-token exchange and the public configuration. This walks every
// registered API route, so a route added later without `app.authenticate` fails here.

const PUBLIC = new Set([
  'GET /api/health',
  'GET /api/ready',
  'POST /api/auth/custom-token',
  'GET /api/public-config',
  // Loopback callers or the METRICS_TOKEN bearer, no session (metrics.int.test.ts).
  'GET /api/metrics',
  // Whether payment is on and which plans can be bought (the public pricing page).
  'GET /api/billing/config',
  // Stripe's signature (STRIPE_WEBHOOK_SECRET) instead of a session: 400 without it (billing.int.test.ts).
  'POST /api/billing/webhook',
])
/**
 * Capabilities instead of a session (answer 401/403 without them): signed download URLs (an
 * HMAC in the query) and the admin CLI's loopback endpoint (the secret in DATA_DIR/admin.json).
 */
const SIGNED = new Set(['GET /api/files/download', 'POST /api/admin/command'])

describe('every API route requires a session token', () => {
  const t = suiteApp()

  it('finds the routes of the app, including the public ones', () => {
    const names = apiRoutes(t.app).map((r) => `${r.method} ${r.path}`)
    for (const name of PUBLIC) expect(names).toContain(name)
    expect(names.length).toBeGreaterThan(PUBLIC.size)
  })

  it('answers 401 without a token and with a forged one', async () => {
    const open: string[] = []
    for (const { method, path } of apiRoutes(t.app)) {
      const name = `${method} ${path}`
      if (PUBLIC.has(name)) continue
      const url = path.replace(/:[A-Za-z_]+/g, '00000000-0000-4000-8000-000000000000')
      for (const headers of [{}, { authorization: 'Bearer not.a.token' }]) {
        const response = await t.app.inject({
          method: method as 'GET',
          url,
          headers,
          ...(method === 'GET' || method === 'DELETE' ? {} : { payload: {} }),
        })
        const allowed = SIGNED.has(name) ? [401, 403] : [401]
        if (!allowed.includes(response.statusCode)) {
          open.push(`${name} answered ${response.statusCode} ${response.body.slice(0, 120)}`)
        }
      }
    }
    expect(open).toEqual([])
  })
})

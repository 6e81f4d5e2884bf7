// A local stand-in for the parts of Stripe's API the app calls through the official SDK
// (Stripe cannot be reached from here): Checkout sessions (create, retrieve), customer portal
// sessions, and the two hosted pages a browser visits (Checkout, portal). It checks what the
// SDK sends the way Stripe does — the secret key, the required fields, known prices and
// customers — and answers in the shapes of Stripe's API reference, with Stripe's error shape.
// Used by the billing integration test and, as a process (stripe-stand-in-main.ts), by the
// billing e2e journey. `/__stand-in/…` is for the tests only: what was asked, and a way to
// complete a Checkout session without a browser.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export type RecordedRequest = {
  method: string
  path: string
  auth: string
  form: URLSearchParams
}

export type StandInSession = {
  id: string
  object: 'checkout.session'
  mode: 'subscription'
  url: string
  status: 'open' | 'complete'
  client_reference_id: string | null
  customer: string | null
  customer_email: string | null
  subscription: string | null
  metadata: Record<string, string>
  success_url: string
  cancel_url: string | null
  price: string
  quantity: number
}

export type StripeStandIn = {
  /** http://127.0.0.1:PORT: the SDK's host (STRIPE_API_URL) and the hosted pages' origin. */
  url: string
  requests: RecordedRequest[]
  sessions: Map<string, StandInSession>
  /** What paying on the hosted page does: the session gets a customer and a subscription. */
  complete(id: string, ids?: { customer?: string; subscription?: string }): StandInSession
  close(): Promise<void>
}

type Answer = { status: number; json?: unknown; html?: string; location?: string }

const stripeError = (status: number, message: string, param?: string): Answer => ({
  status,
  json: { error: { type: 'invalid_request_error', message, ...(param && { param }) } },
})

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/**
 * Starts the stand-in. `secretKey`: the only key accepted (as Stripe, 401 otherwise);
 * `prices`: the price ids that exist (an unknown one is refused like Stripe's "No such price").
 */
export async function startStripeStandIn(options: {
  secretKey: string
  prices: string[]
  port?: number
}): Promise<StripeStandIn> {
  const requests: RecordedRequest[] = []
  const sessions = new Map<string, StandInSession>()
  const customers = new Set<string>()
  const portals = new Map<string, { customer: string; return_url: string }>()
  let next = 0
  let base = ''

  function complete(id: string, ids: { customer?: string; subscription?: string } = {}) {
    const s = sessions.get(id)
    if (!s) throw new Error(`No such checkout session: ${id}`)
    if (s.status === 'complete') return s
    const n = id.replace(/^cs_test_/, '')
    s.status = 'complete'
    s.customer = s.customer ?? ids.customer ?? `cus_test_${n}`
    s.subscription = ids.subscription ?? `sub_test_${n}`
    customers.add(s.customer)
    return s
  }

  function createCheckout(form: URLSearchParams): Answer {
    if (form.get('mode') !== 'subscription') {
      return stripeError(400, 'This stand-in only sells subscriptions (mode=subscription).', 'mode')
    }
    const price = form.get('line_items[0][price]') ?? ''
    if (!options.prices.includes(price)) {
      return stripeError(400, `No such price: '${price}'`, 'line_items[0][price]')
    }
    const quantity = Number(form.get('line_items[0][quantity]') ?? '1')
    if (!Number.isInteger(quantity) || quantity < 1) {
      return stripeError(400, 'Invalid integer: quantity', 'line_items[0][quantity]')
    }
    const success = form.get('success_url') ?? ''
    if (!/^https?:\/\//.test(success)) {
      return stripeError(400, 'Not a valid URL', 'success_url')
    }
    const customer = form.get('customer')
    if (customer && !customers.has(customer)) {
      return stripeError(400, `No such customer: '${customer}'`, 'customer')
    }
    if (customer && form.get('customer_email')) {
      return stripeError(
        400,
        'You may only specify one of these parameters: customer, customer_email.',
      )
    }
    const metadata: Record<string, string> = {}
    for (const [k, v] of form) {
      const m = /^metadata\[(.+)\]$/.exec(k)
      if (m) metadata[m[1]!] = v
    }
    const id = `cs_test_${++next}`
    const session: StandInSession = {
      id,
      object: 'checkout.session',
      mode: 'subscription',
      url: `${base}/c/pay/${id}`,
      status: 'open',
      client_reference_id: form.get('client_reference_id'),
      customer,
      customer_email: form.get('customer_email'),
      subscription: null,
      metadata,
      success_url: success,
      cancel_url: form.get('cancel_url'),
      price,
      quantity,
    }
    sessions.set(id, session)
    return { status: 200, json: session }
  }

  function route(method: string, path: string, auth: string, form: URLSearchParams): Answer {
    if (path.startsWith('/v1/')) {
      requests.push({ method, path, auth, form })
      if (auth !== `Bearer ${options.secretKey}`) {
        return {
          status: 401,
          json: { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } },
        }
      }
      if (path === '/v1/checkout/sessions' && method === 'POST') return createCheckout(form)
      const m = /^\/v1\/checkout\/sessions\/([\w]+)$/.exec(path)
      if (m && method === 'GET') {
        const s = sessions.get(m[1]!)
        return s
          ? { status: 200, json: s }
          : stripeError(404, `No such checkout.session: '${m[1]}'`, 'id')
      }
      if (path === '/v1/billing_portal/sessions' && method === 'POST') {
        const customer = form.get('customer') ?? ''
        if (!customers.has(customer)) {
          return stripeError(400, `No such customer: '${customer}'`, 'customer')
        }
        const id = `bps_test_${++next}`
        portals.set(id, { customer, return_url: form.get('return_url') ?? '' })
        return {
          status: 200,
          json: { id, object: 'billing_portal.session', customer, url: `${base}/p/session/${id}` },
        }
      }
      return stripeError(404, `Unrecognized request URL (${method}: ${path}).`)
    }
    // The hosted Checkout page: paying completes the session and returns to success_url.
    const pay = /^\/c\/pay\/(\w+)$/.exec(path)
    if (pay) {
      const s = sessions.get(pay[1]!)
      if (!s) return { status: 404, html: '<h1>This Checkout session does not exist</h1>' }
      if (method === 'POST') {
        complete(s.id)
        return { status: 303, location: s.success_url.replace('{CHECKOUT_SESSION_ID}', s.id) }
      }
      return {
        status: 200,
        html: `<title>Checkout (local Stripe stand-in)</title><main><h1>Pay Veloptima</h1>
<p>Local Stripe stand-in: no card is charged.</p>
<p data-testid="line">${escapeHtml(s.price)} × ${s.quantity} for ${escapeHtml(s.customer_email ?? s.customer ?? '')}</p>
<form method="post"><button type="submit">Subscribe</button></form>
${s.cancel_url ? `<a href="${escapeHtml(s.cancel_url)}">Back</a>` : ''}</main>`,
      }
    }
    const portal = /^\/p\/session\/(\w+)$/.exec(path)
    if (portal) {
      const p = portals.get(portal[1]!)
      if (!p) return { status: 404, html: '<h1>This portal session does not exist</h1>' }
      return {
        status: 200,
        html: `<title>Customer portal (local Stripe stand-in)</title><main><h1>Manage your subscription</h1>
<p data-testid="customer">${escapeHtml(p.customer)}</p>
<a href="${escapeHtml(p.return_url)}">Return to Veloptima</a></main>`,
      }
    }
    if (path === '/__stand-in/sessions' && method === 'GET') {
      return { status: 200, json: [...sessions.values()] }
    }
    const done = /^\/__stand-in\/sessions\/(\w+)\/complete$/.exec(path)
    if (done && method === 'POST') {
      if (!sessions.has(done[1]!)) return stripeError(404, `No such checkout.session: '${done[1]}'`)
      return { status: 200, json: complete(done[1]!) }
    }
    if (path === '/__stand-in/requests' && method === 'GET') {
      return {
        status: 200,
        json: requests.map((r) => ({ ...r, form: Object.fromEntries(r.form) })),
      }
    }
    return { status: 404, json: { error: { message: `Not found: ${path}` } } }
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    let body = ''
    for await (const chunk of req) body += String(chunk)
    const url = new URL(req.url ?? '/', 'http://stand-in')
    const form = new URLSearchParams(req.method === 'GET' ? url.search : body)
    const answer = route(
      req.method ?? 'GET',
      url.pathname,
      String(req.headers.authorization ?? ''),
      form,
    )
    if (answer.location) {
      res.writeHead(answer.status, { location: answer.location })
      res.end()
    } else if (answer.html !== undefined) {
      res.writeHead(answer.status, { 'content-type': 'text/html; charset=utf-8' })
      res.end(`<!doctype html>${answer.html}`)
    } else {
      res.writeHead(answer.status, {
        'content-type': 'application/json',
        'request-id': 'req_local',
      })
      res.end(JSON.stringify(answer.json))
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.writeHead(500, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ error: { type: 'api_error', message: String(error) } }))
    })
  })
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url: base,
    requests,
    sessions,
    complete,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

import type { IncomingMessage } from 'node:http'
import type { Context, Next } from 'koa'
import type Provider from 'oidc-provider'
import type { Accounts } from './accounts.ts'
import { isEmail, normalizeEmail } from './accounts.ts'
import type { Mailer } from './mail.ts'
import { forgotPage, loginPage, messagePage, resetPage, signupPage } from './pages.ts'
import { passwordProblem } from './passwords.ts'
import type { Db } from '@veloptima/db'
import {
  AttemptLimits,
  clientAddress,
  KNOWN_ADDRESS_MS,
  SIGN_IN_LIMITS,
  type LimitedKey,
  type Taken,
} from './rate-limit.ts'

export type InteractionDeps = {
  provider: Provider
  accounts: Accounts
  mailer: Mailer
  issuer: string
  appUrl: string
  log: (line: string) => void
  /** Where the attempt limits keep their counts (shared by every process). */
  db: Db
  /** The limits' clock (tests move it); Date.now by default. */
  now?: () => number
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  let body = ''
  for await (const chunk of req) {
    body += String(chunk)
    if (body.length > 16_384) throw new Error('form too large')
  }
  return new URLSearchParams(body)
}

function html(ctx: Context, status: number, body: string) {
  ctx.status = status
  ctx.type = 'text/html; charset=utf-8'
  ctx.set('cache-control', 'no-store')
  // The CSP (no framing, inline style by hash) and the other headers are idp/security.ts's;
  // these pages send no Referer at all (a reset link carries its token in the URL).
  ctx.set('referrer-policy', 'no-referrer')
  ctx.body = body
}

/** "45 seconds", "1 minute", "16 minutes": how long a refused client waits. */
export function waitText(seconds: number) {
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`
  return seconds < 60
    ? plural(Math.max(1, seconds), 'second')
    : plural(Math.ceil(seconds / 60), 'minute')
}

/** The keys one sign-in attempt counts on (docs/limits-signin.md). */
function signInKeys(email: string, address: string) {
  return {
    pair: { key: `pair:${email}|${address}`, rule: SIGN_IN_LIMITS.pair },
    email: {
      key: `email:${email}`,
      rule: SIGN_IN_LIMITS.email,
      // An address that signed in to the account lately is not refused for other addresses' tries.
      unless: `known:${email}|${address}`,
    },
    address: { key: `address:${address}`, rule: SIGN_IN_LIMITS.address },
  } satisfies Record<string, LimitedKey>
}

/** What the sign-in pages work with. */
type Pages = InteractionDeps & { limits: AttemptLimits }

/** The link of the message pages back to the app. */
const backToApp = (deps: Pages) => ({ href: deps.appUrl, label: 'Back to Veloptima' })

/** A refusal: 429 with Retry-After, and the page saying when to try again. */
function tooMany(
  ctx: Context,
  refused: Extract<Taken, { ok: false }>,
  page: (error: string) => string,
) {
  ctx.set('retry-after', String(refused.retryAfter))
  html(ctx, 429, page(waitText(refused.retryAfter)))
}

const expiredPage = (deps: Pages) =>
  messagePage(
    'This sign-in has expired',
    'The sign-in took too long or was already completed. Start again from Veloptima.',
    backToApp(deps),
  )

/** Ends the interaction with `result` and sends the browser on (303). */
async function finishInteraction(
  deps: Pages,
  ctx: Context,
  result: Parameters<Provider['interactionResult']>[2],
  mergeWithLastSubmission: boolean,
) {
  const to = await deps.provider.interactionResult(ctx.req, ctx.res, result, {
    mergeWithLastSubmission,
  })
  ctx.status = 303
  ctx.redirect(to)
}

const finishLogin = (deps: Pages, ctx: Context, accountId: string) =>
  finishInteraction(deps, ctx, { login: { accountId } }, false)

async function login(deps: Pages, ctx: Context, uid: string) {
  const { limits } = deps
  const form = await readForm(ctx.req)
  const email = normalizeEmail(form.get('email') ?? '')
  const password = form.get('password') ?? ''
  if (!email || !password) {
    return html(ctx, 400, loginPage(uid, { email, error: 'Enter your e-mail and password.' }))
  }
  if (!isEmail(email)) {
    const error = `"${email.slice(0, 254)}" is not an e-mail address.`
    return html(ctx, 400, loginPage(uid, { email: '', error, code: 'invalid-request' }))
  }
  const address = clientAddress(ctx.ip)
  const keys = signInKeys(email, address)
  // Counted before the password is hashed: a burst gets no more hashes than the limits allow.
  const taken = await limits.take([keys.pair, keys.email, keys.address])
  if (!taken.ok) {
    const why =
      taken.blockedBy === keys.address
        ? 'Too many failed sign-ins from your network.'
        : taken.blockedBy === keys.email
          ? 'Too many failed sign-ins to this account.'
          : 'Too many failed attempts.'
    const also = taken.blockedBy === keys.email ? ', or reset your password' : ''
    return tooMany(ctx, taken, (wait) =>
      loginPage(uid, {
        email,
        error: `${why} Try again in ${wait}${also}.`,
        code: 'too-many-requests',
      }),
    )
  }
  const account = await deps.accounts.authenticate(email, password)
  if (!account) {
    // One answer for an unknown e-mail and a wrong password: the page does not reveal accounts.
    const error = 'Wrong e-mail or password.'
    return html(ctx, 401, loginPage(uid, { email, error, code: 'invalid-credential' }))
  }
  // Only failures count: forget this pair's, give back the attempt on the wider counts.
  await limits.clear([keys.pair.key])
  await limits.refund(taken.counted.filter((k) => k !== keys.pair.key))
  await limits.mark(keys.email.unless, KNOWN_ADDRESS_MS)
  await finishLogin(deps, ctx, account.sub)
}

async function signup(deps: Pages, ctx: Context, uid: string) {
  const form = await readForm(ctx.req)
  const name = (form.get('name') ?? '').trim()
  const email = normalizeEmail(form.get('email') ?? '')
  const password = form.get('password') ?? ''
  const page = (error: string, status = 400, code = 'invalid-request') =>
    html(ctx, status, signupPage(uid, { name, email, error, code }))
  if (!name) return page('Enter your name.')
  if (name.length > 100) return page('Use at most 100 characters for the name.')
  if (!isEmail(email)) return page(`"${email}" is not an e-mail address.`)
  const problem = passwordProblem(password)
  if (problem) return page(problem)
  // Counted before the account is made (and its password hashed): a burst makes no more.
  const taken = await deps.limits.take([
    { key: `signup:${clientAddress(ctx.ip)}`, rule: SIGN_IN_LIMITS.signup },
  ])
  if (!taken.ok) {
    return tooMany(ctx, taken, (wait) =>
      signupPage(uid, {
        name,
        email,
        error: `Too many new accounts from this address. Try again in ${wait}.`,
        code: 'too-many-requests',
      }),
    )
  }
  const account = await deps.accounts.create({ name, email, password })
  if (!account) {
    return page(
      'An account with this e-mail already exists. Sign in instead.',
      409,
      'email-already-in-use',
    )
  }
  deps.log(`New account ${email} (${account.sub})`)
  await finishLogin(deps, ctx, account.sub)
}

async function forgot(deps: Pages, ctx: Context, uid: string) {
  const form = await readForm(ctx.req)
  const email = normalizeEmail(form.get('email') ?? '')
  if (!isEmail(email)) {
    return html(ctx, 400, forgotPage(uid, { email, error: `"${email}" is not an e-mail address.` }))
  }
  // Counted before the mail goes out: a burst sends no more than the limit.
  const taken = await deps.limits.take([{ key: `reset:${email}`, rule: SIGN_IN_LIMITS.reset }])
  if (taken.ok) {
    const account = await deps.accounts.findByEmail(email)
    if (account) {
      const token = await deps.accounts.createResetToken(account.sub)
      const link = `${deps.issuer}reset?token=${encodeURIComponent(token)}`
      await deps.mailer(
        email,
        'Reset your Veloptima password',
        `Open this link within one hour to choose a new password:\n${link}\n\nIf you did not ask for it, ignore this message.`,
      )
    }
  }
  // The same answer whether or not the account exists: the page does not reveal accounts.
  html(
    ctx,
    200,
    loginPage(uid, {
      email,
      notice: 'If an account exists for this e-mail, a link to reset the password is on its way.',
    }),
  )
}

async function reset(deps: Pages, ctx: Context) {
  const { accounts, limits } = deps
  if (ctx.method === 'GET') {
    const token = String(ctx.query.token ?? '')
    if (!(await accounts.findByResetToken(token))) {
      return html(
        ctx,
        400,
        messagePage(
          'This link is no longer valid',
          'Reset links work once, for one hour. Ask for a new one from the sign-in page.',
          backToApp(deps),
        ),
      )
    }
    return html(ctx, 200, resetPage(token))
  }
  const form = await readForm(ctx.req)
  const token = form.get('token') ?? ''
  const password = form.get('password') ?? ''
  const problem = passwordProblem(password)
  if (problem) return html(ctx, 400, resetPage(token, { error: problem }))
  const account = await accounts.resetPassword(token, password)
  if (!account) {
    return html(
      ctx,
      400,
      messagePage(
        'This link is no longer valid',
        'Ask for a new one from the sign-in page.',
        backToApp(deps),
      ),
    )
  }
  // The mailbox's owner: this address may sign in again at once, and is a known one.
  const keys = signInKeys(account.email, clientAddress(ctx.ip))
  await limits.clear([keys.pair.key])
  await limits.mark(keys.email.unless, KNOWN_ADDRESS_MS)
  html(
    ctx,
    200,
    messagePage('Password changed', 'You can now sign in with your new password.', backToApp(deps)),
  )
}

/** Auth0's logout: returnTo → post_logout_redirect_uri; its telemetry flags are dropped. */
function auth0Logout(ctx: Context) {
  const query = new URLSearchParams(ctx.querystring)
  const returnTo = query.get('returnTo')
  query.delete('returnTo')
  query.delete('auth0Client')
  query.delete('federated')
  if (returnTo) query.set('post_logout_redirect_uri', returnTo)
  ctx.querystring = query.toString()
}

type Details = Awaited<ReturnType<Provider['interactionDetails']>>

/** GET of an interaction: implied consent, or the page the action names. */
async function showInteraction(
  deps: Pages,
  ctx: Context,
  details: Details,
  action: string | undefined,
  next: Next,
) {
  const { provider } = deps
  const uid = details.uid
  if (details.prompt.name === 'consent') {
    // A first-party app: consent is implied (loadExistingGrant normally covers it).
    const grant = new provider.Grant({
      clientId: String(details.params.client_id),
      accountId: details.session?.accountId ?? '',
    })
    grant.addOIDCScope(String(details.params.scope ?? 'openid'))
    const grantId = await grant.save()
    return finishInteraction(deps, ctx, { consent: { grantId } }, true)
  }
  if (action === 'signup') return html(ctx, 200, signupPage(uid))
  if (action === 'forgot') return html(ctx, 200, forgotPage(uid))
  if (!action) {
    const hint = typeof details.params.login_hint === 'string' ? details.params.login_hint : ''
    return html(ctx, 200, loginPage(uid, { email: hint }))
  }
  return next()
}

const POSTED = { login, signup, forgot } as const

/**
 * Koa middleware in front of oidc-provider: the login, sign-up and password pages, and the
 * translation of Auth0's `/v2/logout?returnTo=…` into RP-initiated logout.
 */
export function interactionRoutes(interactionDeps: InteractionDeps) {
  const deps: Pages = {
    ...interactionDeps,
    limits: new AttemptLimits(interactionDeps.db, interactionDeps.now),
  }
  return async function interactions(ctx: Context, next: Next) {
    const path = ctx.path
    if (path === '/v2/logout' && ctx.method === 'GET') {
      auth0Logout(ctx)
      return next()
    }
    if (path === '/reset' && (ctx.method === 'GET' || ctx.method === 'POST'))
      return reset(deps, ctx)

    const match = /^\/interaction\/([^/]+)(?:\/(login|signup|forgot))?$/.exec(path)
    if (!match) return next()
    const uid = decodeURIComponent(match[1] ?? '')
    const action = match[2] as keyof typeof POSTED | undefined
    let details
    try {
      details = await deps.provider.interactionDetails(ctx.req, ctx.res)
    } catch {
      return html(ctx, 400, expiredPage(deps))
    }
    if (details.uid !== uid) return html(ctx, 400, expiredPage(deps))

    if (ctx.method === 'GET') return showInteraction(deps, ctx, details, action, next)
    if (ctx.method !== 'POST' || !action) return next()
    return POSTED[action](deps, ctx, uid)
  }
}

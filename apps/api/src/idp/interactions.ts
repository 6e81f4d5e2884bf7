import type { IncomingMessage } from 'node:http'
import type { Context, Next } from 'koa'
import type Provider from 'oidc-provider'
import type { Accounts } from './accounts.ts'
import { isEmail, normalizeEmail } from './accounts.ts'
import type { Mailer } from './mail.ts'
import { forgotPage, loginPage, messagePage, resetPage, signupPage } from './pages.ts'
import { passwordProblem } from './passwords.ts'
import type { Db } from '@veloptima/db'
import { StoredFailedAttempts, type AttemptLimiter } from './rate-limit.ts'

export type InteractionDeps = {
  provider: Provider
  accounts: Accounts
  mailer: Mailer
  issuer: string
  appUrl: string
  log: (line: string) => void
  /** Failed sign-ins per e-mail, and per client address (defaults: 5 and 20 in 15 minutes). */
  perEmail?: AttemptLimiter
  perAddress?: AttemptLimiter
  /** Where the default limiters keep their counts (shared by every process). */
  db: Db
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

const minutes = (seconds: number) => Math.max(1, Math.ceil(seconds / 60))

/**
 * Koa middleware in front of oidc-provider: the login, sign-up and password pages, and the
 * translation of Auth0's `/v2/logout?returnTo=…` into RP-initiated logout.
 */
export function interactionRoutes(deps: InteractionDeps) {
  const { provider, accounts, mailer } = deps
  const perEmail = deps.perEmail ?? new StoredFailedAttempts(deps.db, 'email', 5, 15 * 60_000)
  const perAddress =
    deps.perAddress ?? new StoredFailedAttempts(deps.db, 'address', 20, 15 * 60_000)
  // New accounts per client address: 10 an hour.
  const signups = new StoredFailedAttempts(deps.db, 'signup', 10, 60 * 60_000)
  const expired = () =>
    messagePage(
      'This sign-in has expired',
      'The sign-in took too long or was already completed. Start again from Veloptima.',
      { href: deps.appUrl, label: 'Back to Veloptima' },
    )

  async function finishLogin(ctx: Context, accountId: string) {
    const to = await provider.interactionResult(
      ctx.req,
      ctx.res,
      { login: { accountId } },
      { mergeWithLastSubmission: false },
    )
    ctx.status = 303
    ctx.redirect(to)
  }

  async function login(ctx: Context, uid: string) {
    const form = await readForm(ctx.req)
    const email = normalizeEmail(form.get('email') ?? '')
    const password = form.get('password') ?? ''
    if (!email || !password) {
      return html(ctx, 400, loginPage(uid, { email, error: 'Enter your e-mail and password.' }))
    }
    const wait = Math.max(await perEmail.retryAfter(email), await perAddress.retryAfter(ctx.ip))
    if (wait > 0) {
      const error = `Too many failed attempts. Try again in ${minutes(wait)} minute${minutes(wait) > 1 ? 's' : ''}.`
      return html(ctx, 429, loginPage(uid, { email, error, code: 'too-many-requests' }))
    }
    const account = await accounts.authenticate(email, password)
    if (!account) {
      await perEmail.fail(email)
      await perAddress.fail(ctx.ip)
      // One answer for an unknown e-mail and a wrong password: the page does not reveal accounts.
      const error = 'Wrong e-mail or password.'
      return html(ctx, 401, loginPage(uid, { email, error, code: 'invalid-credential' }))
    }
    await perEmail.clear(email)
    await finishLogin(ctx, account.sub)
  }

  async function signup(ctx: Context, uid: string) {
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
    const wait = await signups.retryAfter(ctx.ip)
    if (wait > 0) {
      return page(
        `Too many new accounts from this address. Try again in ${minutes(wait)} minutes.`,
        429,
        'too-many-requests',
      )
    }
    const account = await accounts.create({ name, email, password })
    await signups.fail(ctx.ip)
    if (!account) {
      return page(
        'An account with this e-mail already exists. Sign in instead.',
        409,
        'email-already-in-use',
      )
    }
    deps.log(`New account ${email} (${account.sub})`)
    await finishLogin(ctx, account.sub)
  }

  async function forgot(ctx: Context, uid: string) {
    const form = await readForm(ctx.req)
    const email = normalizeEmail(form.get('email') ?? '')
    if (!isEmail(email)) {
      return html(
        ctx,
        400,
        forgotPage(uid, { email, error: `"${email}" is not an e-mail address.` }),
      )
    }
    const wait = await perEmail.retryAfter(`reset:${email}`)
    if (wait === 0) {
      await perEmail.fail(`reset:${email}`)
      const account = await accounts.findByEmail(email)
      if (account) {
        const token = await accounts.createResetToken(account.sub)
        const link = `${deps.issuer}reset?token=${encodeURIComponent(token)}`
        await mailer(
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

  async function reset(ctx: Context) {
    if (ctx.method === 'GET') {
      const token = String(ctx.query.token ?? '')
      if (!(await accounts.findByResetToken(token))) {
        return html(
          ctx,
          400,
          messagePage(
            'This link is no longer valid',
            'Reset links work once, for one hour. Ask for a new one from the sign-in page.',
            { href: deps.appUrl, label: 'Back to Veloptima' },
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
        messagePage('This link is no longer valid', 'Ask for a new one from the sign-in page.', {
          href: deps.appUrl,
          label: 'Back to Veloptima',
        }),
      )
    }
    await perEmail.clear(account.email)
    html(
      ctx,
      200,
      messagePage('Password changed', 'You can now sign in with your new password.', {
        href: deps.appUrl,
        label: 'Back to Veloptima',
      }),
    )
  }

  return async function interactions(ctx: Context, next: Next) {
    const path = ctx.path
    if (path === '/v2/logout' && ctx.method === 'GET') {
      // Auth0's logout: returnTo → post_logout_redirect_uri; its telemetry flags are dropped.
      const query = new URLSearchParams(ctx.querystring)
      const returnTo = query.get('returnTo')
      query.delete('returnTo')
      query.delete('auth0Client')
      query.delete('federated')
      if (returnTo) query.set('post_logout_redirect_uri', returnTo)
      ctx.querystring = query.toString()
      return next()
    }
    if (path === '/reset' && (ctx.method === 'GET' || ctx.method === 'POST')) return reset(ctx)

    const match = /^\/interaction\/([^/]+)(?:\/(login|signup|forgot))?$/.exec(path)
    if (!match) return next()
    const uid = decodeURIComponent(match[1] ?? '')
    const action = match[2]
    let details
    try {
      details = await provider.interactionDetails(ctx.req, ctx.res)
    } catch {
      return html(ctx, 400, expired())
    }
    if (details.uid !== uid) return html(ctx, 400, expired())

    if (ctx.method === 'GET') {
      if (details.prompt.name === 'consent') {
        // A first-party app: consent is implied (loadExistingGrant normally covers it).
        const grant = new provider.Grant({
          clientId: String(details.params.client_id),
          accountId: details.session?.accountId ?? '',
        })
        grant.addOIDCScope(String(details.params.scope ?? 'openid'))
        const grantId = await grant.save()
        const to = await provider.interactionResult(
          ctx.req,
          ctx.res,
          { consent: { grantId } },
          { mergeWithLastSubmission: true },
        )
        ctx.status = 303
        return ctx.redirect(to)
      }
      if (action === 'signup') return html(ctx, 200, signupPage(uid))
      if (action === 'forgot') return html(ctx, 200, forgotPage(uid))
      if (!action) {
        const hint = typeof details.params.login_hint === 'string' ? details.params.login_hint : ''
        return html(ctx, 200, loginPage(uid, { email: hint }))
      }
      return next()
    }
    if (ctx.method !== 'POST') return next()
    if (action === 'login') return login(ctx, uid)
    if (action === 'signup') return signup(ctx, uid)
    if (action === 'forgot') return forgot(ctx, uid)
    return next()
  }
}

// The embedded provider's own pages (sign in, sign up, forgot and reset password), plain HTML
// styled like the product: slate text, orange accents, one clear form per page, labelled
// fields, errors announced to screen readers.

export const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  )

// The brand's orange as in the web app (apps/web/src/index.css): white on it and it on white
// keep 4.5:1.
export const STYLE = `
*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;
  font-family:Inter,ui-sans-serif,system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;
  background:#f8fafc;color:#0f172a}
main{width:100%;max-width:26rem;margin:2rem 1rem;background:#fff;border:1px solid #e2e8f0;
  border-radius:1rem;padding:2rem;box-shadow:0 1px 3px rgba(15,23,42,.08)}
.brand{font-size:.75rem;font-weight:600;letter-spacing:.15em;text-transform:uppercase;color:#c3490a;margin:0}
h1{font-size:1.5rem;font-weight:700;letter-spacing:-.01em;margin:.5rem 0 1.5rem}
label{display:block;font-size:.875rem;font-weight:500;color:#334155;margin:1rem 0 .375rem}
input{width:100%;padding:.625rem .75rem;border:1px solid #cbd5e1;border-radius:.5rem;font:inherit;color:#0f172a}
input:focus{outline:2px solid #f97316;outline-offset:1px;border-color:#f97316}
button{margin-top:1.5rem;width:100%;padding:.65rem 1rem;border:0;border-radius:.5rem;background:#c3490a;
  color:#fff;font:inherit;font-weight:600;cursor:pointer}
button:hover{background:#9a3412}
button:focus-visible{outline:2px solid #0f172a;outline-offset:2px}
.alert{border-radius:.5rem;padding:.75rem 1rem;font-size:.875rem;margin-bottom:1rem}
.error{background:#fef2f2;color:#991b1b;border:1px solid #fecaca}
.notice{background:#fff7ed;color:#9a3412;border:1px solid #fed7aa}
.links{margin-top:1.5rem;display:flex;justify-content:space-between;gap:1rem;font-size:.875rem}
a{color:#c2410c;font-weight:500}
.hint{font-size:.75rem;color:#64748b;margin:.375rem 0 0}
`

/** The one inline script of these pages (the sign-out confirmation submits itself). */
export const AUTO_SUBMIT = 'document.forms[0].submit()'

function layout(title: string, body: string, options: { autoSubmit?: boolean } = {}) {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${escapeHtml(title)} · Veloptima</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<p class="brand">Veloptima · Performance. Perfected.</p>
${body}
</main>
${options.autoSubmit ? `<script>${AUTO_SUBMIT}</script>` : ''}
</body>
</html>`
}

/** `code` is the §8 error code of the problem (a hook for tests and support). */
type Alerts = { error?: string | undefined; code?: string | undefined; notice?: string | undefined }

function alerts({ error, code, notice }: Alerts) {
  const data = code ? ` data-code="${escapeHtml(code)}"` : ''
  return [
    error ? `<div class="alert error" role="alert"${data}>${escapeHtml(error)}</div>` : '',
    notice ? `<div class="alert notice" role="status">${escapeHtml(notice)}</div>` : '',
  ].join('')
}

type FieldOptions = { value?: string; autocomplete: string; hint?: string; autofocus?: boolean }

function field(name: string, label: string, type: string, options: FieldOptions) {
  const id = `f-${name}`
  return `<label for="${id}">${escapeHtml(label)}</label>
<input id="${id}" name="${name}" type="${type}" required autocomplete="${options.autocomplete}"${
    options.value ? ` value="${escapeHtml(options.value)}"` : ''
  }${options.autofocus ? ' autofocus' : ''}${options.hint ? ` aria-describedby="${id}-hint"` : ''}>
${options.hint ? `<p class="hint" id="${id}-hint">${escapeHtml(options.hint)}</p>` : ''}`
}

/** The form pages' title, heading and submit button. */
const FORM_TEXTS = {
  login: { title: 'Sign in', heading: 'Sign in to Veloptima', submit: 'Sign in' },
  signup: { title: 'Create an account', heading: 'Create your account', submit: 'Create account' },
  forgot: { title: 'Forgot password', heading: 'Reset your password', submit: 'Send reset link' },
  reset: {
    title: 'Choose a new password',
    heading: 'Choose a new password',
    submit: 'Set password',
  },
}

/**
 * A page of one form: the heading, the alerts, the fields and a submit button posting to
 * `action`, then `links` (`<a>` elements, if any) under the form.
 */
function formPage(
  texts: { title: string; heading: string; submit: string },
  page: { alerts: Alerts; action: string; links?: string },
  ...fields: string[]
) {
  return layout(
    texts.title,
    `<h1>${texts.heading}</h1>
${alerts(page.alerts)}
<form method="post" action="${page.action}" novalidate>
${fields.join('\n')}
<button type="submit">${texts.submit}</button>
</form>${page.links ? `\n<div class="links">${page.links}</div>` : ''}`,
  )
}

const interactionBase = (uid: string) => `/interaction/${encodeURIComponent(uid)}`

const emailField = (value: string | undefined, options: Omit<FieldOptions, 'value'>) =>
  field('email', 'E-mail', 'email', { value: value ?? '', ...options })

export function loginPage(uid: string, input: { email?: string } & Alerts = {}) {
  const base = interactionBase(uid)
  const links = `<a href="${base}/signup">Create an account</a><a href="${base}/forgot">Forgot your password?</a>`
  return formPage(
    FORM_TEXTS.login,
    { alerts: input, action: `${base}/login`, links },
    emailField(input.email, { autocomplete: 'username', autofocus: !input.email }),
    field('password', 'Password', 'password', {
      autocomplete: 'current-password',
      autofocus: !!input.email,
    }),
  )
}

export function signupPage(uid: string, input: { email?: string; name?: string } & Alerts = {}) {
  const base = interactionBase(uid)
  const links = `<a href="${base}">I already have an account</a>`
  return formPage(
    FORM_TEXTS.signup,
    { alerts: input, action: `${base}/signup`, links },
    field('name', 'Name', 'text', {
      value: input.name ?? '',
      autocomplete: 'name',
      autofocus: true,
    }),
    emailField(input.email, { autocomplete: 'email' }),
    field('password', 'Password', 'password', {
      autocomplete: 'new-password',
      hint: 'At least 8 characters.',
    }),
  )
}

export function forgotPage(uid: string, input: { email?: string } & Alerts = {}) {
  const base = interactionBase(uid)
  const links = `<a href="${base}">Back to sign in</a>`
  return formPage(
    FORM_TEXTS.forgot,
    { alerts: input, action: `${base}/forgot`, links },
    emailField(input.email, {
      autocomplete: 'username',
      autofocus: true,
      hint: 'We send a link to set a new password.',
    }),
  )
}

export function resetPage(token: string, input: Alerts = {}) {
  return formPage(
    FORM_TEXTS.reset,
    { alerts: input, action: '/reset' },
    `<input type="hidden" name="token" value="${escapeHtml(token)}">`,
    field('password', 'New password', 'password', {
      autocomplete: 'new-password',
      autofocus: true,
      hint: 'At least 8 characters.',
    }),
  )
}

export function messagePage(title: string, text: string, link?: { href: string; label: string }) {
  return layout(
    title,
    `<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(text)}</p>
${link ? `<div class="links"><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></div>` : ''}`,
  )
}

/**
 * The sign-out page around oidc-provider's confirmation form: submitted at once for the app's
 * own sign-out (as Auth0 does), or with a button when the user must confirm.
 */
export function logoutPage(form: string, options: { confirm: boolean; appUrl: string }) {
  const button = options.confirm ? '<button type="submit">Sign out</button>' : ''
  const confirmed = form.replace(
    '</form>',
    `<input type="hidden" name="logout" value="yes">${button}</form>`,
  )
  if (!options.confirm) {
    return layout('Signing out', `<h1>Signing out…</h1>${confirmed}`, { autoSubmit: true })
  }
  return layout(
    'Sign out',
    `<h1>Sign out of Veloptima?</h1>
<p>You are signed in. Sign out only if you asked for it.</p>
${confirmed}
<div class="links"><a href="${escapeHtml(options.appUrl)}">Stay signed in</a></div>`,
  )
}

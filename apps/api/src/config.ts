import { join, resolve } from 'node:path'
import { z } from 'zod'

// Every environment variable the product reads, parsed once at startup.
// The defaults give the embedded mode: PGlite in ./data, the embedded identity provider,
// local file storage, in-process jobs. Document each variable in docs/configuration.md.
const port = z.coerce.number().int().min(1).max(65535)
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes')
/** A price in a currency's major unit: at most two decimals, up to 100 000. */
const price = z.coerce
  .number()
  .min(0)
  .max(100_000)
  .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, 'expected at most two decimals')

export const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  /** Host name used in URLs printed and given to the browser (SPA and IdP share it). */
  HOST: z.string().min(1).default('localhost'),
  /** Address the servers bind to. */
  BIND_ADDRESS: z.string().min(1).default('127.0.0.1'),
  PORT: port.default(3000),
  IDP_PORT: port.default(4000),
  /**
   * Load balancers whose X-Forwarded-For gives the client's address (rate limits, sign-in
   * lockouts): comma-separated addresses or CIDRs, or `loopback`; unset: trust no proxy.
   */
  TRUST_PROXY: z.string().min(1).optional(),
  /** Public URL of the app (SPA + API); defaults to http://HOST:PORT. */
  PUBLIC_URL: z.url().optional(),
  /** Directory of the embedded database and local files. */
  DATA_DIR: z.string().min(1).default('./data'),
  /** A PostgreSQL server instead of the embedded PGlite, e.g. postgres://user@host:5432/db. */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  /** Directory of the built SPA served by the API. */
  WEB_DIST_DIR: z.string().min(1).default('apps/web/dist'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Log every HTTP request (pino). */
  LOG_REQUESTS: bool.default(false),
  // Identity (see docs/sign-in.md).
  /** An external OIDC provider, e.g. https://TENANT.eu.auth0.com; unset: the embedded one. */
  AUTH_DOMAIN: z.url().optional(),
  /** The `iss` its tokens carry; defaults to AUTH_DOMAIN with a trailing slash. */
  AUTH_ISSUER: z.url().optional(),
  /** The SPA's client id at the provider. */
  AUTH_CLIENT_ID: z.string().min(1).default('veloptima-web'),
  /** The API identifier (Auth0 `audience`); defaults to PUBLIC_URL/api. */
  AUTH_AUDIENCE: z.string().min(1).optional(),
  /** The provider's key set; defaults to ISSUER.well-known/jwks.json. */
  AUTH_JWKS_URL: z.url().optional(),
  /** Lifetime of the app's session token, in seconds. */
  SESSION_TOKEN_TTL_SECONDS: z.coerce.number().int().min(360).max(86_400).default(3600),
  /** Outgoing mail (password reset links), e.g. smtp://user:pass@smtp.example.com:587; unset: logged. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  SMTP_FROM: z.string().min(3).default('Veloptima <no-reply@veloptima.invalid>'),
  // Public links given to the browser by GET /api/public-config.
  SUPPORT_URL: z.url().default('https://github.com/veloptima/veloptima/discussions'),
  FEEDBACK_SURVEY_URL: z.url().optional(),
  MAP_TILE_URL: z.string().min(1).default('https://tile.openstreetmap.org/{z}/{x}/{y}.png'),
  TERMS_URL: z.string().min(1).default('/terms'),
  PRIVACY_URL: z.string().min(1).default('/privacy'),
  // Files and jobs (see docs/http-api.md).
  /** Where stored files go: a local directory (default) or an S3-compatible bucket. */
  STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
  /** Directory of the local file storage; defaults to DATA_DIR/files. */
  FILES_DIR: z.string().min(1).optional(),
  /** S3-compatible storage (STORAGE_DRIVER=s3): bucket, region, endpoint and credentials. */
  S3_BUCKET: z.string().min(1).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ENDPOINT: z.url().optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** Path-style bucket addressing (MinIO and most S3-compatible servers need it). */
  S3_FORCE_PATH_STYLE: bool.default(true),
  /** Downloads redirect to presigned bucket URLs (the bytes skip the API) instead of being proxied. */
  S3_PRESIGNED_DOWNLOADS: bool.default(false),
  /** Largest accepted upload, in bytes. */
  MAX_UPLOAD_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(25 * 1024 * 1024),
  /** Lifetime of a signed download URL, in seconds. */
  DOWNLOAD_URL_TTL_SECONDS: z.coerce.number().int().min(10).max(86_400).default(300),
  /** Worker threads that run background jobs in this process (0: enqueue only, run nowhere). */
  JOB_WORKERS: z.coerce.number().int().min(0).max(64).default(2),
  /** A job whose worker stops sending heartbeats for this long is retried (PostgreSQL mode). */
  JOB_HEARTBEAT_SECONDS: z.coerce.number().int().min(10).max(3600).default(30),
  /**
   * Jobs (optimization runs, aero analyses) one account may have queued or running at once;
   * one more is refused with 429 and Retry-After (docs/limits-jobs.md).
   */
  JOB_MAX_ACTIVE_PER_USER: z.coerce.number().int().min(1).max(10_000).default(10),
  /** Jobs of one team's items that may be queued or running at once, whoever queued them. */
  JOB_MAX_ACTIVE_PER_TEAM: z.coerce.number().int().min(1).max(10_000).default(30),
  /** Port of the health endpoint of the worker role (`npm run worker`: GET /health, /ready). */
  WORKER_PORT: port.default(3001),
  // Live updates (GET /api/live, Server-Sent Events; see docs/http-api.md).
  /** Interval of the heartbeat comment that keeps proxies from closing an idle stream, ms. */
  LIVE_HEARTBEAT_MS: z.coerce.number().int().min(1000).max(300_000).default(15_000),
  /** Fallback poll for changes whose NOTIFY this process cannot hear, ms (0: LISTEN only). */
  LIVE_POLL_MS: z.coerce.number().int().min(0).max(60_000).default(2000),
  /** Reconnect delay the browser is told to use after a dropped stream, ms. */
  LIVE_RETRY_MS: z.coerce.number().int().min(100).max(60_000).default(2000),
  // Plans and prices shown on the pricing page (see docs/billing.md), with or without payment.
  /** ISO 4217 code of the currency the prices are in. */
  BILLING_CURRENCY: z
    .string()
    .regex(/^[A-Za-z]{3}$/, 'expected a three-letter ISO 4217 code such as EUR')
    .transform((v) => v.toUpperCase())
    .default('EUR'),
  /** Billing periods offered, comma-separated: `month`, `year` or both. */
  BILLING_PERIODS: z
    .string()
    .regex(/^\s*(month|year)\s*(,\s*(month|year)\s*)*$/, 'expected month, year or month,year')
    .transform((v) => [...new Set(v.split(',').map((p) => p.trim() as 'month' | 'year'))])
    .default(['month', 'year']),
  /** Prices in the currency's major unit (9.50 = 9 euros 50), per seat for the Team plan. */
  PLAN_PRICE_INDIVIDUAL_MONTH: price.default(9),
  PLAN_PRICE_INDIVIDUAL_YEAR: price.default(90),
  PLAN_PRICE_TEAM_MONTH: price.default(7),
  PLAN_PRICE_TEAM_YEAR: price.default(70),
  PLAN_PRICE_AERO_MONTH: price.default(5),
  PLAN_PRICE_AERO_YEAR: price.default(50),
  /** Length of the free trial of the Individual plan (once per user), days. */
  TRIAL_DAYS: z.coerce.number().int().min(1).max(365).default(14),
  // Subscriptions and payment (see docs/billing.md); billing is off when unset.
  /** Stripe's secret API key (sk_live_… or sk_test_…). */
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  /** The signing secret of the webhook endpoint PUBLIC_URL/api/billing/webhook (whsec_…). */
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  /** Price ids (price_…) of the plans; a plan without its price cannot be bought. */
  STRIPE_PRICE_INDIVIDUAL_MONTH: z.string().min(1).optional(),
  STRIPE_PRICE_INDIVIDUAL_YEAR: z.string().min(1).optional(),
  /** Team plans are priced per seat (the quantity is the number of members allowed). */
  STRIPE_PRICE_TEAM_MONTH: z.string().min(1).optional(),
  STRIPE_PRICE_TEAM_YEAR: z.string().min(1).optional(),
  STRIPE_PRICE_AERO_MONTH: z.string().min(1).optional(),
  STRIPE_PRICE_AERO_YEAR: z.string().min(1).optional(),
  /** Stripe API address for tests against a local server, e.g. http://127.0.0.1:12111. */
  STRIPE_API_URL: z.url().optional(),
  // Race-day weather (see docs/engine/weather.md).
  /** Where forecasts and past weather come from; `none`: no fetching, the typed wind and air only. */
  WEATHER_PROVIDER: z.enum(['open-meteo', 'none']).default('open-meteo'),
  /** The provider's base URL (both /v1/forecast and /v1/archive under it); unset: Open-Meteo's hosts. */
  WEATHER_URL: z.url().optional(),
  /**
   * GET /api/metrics (Prometheus text) answers callers sending `Authorization: Bearer <token>`;
   * without a token, only direct loopback callers (no proxy header) are answered.
   */
  METRICS_TOKEN: z.string().min(16).optional(),
})

export type Config = z.infer<typeof configSchema> & {
  publicUrl: string
  dataDir: string
  webDistDir: string
  filesDir: string
}

export class ConfigError extends Error {
  constructor(public readonly issues: string[]) {
    super(`Invalid configuration:\n${issues.map((i) => `  - ${i}`).join('\n')}`)
  }
}

/** Parses the environment; throws a ConfigError that names each wrong variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const picked: Record<string, string> = {}
  for (const key of Object.keys(configSchema.shape)) {
    const value = env[key]
    if (value !== undefined && value !== '') picked[key] = value
  }
  const parsed = configSchema.safeParse(picked)
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const name = issue.path.join('.')
        return `${name}=${JSON.stringify(picked[name] ?? '')}: ${issue.message}`
      }),
    )
  }
  const c = parsed.data
  if (c.STORAGE_DRIVER === 's3') {
    const missing = ['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const
    const unset = missing.filter((name) => !c[name])
    if (unset.length) {
      throw new ConfigError(unset.map((name) => `${name}: required when STORAGE_DRIVER=s3`))
    }
  }
  return {
    ...c,
    publicUrl: (c.PUBLIC_URL ?? `http://${c.HOST}:${c.PORT}`).replace(/\/$/, ''),
    dataDir: resolve(c.DATA_DIR),
    webDistDir: resolve(c.WEB_DIST_DIR),
    filesDir: resolve(c.FILES_DIR ?? join(c.DATA_DIR, 'files')),
  }
}

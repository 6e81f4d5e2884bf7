import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { defineConfig } from '@playwright/test'
import { chromiumArgs, chromiumPath } from './chromium.ts'

// The product is started as `npm start` does (scripts/start.mjs), on its own ports and a fresh
// data directory, and driven in Debian's Chromium (never a downloaded browser).
// Values are put in process.env so that the test workers see the same ones.
// The machine's own services (MariaDB, NATS, RabbitMQ and its port mapper, PostgreSQL, Redis) keep
// their ports: a base whose six ports (below) would meet one moves on.
const TAKEN = new Set([3306, 4222, 4369, 5432, 5672, 6379])
const offsets = [0, 1, 1000, 1001, 2000, 2001]
let base = 3100 + (process.pid % 400) * 2
while (offsets.some((o) => TAKEN.has(base + o))) base = base >= 3896 ? 3100 : base + 2
process.env.E2E_PORT ??= String(base)
process.env.E2E_IDP_PORT ??= String(base + 1)
// The weather provider's local stand-in (docs/engine/weather.md): nothing from the internet.
process.env.E2E_WEATHER_PORT ??= String(base + 1000)
process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'veloptima-e2e-'))
// A second instance with payment configured, used only by billing.spec.ts (the first one runs
// without Stripe, as the embedded default does): its own ports and data, the same built SPA, and
// the SDK pointed at the local Stripe stand-in (apps/api/test/stripe-stand-in.ts).
process.env.E2E_BILLING_PORT ??= String(base + 2000)
process.env.E2E_BILLING_IDP_PORT ??= String(base + 2001)
process.env.E2E_STRIPE_PORT ??= String(base + 1001)
process.env.E2E_STRIPE_KEY ??= 'sk_test_e2e_local'
process.env.E2E_STRIPE_WEBHOOK_SECRET ??= 'whsec_e2e_local'
// Each run builds the SPA into its own directory and keeps its own results, so that runs started
// side by side (several developers on one machine) never swap files under each other.
process.env.E2E_WEB_DIST_DIR ??= join(process.env.E2E_DATA_DIR, 'web')
process.env.E2E_OUTPUT_DIR ??= join(process.env.E2E_DATA_DIR, 'results')
const port = process.env.E2E_PORT
const baseURL = `http://localhost:${port}`

export default defineConfig({
  testDir: './tests',
  outputDir: process.env.E2E_OUTPUT_DIR,
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json']],
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromiumPath,
      args: chromiumArgs,
    },
  },
  webServer: [
    {
      command: 'npx tsx apps/api/src/weather/stand-in-main.ts',
      cwd: '..',
      port: Number(process.env.E2E_WEATHER_PORT),
      timeout: 60_000,
      reuseExistingServer: false,
      env: { PORT: process.env.E2E_WEATHER_PORT! },
    },
    {
      command: 'node scripts/start.mjs',
      cwd: '..',
      url: `${baseURL}/api/ready`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      stderr: 'pipe',
      env: {
        PORT: port,
        IDP_PORT: process.env.E2E_IDP_PORT,
        DATA_DIR: process.env.E2E_DATA_DIR,
        WEB_DIST_DIR: process.env.E2E_WEB_DIST_DIR,
        LOG_LEVEL: 'warn',
        WEATHER_URL: `http://127.0.0.1:${process.env.E2E_WEATHER_PORT}`,
      },
    },
    {
      command: 'npx tsx apps/api/test/stripe-stand-in-main.ts',
      cwd: '..',
      port: Number(process.env.E2E_STRIPE_PORT),
      timeout: 60_000,
      reuseExistingServer: false,
      env: {
        PORT: process.env.E2E_STRIPE_PORT,
        STRIPE_SECRET_KEY: process.env.E2E_STRIPE_KEY,
        STRIPE_PRICES: 'price_e2e_individual_month,price_e2e_individual_year,price_e2e_team_year',
      },
    },
    {
      // Started after the first instance (Playwright starts them in turn), so the SPA is built:
      // this one serves it as it is and never rebuilds it under the first one's feet.
      command: 'node --import tsx apps/api/src/server.ts',
      cwd: '..',
      url: `http://localhost:${process.env.E2E_BILLING_PORT}/api/ready`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      stderr: 'pipe',
      env: {
        PORT: process.env.E2E_BILLING_PORT,
        IDP_PORT: process.env.E2E_BILLING_IDP_PORT,
        DATA_DIR: join(process.env.E2E_DATA_DIR, 'billing'),
        WEB_DIST_DIR: process.env.E2E_WEB_DIST_DIR,
        LOG_LEVEL: 'warn',
        WEATHER_PROVIDER: 'none',
        STRIPE_SECRET_KEY: process.env.E2E_STRIPE_KEY,
        STRIPE_WEBHOOK_SECRET: process.env.E2E_STRIPE_WEBHOOK_SECRET,
        STRIPE_API_URL: `http://127.0.0.1:${process.env.E2E_STRIPE_PORT}`,
        STRIPE_PRICE_INDIVIDUAL_MONTH: 'price_e2e_individual_month',
        STRIPE_PRICE_INDIVIDUAL_YEAR: 'price_e2e_individual_year',
        STRIPE_PRICE_TEAM_YEAR: 'price_e2e_team_year',
      },
    },
  ],
})

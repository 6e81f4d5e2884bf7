import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { defineConfig } from '@playwright/test'
import { chromiumArgs, chromiumPath } from './chromium.ts'

// The product is started as `npm start` does (scripts/start.mjs), on its own ports and a fresh
// data directory, and driven in Debian's Chromium (never a downloaded browser).
// Values are put in process.env so that the test workers see the same ones.
const base = 3100 + (process.pid % 400) * 2
process.env.E2E_PORT ??= String(base)
process.env.E2E_IDP_PORT ??= String(base + 1)
// The weather provider's local stand-in (README "Race-day weather"): nothing from the internet.
process.env.E2E_WEATHER_PORT ??= String(base + 1000)
process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'veloptima-e2e-'))
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
  ],
})

import { defineConfig } from 'vitest/config'

// Three kinds of tests:
//   unit         *.test.ts(x)       pure, fast, no database
//   integration  *.int.test.ts      against a real database: DB_DRIVER=pglite (default) or pg
// End-to-end journeys live in e2e/ and run under Playwright.
// No test may reach the internet: the weather source is off unless a test points it at the local
// Open-Meteo stand-in (apps/api/src/weather/stand-in.ts) itself.
const env = { WEATHER_PROVIDER: 'none' }
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['{packages,apps}/*/{src,test}/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
          exclude: ['**/*.int.test.ts', '**/node_modules/**'],
          testTimeout: 60_000,
          env,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['{packages,apps}/*/{src,test}/**/*.int.test.ts'],
          testTimeout: 120_000,
          env,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
})

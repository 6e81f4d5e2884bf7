import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import tailwindcss from '@tailwindcss/vite'
import { VitePWA } from 'vite-plugin-pwa'

/**
 * react-router's package exports name only its development build (warnings, invariant
 * messages; about 15 KB more gzip on the first page). Production builds use its production
 * build, which the package ships beside it.
 */
const reactRouterProduction = fileURLToPath(
  new URL('../../node_modules/react-router/dist/production/index.mjs', import.meta.url),
)

export default defineConfig(({ command }) => ({
  resolve: {
    alias:
      command === 'build' ? [{ find: /^react-router$/, replacement: reactRouterProduction }] : [],
  },
  plugins: [
    react(),
    tailwindcss(),
    VitePWA({
      registerType: 'prompt',
      injectRegister: false,
      filename: 'sw.js',
      manifest: {
        name: 'Veloptima',
        short_name: 'Veloptima',
        description: 'Performance. Perfected.',
        theme_color: '#0f172a',
        background_color: '#ffffff',
        icons: [{ src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml' }],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,png,woff2}'],
        navigateFallback: 'index.html',
        navigateFallbackDenylist: [/^\/api\//, /^\/authorize/, /^\/oauth\//, /^\/v2\/logout/],
      },
    }),
  ],
  server: { port: 5173, proxy: { '/api': 'http://localhost:3000' } },
  build: {
    sourcemap: true,
    rolldownOptions: {
      output: {
        // React and react-router in one chunk: the landing page needs both, and one file
        // compresses better than the shared chunks the default split makes of them
        // (docs/benchmarks.md, "Web app"). TanStack Query stays out of it: it loads with the signed-in app
        // (src/app/query-layer-store.ts).
        codeSplitting: {
          groups: [
            {
              name: 'framework',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/,
            },
          ],
        },
      },
    },
  },
}))

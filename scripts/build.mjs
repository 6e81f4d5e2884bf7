// `npm run build`: the production build. The API (server, worker role and the job threads'
// entry) is compiled to JavaScript with esbuild into apps/api/dist/server/, the workspace
// packages (@veloptima/*, TypeScript sources) inlined and npm dependencies left to node_modules;
// the database migrations are copied next to it (packages/db finds them at ../drizzle); the web
// app is built into WEB_DIST_DIR. `npm run serve` and `npm run worker` then start without tsx.
import { cpSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { build } from 'esbuild'
import { root, run, webDistDir } from './lib.mjs'

export const apiDist = join(root, 'apps/api/dist')
export const apiEntries = {
  server: 'apps/api/src/server.ts',
  worker: 'apps/api/src/worker.ts',
  'worker-thread': 'apps/api/src/jobs/worker-thread.ts',
  admin: 'apps/api/src/admin/cli.ts',
}

/** Bare imports other than the workspace's own packages stay imports of node_modules. */
const externalDependencies = {
  name: 'external-dependencies',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@veloptima/') ? undefined : { path: args.path, external: true },
    )
  },
}

export async function buildApi() {
  const t0 = Date.now()
  rmSync(apiDist, { recursive: true, force: true })
  await build({
    absWorkingDir: root,
    entryPoints: apiEntries,
    outdir: join(apiDist, 'server'),
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
    plugins: [externalDependencies],
  })
  cpSync(join(root, 'packages/db/drizzle'), join(apiDist, 'drizzle'), { recursive: true })
  // The embedded database's thread entry (plain JavaScript), found beside the bundle.
  cpSync(join(root, 'packages/db/src/pglite-thread.mjs'), join(apiDist, 'server/pglite-thread.mjs'))
  writeFileSync(
    join(apiDist, 'BUILD'),
    `Built by npm run build at ${new Date().toISOString()}; start with npm run serve / npm run worker.\n`,
  )
  return Date.now() - t0
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log('Building the API (esbuild → apps/api/dist/server)…')
  const ms = await buildApi()
  console.log(`  API built in ${(ms / 1000).toFixed(1)} s`)
  // Built aside and swapped in: a failed build leaves the previous one in place.
  const outDir = webDistDir()
  const tmp = `${outDir}.building`
  console.log(`Building the web app (vite → ${outDir})…`)
  const code = await run(
    'npx',
    ['vite', 'build', '--logLevel', 'warn', '--outDir', tmp, '--emptyOutDir'],
    { cwd: join(root, 'apps/web') },
  )
  if (code !== 0) {
    rmSync(tmp, { recursive: true, force: true })
    console.error('The web app did not build; see the errors above.')
    process.exit(code)
  }
  rmSync(outDir, { recursive: true, force: true })
  renameSync(tmp, outDir)
  console.log('Done.')
}

// `npm start`: builds what is missing, then starts the whole product with embedded defaults
// (API + SPA on http://localhost:3000, identity provider on http://localhost:4000,
// PGlite in ./data). Ctrl-C stops it cleanly; the data directory is kept.
import { spawn } from 'node:child_process'
import { buildWebIfStale, root } from './lib.mjs'

const built = await buildWebIfStale()
if (built !== 0) {
  console.error('The web app did not build; see the errors above.')
  process.exit(built)
}

const server = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
})
const forward = (signal) => () => server.kill(signal)
process.on('SIGINT', forward('SIGINT'))
process.on('SIGTERM', forward('SIGTERM'))
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)))

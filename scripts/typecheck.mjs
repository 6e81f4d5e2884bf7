// Type-checks every workspace with its own tsconfig (Vite and tsx do not type-check).
import { existsSync } from 'node:fs'
import { run, root } from './lib.mjs'

const projects = [
  'tsconfig.json',
  'packages/engine/tsconfig.json',
  'packages/formats/tsconfig.json',
  'packages/contracts/tsconfig.json',
  'packages/db/tsconfig.json',
  'packages/cli/tsconfig.json',
  'apps/api/tsconfig.json',
  'apps/web/tsconfig.json',
  'apps/web/bench/tsconfig.json',
  'e2e/tsconfig.json',
].filter((p) => existsSync(`${root}/${p}`))

const results = await Promise.all(
  projects.map(async (p) => ({ p, code: await run('npx', ['tsc', '--noEmit', '-p', p]) })),
)
const failed = results.filter((r) => r.code !== 0)
for (const f of failed) console.error(`type errors in ${f.p}`)
process.exit(failed.length ? 1 : 0)

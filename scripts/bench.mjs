// `npm run bench`: runs every workspace's bench/*.bench.ts as a plain tsx script, in turn.
// Each benchmark prints its own figures (throughput, ratios); nothing here asserts time.
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { root, run } from './lib.mjs'

// Benchmarks never reach the internet: no weather source unless a bench sets one up itself.
process.env.WEATHER_PROVIDER ??= 'none'
const filter = process.argv.slice(2)
const files = []
for (const group of ['packages', 'apps']) {
  for (const ws of readdirSync(join(root, group))) {
    const dir = join(root, group, ws, 'bench')
    if (!existsSync(dir)) continue
    for (const f of readdirSync(dir).sort()) {
      if (f.endsWith('.bench.ts')) files.push(join(group, ws, 'bench', f))
    }
  }
}
const selected = files.filter((f) => filter.length === 0 || filter.some((x) => f.includes(x)))
if (selected.length === 0) console.log('No benchmarks found.')
let failed = 0
for (const f of selected) {
  console.log(`\n== ${f}`)
  if ((await run(process.execPath, ['--import', 'tsx', f])) !== 0) failed++
}
process.exit(failed ? 1 : 0)

// `npm run bench -- fuzz-import`: 2,000 seeded mutated copies of the real-world files
// (scripts/test-data.ts; values replaced by absurd or non-numeric ones, truncations, byte flips)
// through importCourse. Exits 1 when a copy throws something other than an ImportError or an
// impossible course is accepted, naming its seed (replay it with `mutant(seed)`).
import { fuzz } from '../test/fuzz-mutations.ts'

const count = Number(process.env.FUZZ_COUNT ?? 2000)
const from = Number(process.env.FUZZ_SEED ?? 1)
const t0 = performance.now()
const tally = fuzz(from, from + count)
const s = (performance.now() - t0) / 1000
const refused = Object.values(tally.refused).reduce((a, b) => a + b, 0)
console.log(`mutated copies: ${count} (seeds ${from}–${from + count - 1}) in ${s.toFixed(1)} s`)
console.log(`accepted as courses: ${tally.accepted}, refused with ImportError: ${refused}`)
for (const [code, n] of Object.entries(tally.refused).sort((a, b) => b[1] - a[1]))
  console.log(`  ${code}: ${n}`)
console.log(`unexpected exceptions: ${tally.crashes.length}`)
for (const c of tally.crashes.slice(0, 10)) console.log(`  ${c}`)
console.log(`impossible courses accepted: ${tally.impossible.length}`)
for (const c of tally.impossible.slice(0, 10)) console.log(`  ${c}`)
process.exit(tally.crashes.length || tally.impossible.length ? 1 : 0)

// `veloptima wbal --cp W --w-prime J --model skiba2015|skiba2012 POWER.csv`: W′ balance of a
// 1-Hz power file (one value per line; a header line and a first "time,power" style column are
// accepted: the last column of each line is the power).
import { wPrimeBalance } from '@veloptima/engine'
import type { WPrimeModel } from '@veloptima/engine'
import { numberFlag, parseArgs, printJson, requireFlag, UsageError } from '../args.ts'
import { readBytes } from './course.ts'

export function readPowerCsv(file: string): Float64Array {
  const text = new TextDecoder().decode(readBytes(file)).replace(/^\uFEFF/, '')
  const values: number[] = []
  const lines = text.split(/\r?\n/)
  lines.forEach((line, i) => {
    const cells = line.split(/[,;\t]/)
    const cell = cells[cells.length - 1]!.trim()
    if (cell === '') return
    const v = Number(cell)
    if (!Number.isFinite(v)) {
      if (i === 0 && values.length === 0) return // header
      throw new UsageError(`${file}:${i + 1}: expected a power in watts, got "${cell}"`)
    }
    if (v < 0 || v > 5000)
      throw new UsageError(`${file}:${i + 1}: expected a power from 0 to 5000 W, got ${v}`)
    values.push(v)
  })
  if (values.length === 0)
    throw new UsageError(`${file}: expected one power value per second, got none`)
  return new Float64Array(values)
}

export async function wbalCommand(args: string[]): Promise<number> {
  const p = parseArgs(args, ['cp', 'w-prime', 'model'])
  if (p.positionals.length !== 1)
    throw new UsageError(`expected one power CSV file, got ${p.positionals.length}`)
  const cp = requireFlag(numberFlag(p, 'cp', 1, 3000), 'cp', 'the critical power in W')
  const w0 = requireFlag(numberFlag(p, 'w-prime', 1, 1e6), 'w-prime', "W' in J")
  const model = p.flags.get('model') ?? 'skiba2015'
  if (model !== 'skiba2015' && model !== 'skiba2012') {
    throw new UsageError(`--model: expected skiba2015 or skiba2012, got "${model}"`)
  }
  const power = readPowerCsv(p.positionals[0]!)
  const seconds = new Float64Array(power.length).fill(1)
  const out = new Float64Array(power.length)
  const s = wPrimeBalance(power, seconds, power.length, cp, w0, model as WPrimeModel, out)
  printJson({
    min_w_prime_balance_j: Math.round(s.minJ * 10) / 10,
    final_w_prime_balance_j: Math.round(s.finalJ * 10) / 10,
  })
  return 0
}

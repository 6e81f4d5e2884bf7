// `veloptima durability RIDE.fit [RIDE2.fit …]`: the fraction of 5-min and 20-min power the rider
// loses per 1,000 kJ of work, fitted from the hard efforts of their own long rides (any activity
// file with power: FIT, TCX, GPX, GoldenCheetah JSON, CSV), as JSON.
import { basename } from 'node:path'
import { type DurabilityFit, fitDurability } from '@veloptima/engine'
import { readActivity } from '@veloptima/formats'
import { parseArgs, printJson, UsageError } from '../args.ts'
import { readBytes } from './course.ts'

/** Longest interval between two samples whose seconds take the later sample's power, s; a
 * longer one (a pause, a stop with the timer off) is a gap. */
const MAX_FILL_S = 5
/** Readings above this are spikes of the power meter, not power (the engine's bound). */
const MAX_POWER_W = 3000

/** A recording's power as one value per second from its start, NaN where it has none. */
export function perSecondPower(t: ArrayLike<number>, power: ArrayLike<number>): number[] {
  const n = t.length === 0 ? 0 : Math.floor(t[t.length - 1]! - t[0]!) + 1
  const sum = new Float64Array(n)
  const count = new Float64Array(n)
  for (let i = 0; i < t.length; i++) {
    const w = power[i]!
    if (!(w >= 0 && w <= MAX_POWER_W)) continue
    const s = Math.floor(t[i]! - t[0]!)
    const from =
      i > 0 && s - Math.floor(t[i - 1]! - t[0]!) <= MAX_FILL_S
        ? Math.floor(t[i - 1]! - t[0]!) + 1
        : s
    for (let k = Math.min(from, s); k <= s; k++) {
      sum[k] = sum[k]! + w
      count[k] = count[k]! + 1
    }
  }
  return Array.from(sum, (v, k) => (count[k]! > 0 ? v / count[k]! : NaN))
}

const r = (v: number | null, digits: number): number | null =>
  v === null || !Number.isFinite(v) ? null : Math.round(v * 10 ** digits) / 10 ** digits
const pair = (p: [number, number] | null) => (p ? [r(p[0], 4), r(p[1], 4)] : null)

/** The printed result (snake_case, SI; work in kJ as the fit is per 1,000 kJ). */
export function durabilityJson(files: string[], fit: DurabilityFit, warnings: string[][]) {
  return {
    rides: fit.rides.map((ride, i) => ({
      file: files[i],
      duration_s: ride.durationS,
      work_kj: r(ride.workKj, 0),
      best_5min_w: r(ride.bestW[0] ?? null, 0),
      best_20min_w: r(ride.bestW[1] ?? null, 0),
      warnings: warnings[i],
    })),
    durations: fit.durations.map((d) => ({
      duration_s: d.durationS,
      fraction_per_1000_kj: r(d.value, 4),
      ci95: pair(d.ci95),
      efforts_used: d.effortsUsed,
      rides_used: d.ridesUsed,
      residual_w: r(d.residualW, 1),
      reason: d.reason,
      efforts: d.efforts.map((e) => ({
        file: files[e.ride],
        start_s: e.startS,
        start_kj: r(e.startKj, 0),
        power_w: r(e.powerW, 0),
        relative: r(e.relative, 3),
        used: e.used,
      })),
    })),
    combined: fit.combined
      ? {
          fraction_per_1000_kj: r(fit.combined.value, 4),
          ci95: pair(fit.combined.ci95),
          clamped: fit.combined.clamped,
        }
      : null,
    combined_reason: fit.combinedReason,
  }
}

export async function durabilityCommand(args: string[]): Promise<number> {
  const p = parseArgs(args, [])
  if (p.positionals.length === 0)
    throw new UsageError('expected one or more ride files with power, got none')
  const series: number[][] = []
  const warnings: string[][] = []
  for (const path of p.positionals) {
    // The reader refuses a file without power, naming it (ImportError).
    const a = readActivity(readBytes(path), basename(path))
    series.push(perSecondPower(a.samples.t, a.samples.power))
    warnings.push(a.warnings)
  }
  printJson(
    durabilityJson(
      p.positionals.map((f) => basename(f)),
      fitDurability(series),
      warnings,
    ),
  )
  return 0
}

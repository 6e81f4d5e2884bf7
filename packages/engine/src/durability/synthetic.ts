// Long rides of a rider with a known durability, for the tests: endurance riding with maximal
// 20-min and 5-min efforts at chosen amounts of work, each at the rider's fresh maximal power
// times (1 − d · W / 1,000 kJ), W the work done when it begins, and a per-effort scatter (the
// day-to-day and effort-to-effort variation of maximal efforts).
import { createRandom } from '../aero/random.ts'

export interface SyntheticDurabilityRide {
  /** Fraction of maximal power lost per 1,000 kJ. */
  d: number
  seed: number
  /** Fresh maximal 5-min and 20-min power, W. */
  p5W?: number
  p20W?: number
  /** Mean endurance power between the efforts, W. */
  enduranceW?: number
  /** Work at which each pair of efforts (20 min, 15 min easy, 5 min) begins, kJ. */
  effortsAtKj?: number[]
  /** Relative standard deviation of an effort's power about the rider's maximal. */
  effortSd?: number
  /** Share of seconds without a reading (dropouts), scattered at random. */
  gapShare?: number
}

function gaussian(rand: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand())
}

/** One ride as per-second power (NaN for a dropout). */
export function syntheticDurabilityRide(o: SyntheticDurabilityRide): number[] {
  const rand = createRandom(o.seed)
  const endurance = o.enduranceW ?? 170
  const sd = o.effortSd ?? 0.02
  const p: number[] = []
  let work = 0
  const ride = (seconds: number, watts: number, jitter: number) => {
    for (let k = 0; k < seconds; k++) {
      const w = Math.max(0, watts + jitter * gaussian(rand))
      p.push(w)
      work += w
    }
  }
  const maximal = (fresh: number) => fresh * (1 - (o.d * work) / 1e6) * (1 + sd * gaussian(rand))
  for (const atKj of o.effortsAtKj ?? [100, 1000, 1900, 2800]) {
    while (work < atKj * 1000) ride(60, endurance, 25)
    ride(1200, maximal(o.p20W ?? 300), 10)
    ride(900, endurance, 25)
    ride(300, maximal(o.p5W ?? 380), 15)
    ride(600, endurance, 25)
  }
  ride(900, endurance, 25)
  const gaps = o.gapShare ?? 0.005
  return p.map((w) => (rand() < gaps ? NaN : w))
}

import type { PlanSection } from './tasks.ts'

const clock = (seconds: number) => {
  const s = Math.round(seconds)
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  return `${h}:${String(m).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`
}

/**
 * The plan as CSV (RFC 4180, comma separated, one row per section), in the units riders read:
 * km, %, W, km/h, elapsed h:mm:ss. A spreadsheet opens it as is.
 */
export function planCsv(sections: PlanSection[]): string {
  const header = [
    'section',
    'start_km',
    'end_km',
    'grade_pct',
    'target_power_w',
    'speed_kmh',
    'section_time_s',
    'elapsed',
    'w_prime_balance_kj',
  ]
  const rows = sections.map((s, i) =>
    [
      i + 1,
      (s.start_m / 1000).toFixed(3),
      (s.end_m / 1000).toFixed(3),
      (s.grade * 100).toFixed(1),
      Math.round(s.power_w),
      (s.speed_mps * 3.6).toFixed(1),
      s.duration_s.toFixed(1),
      clock(s.time_s),
      (s.w_prime_balance_j / 1000).toFixed(2),
    ].join(','),
  )
  return [header.join(','), ...rows].join('\r\n') + '\r\n'
}

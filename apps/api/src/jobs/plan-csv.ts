import type { PlanSection } from './tasks.ts'

const clock = (seconds: number) => {
  const s = Math.round(seconds)
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  return `${h}:${String(m).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`
}

/** RFC 4180 field: quoted when it holds a comma, a quote or a line break. */
const field = (v: string | number) => {
  const s = String(v)
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s
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
    'terrain',
    'grade_pct',
    'target_power_w',
    'speed_kmh',
    'section_time',
    'elapsed',
  ]
  const rows = sections.map((s, i) =>
    [
      i + 1,
      (s.start_m / 1000).toFixed(2),
      (s.end_m / 1000).toFixed(2),
      s.label,
      (s.grade * 100).toFixed(1),
      Math.round(s.power_w),
      (s.speed_mps * 3.6).toFixed(1),
      clock(s.duration_s),
      clock(s.elapsed_s),
    ]
      .map(field)
      .join(','),
  )
  return [header.map(field).join(','), ...rows].join('\r\n') + '\r\n'
}

import { checkSections, type PlanExport } from './types.ts'

const cell = (v: string | number) => {
  const s = String(v)
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s
}
const fixed = (v: number | undefined, d: number) => (v === undefined ? '' : v.toFixed(d))

/** The plan as CSV (one row per target, SI-derived km, km/h, %, s), for spreadsheets. */
export function writePlanCsv(plan: PlanExport): string {
  checkSections(plan)
  const rows = [
    [
      'section',
      'start_km',
      'end_km',
      'terrain',
      'grade_pct',
      'target_power_w',
      'expected_speed_kmh',
      'section_time_s',
      'elapsed_s',
    ].join(','),
  ]
  plan.sections.forEach((s, i) => {
    rows.push(
      [
        i + 1,
        (s.startM / 1000).toFixed(3),
        (s.endM / 1000).toFixed(3),
        cell(s.label ?? ''),
        fixed(s.grade === undefined ? undefined : s.grade * 100, 2),
        Math.round(s.powerW),
        fixed(s.speedMps === undefined ? undefined : s.speedMps * 3.6, 2),
        fixed(s.durationS, 1),
        fixed(s.timeS, 1),
      ].join(','),
    )
  })
  return `${rows.join('\n')}\n`
}

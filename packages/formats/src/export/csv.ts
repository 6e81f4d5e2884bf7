import { planTargets, sectionTargetKeys } from './targets.ts'
import { checkSections, type PlanExport } from './types.ts'

/** RFC 4180 field: quoted when it holds a comma, a quote or a line break. */
const cell = (v: string | number) => {
  const s = String(v)
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s
}
const fixed = (v: number | undefined, d: number) => (v === undefined ? '' : v.toFixed(d))

/** Elapsed time as riders read it on a top-tube sheet: h:mm:ss. */
const clock = (seconds: number | undefined) => {
  if (seconds === undefined) return ''
  const s = Math.round(seconds)
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  return `${h}:${String(m).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`
}

/**
 * The plan as CSV (RFC 4180: comma separated, CRLF, one row per section), the one writer of the
 * product: the export a run stores, the web's download and the CLI's file are the same bytes for
 * the same plan. Units riders and spreadsheets read: km, %, W, km/h, seconds, and the elapsed
 * time also as h:mm:ss. A `position` column is written when the plan names positions; a last
 * `target` column ("A", "B", … as on the race sheet, targets.ts) when the sections carry their
 * targets, so that readers of the columns before it read the file as they did.
 */
export function writePlanCsv(plan: PlanExport): string {
  checkSections(plan)
  const positions = plan.sections.some((s) => s.position !== undefined)
  const withTargets = plan.sections.every((s) => s.target !== undefined)
  const keys = withTargets
    ? sectionTargetKeys(planTargets(plan.sections), plan.sections.length)
    : null
  const header = [
    'section',
    'start_km',
    'end_km',
    'terrain',
    ...(positions ? ['position'] : []),
    'grade_pct',
    'target_power_w',
    'speed_kmh',
    'section_time_s',
    'elapsed_s',
    'elapsed',
    ...(keys ? ['target'] : []),
  ]
  const rows = plan.sections.map((s, i) =>
    [
      i + 1,
      (s.startM / 1000).toFixed(3),
      (s.endM / 1000).toFixed(3),
      s.label ?? '',
      ...(positions ? [s.position ?? ''] : []),
      fixed(s.grade === undefined ? undefined : s.grade * 100, 1),
      Math.round(s.powerW),
      fixed(s.speedMps === undefined ? undefined : s.speedMps * 3.6, 1),
      fixed(s.durationS, 1),
      fixed(s.timeS, 1),
      clock(s.timeS),
      ...(keys ? [keys[i]!] : []),
    ]
      .map(cell)
      .join(','),
  )
  return [header.join(','), ...rows].join('\r\n') + '\r\n'
}

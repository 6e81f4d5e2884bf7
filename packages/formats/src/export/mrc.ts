// The plan as an MRC file: the ERG course format (erg.ts) with each target as a percent of the
// rider's FTP, so the same file scales on a day the rider sets another FTP in the trainer app.
// The rider's FTP is taken as their CP, the same equivalence the rider setup page uses the other
// way round (docs/web-app.md: an FTP entered gives CP = FTP).
import { checkFtp, writeCourseFile } from './erg.ts'
import type { PlanExport } from './types.ts'

export function writePlanMrc(
  plan: PlanExport,
  options: { cpW: number; fileName?: string },
): string {
  const ftp = checkFtp(options.cpW, 'MRC')
  return writeCourseFile(
    plan,
    { fileName: options.fileName ?? `${plan.name}.mrc`, unit: 'PERCENT', ftpW: ftp },
    (w) => ((100 * w) / ftp).toFixed(1),
  )
}

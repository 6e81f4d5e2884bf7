// Every file a plan exports to, in one table the app's export buttons and the command line's
// `veloptima export` both read: what each writes, its file extension and media type, and whether
// it needs the route's positions or the rider's CP. The same plan gives the same bytes in both.
import { writePlanCsv } from './csv.ts'
import { writePlanErg } from './erg.ts'
import { writePlanFitCourse } from './fit-course.ts'
import { writePlanFitWorkout } from './fit-workout.ts'
import { writePlanGpx } from './gpx.ts'
import { writePlanMrc } from './mrc.ts'
import { ExportError, type PlanExport } from './types.ts'
import { writePlanZwo } from './zwo.ts'

/** What a writer is given beside the plan: the rider's CP and the file's name. */
export type PlanFileOptions = { cpW?: number | undefined; fileName: string }

export type PlanFormat = {
  /** what the file is, as a button or a help text names it */
  title: string
  extension: string
  mediaType: string
  write: (plan: PlanExport, o: PlanFileOptions) => string | Uint8Array
  /** needs the route's positions (a head unit follows them) */
  route?: true
  /** sets its targets relative to the rider's CP (taken as FTP) */
  cp?: true
  binary?: true
}

const cpOf = (o: PlanFileOptions, format: string): number => {
  if (o.cpW === undefined) {
    throw new ExportError(
      `A ${format} file sets targets relative to the rider's CP: cpW must be a power > 0 W, got nothing.`,
    )
  }
  return o.cpW
}

export type PlanFormatName = 'fit' | 'gpx' | 'csv' | 'erg' | 'mrc' | 'zwo' | 'fit-workout'

export const PLAN_FORMATS: Readonly<Record<PlanFormatName, PlanFormat>> = {
  fit: {
    title: 'FIT course',
    extension: 'fit',
    mediaType: 'application/vnd.ant.fit',
    write: (plan) => writePlanFitCourse(plan),
    route: true,
    binary: true,
  },
  gpx: {
    title: 'GPX',
    extension: 'gpx',
    mediaType: 'application/gpx+xml',
    write: (plan) => writePlanGpx(plan),
    route: true,
  },
  csv: {
    title: 'CSV',
    extension: 'csv',
    mediaType: 'text/csv',
    write: (plan) => writePlanCsv(plan),
  },
  erg: {
    title: 'ERG',
    extension: 'erg',
    mediaType: 'text/plain',
    write: (plan, o) => writePlanErg(plan, o),
  },
  mrc: {
    title: 'MRC',
    extension: 'mrc',
    mediaType: 'text/plain',
    write: (plan, o) => writePlanMrc(plan, { fileName: o.fileName, cpW: cpOf(o, 'MRC') }),
    cp: true,
  },
  zwo: {
    title: 'Zwift workout',
    extension: 'zwo',
    mediaType: 'application/xml',
    write: (plan, o) => writePlanZwo(plan, { cpW: cpOf(o, 'ZWO') }),
    cp: true,
  },
  'fit-workout': {
    title: 'FIT workout',
    extension: 'fit',
    mediaType: 'application/vnd.ant.fit',
    write: (plan) => writePlanFitWorkout(plan),
    binary: true,
  },
}

export const PLAN_FORMAT_NAMES = Object.keys(PLAN_FORMATS) as PlanFormatName[]

/** The format called `name`, or undefined for a name that is none. */
export const planFormat = (name: string): PlanFormat | undefined =>
  Object.hasOwn(PLAN_FORMATS, name) ? PLAN_FORMATS[name as PlanFormatName] : undefined

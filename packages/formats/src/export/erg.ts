// The plan as a time-based trainer file: the CompuTrainer ERG course format that TrainerRoad,
// Golden Cheetah, PerfPRO and most trainer apps read. A [COURSE HEADER] block (VERSION, UNITS,
// DESCRIPTION, FILE NAME, the column names), then [COURSE DATA] rows "minutes<TAB>value" with
// each change of target written as two rows at the same minute (the old value, then the new), so
// the trainer holds each power as a block. The time axis is the plan's predicted elapsed time:
// a trainer in ERG mode rides the race as the plan expects it to unfold. mrc.ts writes the same
// file in percent of FTP.
import { checkSections, ExportError, type PlanExport } from './types.ts'

/** One block of constant target power on the plan's time axis (s from the start). */
export type TimedStep = { startS: number; endS: number; powerW: number }

/**
 * The plan as blocks of constant power along its predicted time: adjacent sections whose powers
 * round to the same watt are one block. Each block's start and end are the plan's elapsed times
 * (a section's `timeS`, else the running sum of `durationS`). Refuses a plan whose sections carry
 * neither, naming the section and the fields.
 */
export function timedSteps(plan: PlanExport): TimedStep[] {
  checkSections(plan)
  const steps: TimedStep[] = []
  let before = 0
  plan.sections.forEach((s, i) => {
    const end = s.timeS ?? (s.durationS !== undefined ? before + s.durationS : undefined)
    if (end === undefined || !Number.isFinite(end) || end < before) {
      throw new ExportError(
        `Section ${i + 1}: a trainer file needs the plan's times (durationS or timeS), got ${
          end === undefined ? 'neither' : `an elapsed time of ${end} s after ${before} s`
        }.`,
      )
    }
    const last = steps.at(-1)
    if (last && Math.round(last.powerW) === Math.round(s.powerW)) last.endS = end
    else steps.push({ startS: before, endS: end, powerW: s.powerW })
    before = end
  })
  if (!(before > 0)) throw new ExportError('The plan’s times add up to 0 s: nothing to ride.')
  return steps
}

/** The rider's CP (used as FTP by trainer apps), required by the files written relative to it. */
export function checkFtp(cpW: number | undefined, format: string): number {
  if (cpW === undefined || !Number.isFinite(cpW) || cpW <= 0) {
    throw new ExportError(
      `${format} targets are a fraction of the rider's FTP: cpW must be a power > 0 W, got ${
        cpW === undefined ? 'nothing' : cpW
      }.`,
    )
  }
  return cpW
}

/** What a header line may hold: one line, no brackets (they open the file's sections). */
const headerText = (s: string) => s.replace(/[\r\n[\]]+/g, ' ').trim()

/**
 * A CompuTrainer course file: the header, then each block as two rows (its start and its end at
 * its value; the next block starts at the same minute). Minutes with 2 decimals (0.6 s).
 */
export function writeCourseFile(
  plan: PlanExport,
  file: { fileName: string; unit: 'WATTS' | 'PERCENT'; ftpW?: number },
  value: (powerW: number) => string,
): string {
  const steps = timedSteps(plan)
  const minutes = (s: number) => (s / 60).toFixed(2)
  const rows = steps.flatMap((s) => [
    `${minutes(s.startS)}\t${value(s.powerW)}`,
    `${minutes(s.endS)}\t${value(s.powerW)}`,
  ])
  return [
    '[COURSE HEADER]',
    'VERSION = 2',
    'UNITS = METRIC',
    `DESCRIPTION = ${headerText(plan.name)}`,
    `FILE NAME = ${headerText(file.fileName)}`,
    ...(file.ftpW !== undefined ? [`FTP = ${Math.round(file.ftpW)}`] : []),
    `MINUTES ${file.unit}`,
    '[END COURSE HEADER]',
    '[COURSE DATA]',
    ...rows,
    '[END COURSE DATA]',
    '',
  ].join('\r\n')
}

/** The plan as an ERG file: target watts over the plan's predicted time. */
export function writePlanErg(
  plan: PlanExport,
  options: { fileName?: string; cpW?: number } = {},
): string {
  return writeCourseFile(
    plan,
    { fileName: options.fileName ?? `${plan.name}.erg`, unit: 'WATTS', ftpW: options.cpW },
    (w) => String(Math.round(w)),
  )
}

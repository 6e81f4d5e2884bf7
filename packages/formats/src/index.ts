// Course and activity file readers (GPX, TCX, FIT, CSV and our JSON → engine types) and the plan
// writers: only what the apps, the CLI and the tests use.
export { ImportError } from './errors.ts'

// Courses: a file → raw points → the engine's Course
export { importCourse, readTrack, recordedRide, type ImportedCourse } from './read.ts'
export type { RawTrack, TrackFormat } from './types.ts'

// Activities: recorded rides and field tests → the engine's ActivitySamples
export { readActivity } from './activity/read.ts'
export type { ImportedActivity } from './activity/types.ts'

// Plan writers: CSV, GPX with the plan in extensions, FIT course with power targets, trainer
// files (ERG, MRC, ZWO) and the FIT workout
export { writePlanCsv } from './export/csv.ts'
export { writePlanFitCourse } from './export/fit-course.ts'
export { writePlanGpx } from './export/gpx.ts'
export { writePlanErg } from './export/erg.ts'
export { writePlanMrc } from './export/mrc.ts'
export { writePlanZwo } from './export/zwo.ts'
export { writePlanFitWorkout } from './export/fit-workout.ts'
export { ExportError } from './export/types.ts'
export { planTargets } from './export/targets.ts'
export {
  exportFeeds,
  exportSections,
  type ExportFeed,
  type ExportPoint,
  type PlanExport,
} from './export/types.ts'
export {
  PLAN_FORMAT_NAMES,
  PLAN_FORMATS,
  planFormat,
  type PlanFileOptions,
  type PlanFormat,
  type PlanFormatName,
} from './export/formats.ts'

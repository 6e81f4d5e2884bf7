// Plan writers: CSV, GPX with the plan in extensions, FIT course with power targets; the plan's
// targets as the race sheet shows them.
export { writePlanCsv } from './csv.ts'
export { writePlanGpx, PLAN_XMLNS } from './gpx.ts'
export { writePlanFitCourse } from './fit-course.ts'
export { planTargets, targetKey, targetStarts } from './targets.ts'
export type { ExportTarget } from './targets.ts'
export { ExportError, elapsedAt, exportSections, sectionAt } from './types.ts'
export type { ExportPoint, ExportSection, PlanExport } from './types.ts'

// Course and activity file readers: GPX, TCX, FIT and our JSON → raw points → engine Course.
export * from './errors.ts'
export * from './types.ts'
export { readTrack, importCourse, recordedRide } from './read.ts'
export type { ImportedCourse } from './read.ts'
export { isFitFile } from './fit.ts'
export * from './export/index.ts'
export * from './activity/index.ts'

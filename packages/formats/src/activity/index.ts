// Recorded activities (field tests, rides) → the engine's ActivitySamples, for the aero analysis.
export { readActivity } from './read.ts'
export type {
  ActivityDevice,
  ActivityFormat,
  ActivityLap,
  ImportedActivity,
  ReadActivityOptions,
} from './types.ts'

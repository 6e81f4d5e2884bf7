// Shapes of the jsonb columns. SI units throughout (m, m/s, kg, W, J, m², radians for angles
// only where named so; directions in degrees from north as riders read them).
import type { StoredSegmentRow, StoredSurface } from '@veloptima/engine'

/** A riding position of a rider setup: its drag area and the speed range where it is ridden. */
export type SetupPosition = {
  name: string
  /** Drag area CdA in m². */
  cda: number
  /** Speed range (m/s) where this position is used, e.g. the base bar below ~8 m/s on climbs. */
  min_speed: number
  max_speed: number
}

/** Rolling-resistance coefficient per surface class (dimensionless). */
export type CrrBySurface = Record<StoredSurface, number>

/** Course track as parallel arrays (compact in jsonb): one entry per cleaned point. */
export type CourseTrack = {
  lat: number[]
  lon: number[]
  /** Elevation in m after cleaning. */
  ele: number[]
  /** Distance along the track in m. */
  distance: number[]
}

export type Surface = StoredSurface

/**
 * A course segment as the engine reads it (start and end in m, grade as a fraction, heading in
 * degrees from north, curvature radius in m or null on straights, altitude in m, surface).
 */
export type CourseSegment = StoredSegmentRow & {
  /** Set when a user moved, split or merged it (automatic re-segmentation warns). */
  manual?: boolean
}

export type CourseStats = {
  distance: number
  ascent: number
  descent: number
  max_grade: number
  min_grade: number
  climbs?: { start: number; end: number; ascent: number; grade: number }[]
}

export type CourseSettings = {
  surface?: Surface
  wind?: { speed: number; direction: number }
  trim?: { start: number; end: number }
  segmentation?: 'coarse' | 'medium' | 'fine' | 'manual'
}

/** A device attached to an aero session, with its per-session calibration. */
export type SessionDevice = { device_id: string; role?: string; calibration_factor?: number }

export type JsonObject = Record<string, unknown>

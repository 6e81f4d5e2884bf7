// A FIT course file (file type 6) for head units: the route's records carry the plan's target
// power and the predicted time, and every place a target starts has a course point named by its
// power ("310 W"), which Garmin and Wahoo units announce along the way. A course file holds no
// workout steps (those belong to workout files, type 5), so course points are how a course
// carries the targets. The fuel plan's feeds are course points too (type food, or water for a
// drink without carbohydrate), named by what to take, so the unit says when to eat and drink.
import { Encoder, Profile } from '@garmin/fitsdk'
import { planTargets, targetStarts } from './targets.ts'
import {
  checkPoints,
  checkSections,
  elapsedAt,
  pointAt,
  sectionAt,
  type PlanExport,
} from './types.ts'

// The SDK types its message numbers as optional; these are all defined in the profile.
const M = Profile.MesgNum as Record<
  'FILE_ID' | 'COURSE' | 'LAP' | 'EVENT' | 'RECORD' | 'COURSE_POINT',
  number
>
type Mesg = Parameters<Encoder['onMesg']>[1]
/** The SDK types a message as a closed record; ours are the profile's field names. */
const mesg = (o: object): Mesg => o as Mesg

const SEMICIRCLES = 2 ** 31 / 180
const semi = (deg: number) => Math.round(deg * SEMICIRCLES)

/** A course point: where a target starts (generic) or a feed (food, or water). */
export type FitCoursePoint = {
  distanceM: number
  type: 'generic' | 'food' | 'water'
  name: string
  /** the ride's time there when known (a feed's, from the fuel plan), else the sections' */
  elapsedS?: number
}

/**
 * The course points in order of distance: each target's start, named by its power, and each
 * feed, named by what to take (a feed where a target starts comes after the target).
 */
export function coursePoints(plan: PlanExport): FitCoursePoint[] {
  const targets: FitCoursePoint[] = targetStarts(planTargets(plan.sections)).map(
    ({ target, range }) => ({
      distanceM: range.startM,
      type: 'generic',
      name: `${Math.round(target.powerW)} W`,
    }),
  )
  const feeds: FitCoursePoint[] = (plan.feeds ?? []).map((f) => ({
    distanceM: f.distanceM,
    type: f.carbohydrateG > 0 ? 'food' : 'water',
    name: f.label.slice(0, 32),
    ...(f.elapsedS !== undefined ? { elapsedS: f.elapsedS } : {}),
  }))
  // a stable sort: targets before feeds at the same distance
  return [...targets, ...feeds].sort((a, b) => a.distanceM - b.distanceM)
}

export function writePlanFitCourse(plan: PlanExport): Uint8Array {
  checkSections(plan)
  const points = checkPoints(plan)
  const start = plan.startTime ?? new Date(Date.UTC(2026, 0, 1, 8, 0, 0))
  const at = (s: number) => new Date(start.getTime() + Math.round(s * 1000))
  const last = points[points.length - 1]!
  const total = elapsedAt(plan.sections, last.distanceM)
  const name = plan.name.slice(0, 60)

  const e = new Encoder()
  e.onMesg(
    M.FILE_ID,
    mesg({
      type: 'course',
      manufacturer: 'development',
      product: 0,
      serialNumber: 1,
      timeCreated: start,
    }),
  )
  e.onMesg(M.COURSE, mesg({ name, sport: 'cycling' }))
  e.onMesg(
    M.LAP,
    mesg({
      messageIndex: 0,
      timestamp: at(total),
      startTime: start,
      startPositionLat: semi(points[0]!.lat),
      startPositionLong: semi(points[0]!.lon),
      endPositionLat: semi(last.lat),
      endPositionLong: semi(last.lon),
      totalElapsedTime: total,
      totalTimerTime: total,
      totalDistance: last.distanceM,
    }),
  )
  e.onMesg(
    M.EVENT,
    mesg({
      timestamp: start,
      event: 'timer',
      eventType: 'start',
      eventGroup: 0,
    }),
  )
  for (const p of points) {
    const s = sectionAt(plan.sections, p.distanceM)
    e.onMesg(
      M.RECORD,
      mesg({
        timestamp: at(elapsedAt(plan.sections, p.distanceM)),
        positionLat: semi(p.lat),
        positionLong: semi(p.lon),
        altitude: p.ele,
        distance: p.distanceM,
        power: Math.round(s.powerW),
        ...(s.speedMps !== undefined ? { speed: s.speedMps } : {}),
      }),
    )
  }
  coursePoints(plan).forEach((c, i) => {
    const p = pointAt(points, c.distanceM)
    e.onMesg(
      M.COURSE_POINT,
      mesg({
        messageIndex: i,
        timestamp: at(c.elapsedS ?? elapsedAt(plan.sections, c.distanceM)),
        positionLat: semi(p.lat),
        positionLong: semi(p.lon),
        distance: c.distanceM,
        type: c.type,
        name: c.name,
      }),
    )
  })
  e.onMesg(
    M.EVENT,
    mesg({
      timestamp: at(total),
      event: 'timer',
      eventType: 'stopAll',
      eventGroup: 0,
    }),
  )
  return e.close()
}

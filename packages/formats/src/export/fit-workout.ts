// The plan as a FIT workout file (file type 5) for head units and trainer apps that run
// structured workouts by distance: one workout step per stretch of road where a target applies
// (each range of each target, in course order), ended by distance and targeting the plan's
// power. A course file (fit-course.ts) carries the route; this one carries the targets as steps,
// which a unit shows with its power gauge and advances as the distance is ridden.
//
// FIT profile (@garmin/fitsdk's Profile): a step's `durationValue` is its distance in centimetres
// when `durationType` is distance (the `durationDistance` subfield, scale 100); a custom power
// target (`targetValue` 0) gives `customTargetValueLow`/`High` in the `workoutPower` convention:
// 0–1000 is percent of FTP, 1000 + W is watts (the type's `wattsOffset`).
import { Encoder, Profile } from '@garmin/fitsdk'
import { planTargets, targetStarts } from './targets.ts'
import { checkSections, type PlanExport } from './types.ts'

const M = Profile.MesgNum as Record<'FILE_ID' | 'WORKOUT' | 'WORKOUT_STEP', number>
type Mesg = Parameters<Encoder['onMesg']>[1]
const mesg = (o: object): Mesg => o as Mesg

/** The `workoutPower` type's offset: a value above it is watts. */
export const FIT_WATTS_OFFSET = 1000

/** Half-width of the power band a step asks for, as a fraction of its target (±3 %). */
const BAND = 0.03

/** One step of the workout: ride `powerW` (within `lowW`–`highW`) for `distanceM`. */
export type WorkoutStep = {
  name: string
  startM: number
  distanceM: number
  powerW: number
  lowW: number
  highW: number
}

/** The workout's steps: every range of every target, in course order. */
export function workoutSteps(plan: PlanExport): WorkoutStep[] {
  checkSections(plan)
  return targetStarts(planTargets(plan.sections)).map(({ target, range }) => {
    const w = Math.round(target.powerW)
    return {
      name: `${target.key} ${w} W`,
      startM: range.startM,
      distanceM: range.endM - range.startM,
      powerW: target.powerW,
      // whole watts outward, so the band holds the target however small (a coasted 0.2 W)
      lowW: Math.max(0, Math.floor(target.powerW * (1 - BAND))),
      highW: Math.ceil(target.powerW * (1 + BAND)),
    }
  })
}

export function writePlanFitWorkout(plan: PlanExport): Uint8Array {
  const steps = workoutSteps(plan)
  const created = plan.startTime ?? new Date(Date.UTC(2026, 0, 1, 8, 0, 0))
  const e = new Encoder()
  e.onMesg(
    M.FILE_ID,
    mesg({
      type: 'workout',
      manufacturer: 'development',
      product: 0,
      serialNumber: 1,
      timeCreated: created,
    }),
  )
  e.onMesg(
    M.WORKOUT,
    mesg({ wktName: plan.name.slice(0, 60), sport: 'cycling', numValidSteps: steps.length }),
  )
  steps.forEach((s, i) => {
    e.onMesg(
      M.WORKOUT_STEP,
      mesg({
        messageIndex: i,
        wktStepName: s.name,
        durationType: 'distance',
        durationValue: Math.round(s.distanceM * 100),
        targetType: 'power',
        targetValue: 0,
        customTargetValueLow: FIT_WATTS_OFFSET + s.lowW,
        customTargetValueHigh: FIT_WATTS_OFFSET + s.highW,
        intensity: 'active',
      }),
    )
  })
  return e.close()
}

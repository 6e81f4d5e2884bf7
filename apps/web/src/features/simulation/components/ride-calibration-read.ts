// Reading a ride for "Calibrate CdA and Crr from a ride": every activity format the product reads
// (FIT, TCX, GPX with power, GoldenCheetah JSON, CSV, iBike CSV; packages/formats' activity
// readers), then one of two fits (docs/web-app.md, rider setups):
// - a road ride with GPS and elevation: the course is built from the ride's own points and the
//   engine calibrates on it (calibrateRecordedRide: energy balance, then the replay closure);
// - a ride without GPS or without elevation (a velodrome, a trainer-less indoor track, a CSV
//   export): the virtual-elevation fit of the engine's aero module over the whole ride, on its
//   velodrome model when the file has neither GPS nor elevation (a flat 250 m track), on a flat
//   road when it has GPS but no elevation, on the recorded elevation otherwise.
import {
  analyzeAero,
  buildCourse,
  DEFAULT_TRACK,
  recordedSegments,
  type ActivitySamples,
  type BuiltCourse,
  type RecordedRide,
} from '@veloptima/engine'
import type { ImportedActivity } from '@veloptima/formats'

/** The extensions the file picker offers (the readers decide by content, not by name). */
export const CALIBRATION_ACCEPT = '.fit,.tcx,.gpx,.json,.csv,.txt'
/** The formats, as the panel lists them. */
export const CALIBRATION_FORMATS =
  'FIT, TCX, GPX with power, GoldenCheetah JSON, CSV (time, speed, power) or iBike CSV'

/** The masses and efficiency of the setup being edited (SI), NaN when not entered. */
export type CalibrationRider = { massKg: number; bikeMassKg: number; efficiency: number }

const finiteShare = (a: ArrayLike<number> | null) => {
  if (!a || a.length === 0) return 0
  let k = 0
  for (let i = 0; i < a.length; i++) if (Number.isFinite(a[i]!)) k++
  return k / a.length
}

/** Which fit a ride gets: its own course (GPS and elevation on most samples) or the VE fit. */
export function calibrationRoute(samples: ActivitySamples): 'course' | 'virtual-elevation' {
  const gps = Math.min(finiteShare(samples.lat), finiteShare(samples.lon))
  return gps >= 0.5 && finiteShare(samples.altitude) >= 0.5 ? 'course' : 'virtual-elevation'
}

/**
 * Points for course building from an activity (epoch seconds when the file has a date, else
 * seconds from the start), with the recorded power.
 */
export function activityTrack(activity: ImportedActivity) {
  const s = activity.samples
  const n = s.t.length
  const nan = () => new Float64Array(n).fill(NaN)
  const origin = Number.isFinite(activity.startEpochS) ? activity.startEpochS : 0
  return {
    lat: s.lat ?? nan(),
    lon: s.lon ?? nan(),
    ele: s.altitude ?? nan(),
    distance: s.distance ?? nan(),
    time: s.t.map((t) => origin + t),
    power: s.power,
  }
}

export type ActivityCourse = BuiltCourse & { track: ReturnType<typeof activityTrack> }

/** The course of a road ride and its recording cut into the course's segments. */
export function rideOnOwnCourse(activity: ImportedActivity): {
  built: ActivityCourse
  ride: RecordedRide
} {
  const track = activityTrack(activity)
  const built = { ...buildCourse(track), track }
  const points = { timeS: track.time, distanceM: built.pointDistanceM, powerW: track.power }
  const recorded = recordedSegments(built.course, points)
  return { built, ride: { course: built.course, recorded, points } }
}

/** A CdA and Crr from the virtual-elevation fit, with the model it used and why. */
export type VeCalibration = {
  model: 'track' | 'flat' | 'elevation'
  cdaM2: { value: number; ci95: [number, number] }
  crr: { value: number; ci95: [number, number] }
  samplesUsed: number
  durationS: number
  /** RMSE of the virtual against the measured (or flat) elevation, m. */
  rmseM: number
  /** What the fit assumed, in the panel's words. */
  note: string
  warnings: string[]
}

/** Plausible values of a rider's CdA (m²) and a tyre's Crr on a bike. */
const CDA_RANGE: [number, number] = [0.1, 0.8]
const CRR_RANGE: [number, number] = [0.001, 0.02]

/**
 * CdA and Crr of the whole ride by the virtual-elevation fit, for a ride without GPS or
 * elevation (see the file's header). Throws an Error whose message speaks of the calibration
 * when the ride cannot give physical values.
 */
export function calibrateByVirtualElevation(
  activity: ImportedActivity,
  rider: CalibrationRider,
  temperatureC: number,
): VeCalibration {
  const s = activity.samples
  const n = s.t.length
  const durationS = s.t[n - 1]! - s.t[0]!
  const analysis = analyzeAero(s, {
    massKg: rider.massKg + rider.bikeMassKg,
    drivetrainEfficiency: rider.efficiency,
    // The typed air temperature at standard sea-level pressure.
    environment: { temperatureC, pressurePa: 101_325 },
    method: 've',
    runs: [{ startT: s.t[0]!, endT: s.t[n - 1]!, label: 'the ride' }],
  })
  const run = analysis.runs[0]
  const cda = run?.cda ?? NaN
  const crr = run?.crr ?? analysis.crr
  const withheld = (run as { withheld?: { reason: string }[] } | undefined)?.withheld ?? []
  if (!(cda >= CDA_RANGE[0] && cda <= CDA_RANGE[1]) || !(crr > 0)) {
    const why = withheld.map((w) => w.reason).join('; ')
    throw new Error(
      `This ride cannot be calibrated: its power and speed give no plausible CdA` +
        (Number.isFinite(cda) ? ` (${cda.toFixed(3)} m²)` : '') +
        `${why ? ` (${why})` : ''}. Check the rider and bike masses, or use a ride at a steady effort without coasting.`,
    )
  }
  const model: VeCalibration['model'] =
    analysis.veModel === 'track' ? 'track' : s.altitude ? 'elevation' : 'flat'
  const note =
    model === 'track'
      ? `The file has no GPS and no elevation: calibrated as a velodrome ride (a flat ${DEFAULT_TRACK.lapLengthM} m track with bends of ${DEFAULT_TRACK.bendRadiusM} m, the lean in the bends taken into account), in still air at ${temperatureC} °C.`
      : model === 'flat'
        ? `The file has no elevation: calibrated as a ride on flat ground, in still air at ${temperatureC} °C.`
        : `The file has no GPS positions: calibrated on its recorded elevation in still air at ${temperatureC} °C (no wind can be fitted without headings).`
  // The note already names the velodrome geometry: its restatement is left out.
  const warnings = analysis.warnings.filter(
    (w) => !w.startsWith(`velodrome model: ${DEFAULT_TRACK.lapLengthM} m lap`),
  )
  if (!(crr >= CRR_RANGE[0] && crr <= CRR_RANGE[1])) {
    warnings.push(
      `The fitted Crr ${crr.toFixed(4)} is outside the usual ${CRR_RANGE[0]}–${CRR_RANGE[1]} of bicycle tyres: this ride separates it poorly from CdA.`,
    )
  }
  return {
    model,
    cdaM2: { value: cda, ci95: run!.cdaCi95 },
    crr: { value: crr, ci95: run!.crrCi95 },
    samplesUsed: run!.samplesUsed,
    durationS,
    rmseM: run!.veRmseM,
    note,
    warnings,
  }
}

/** A reader's refusal in the words of the calibration (the readers also serve the aero area). */
export function calibrationMessage(message: string): string {
  return message
    .replace(/the aero analysis needs/g, 'calibration needs')
    .replace(/the aero analysis/g, 'the calibration')
}

import { calibrateRecordedRide } from '@veloptima/engine'
import { importCourse, ImportError, readActivity, recordedRide } from '@veloptima/formats'
import { describe, expect, it } from 'vitest'
import { needs } from '../../../../../../scripts/test-data.ts'
import { itWith } from '../../../../../../scripts/test-data-vitest.ts'
import { gcJsonOf } from './ride-calibration-fixtures.ts'
import {
  calibrateByVirtualElevation,
  calibrationMessage,
  calibrationRoute,
  rideOnOwnCourse,
} from './ride-calibration-read.ts'

// The calibration reads every activity format with the activity readers, then fits on the
// ride's own course (GPS and elevation) or by virtual elevation (velodrome or flat model).
const rider = { massKg: 76, bikeMassKg: 8, efficiency: 0.976 }
const input = {
  massKg: rider.massKg,
  bikeMassKg: rider.bikeMassKg,
  drivetrainEfficiency: rider.efficiency,
  environment: { temperatureC: 20 },
}
const activityOf = (f: string) => readActivity(needs(f).read(f), f)

describe('calibration from every activity format', () => {
  const fit = 'rides/edge810-vector-power.fit'
  itWith(
    [fit],
    'FIT with GPS and altitude: on its own course, the same fit as the course importer gives',
    () => {
      const activity = activityOf(fit)
      expect(calibrationRoute(activity.samples)).toBe('course')
      const mine = calibrateRecordedRide(rideOnOwnCourse(activity).ride, input)
      // Independent path: the course importer reads the same file with the track readers.
      const imported = importCourse(needs(fit).read(fit), fit)
      const theirs = calibrateRecordedRide(
        {
          course: imported.course,
          recorded: recordedRide(imported)!,
          points: {
            timeS: imported.track.time,
            distanceM: imported.pointDistanceM,
            powerW: imported.track.power!,
          },
        },
        input,
      )
      expect(mine.cdaM2.value).toBeCloseTo(theirs.cdaM2.value, 3)
      expect(mine.crr.value).toBeCloseTo(theirs.crr.value, 4)
      // 77.5 min ridden, as the e2e journey and the CLI read it.
      expect(mine.replay.recordedTimeS / 60).toBeCloseTo(77.5, 1)
    },
    120_000,
  )

  itWith(
    [fit],
    'GoldenCheetah JSON of the same ride: read as an activity (the course importer refuses it), same CdA',
    () => {
      const activity = activityOf(fit)
      const json = new TextEncoder().encode(gcJsonOf(activity))
      expect(() => importCourse(json, 'ride.json')).toThrow(/"points" array/)
      const gc = readActivity(json, 'ride.json')
      expect(gc.format).toBe('gc_json')
      expect(calibrationRoute(gc.samples)).toBe('course')
      const fromGc = calibrateRecordedRide(rideOnOwnCourse(gc).ride, input)
      const fromFit = calibrateRecordedRide(rideOnOwnCourse(activity).ride, input)
      expect(Math.abs(fromGc.cdaM2.value - fromFit.cdaM2.value)).toBeLessThan(0.005)
    },
    120_000,
  )

  const velodrome = 'aero/velodrome-2015-a.tcx'
  itWith(
    [velodrome],
    'velodrome TCX without GPS or elevation: the course importer refuses it, the track model fits it',
    () => {
      expect(() => importCourse(needs(velodrome).read(velodrome), velodrome)).toThrow(
        /expected elevation data/,
      )
      const activity = activityOf(velodrome)
      expect(calibrationRoute(activity.samples)).toBe('virtual-elevation')
      const v = calibrateByVirtualElevation(activity, rider, 20)
      expect(v.model).toBe('track')
      expect(v.note).toMatch(/velodrome ride \(a flat 250 m track/)
      expect(v.warnings.some((w) => w.includes('freewheeling'))).toBe(true)
      expect(v.warnings.some((w) => w.includes('250 m lap'))).toBe(false)
      // A rider on a track bike: CdA between a full tuck (0.17) and sitting up (0.40), Crr of
      // track tyres on wood; the 95 % interval holds the value.
      expect(v.cdaM2.value).toBeGreaterThan(0.17)
      expect(v.cdaM2.value).toBeLessThan(0.4)
      expect(v.cdaM2.ci95[0]).toBeLessThan(v.cdaM2.value)
      expect(v.cdaM2.ci95[1]).toBeGreaterThan(v.cdaM2.value)
      expect(v.crr.value).toBeGreaterThan(0.001)
      expect(v.crr.value).toBeLessThan(0.01)
    },
  )

  const csv = 'aero/airspeed-bom.csv'
  const ibike = 'aero/ibike-windspeed.csv'
  for (const f of [csv, ibike]) {
    itWith([f], `${f}: elevation without GPS, fitted on the recorded elevation`, () => {
      const activity = activityOf(f)
      expect(activity.format).toBe(f === csv ? 'csv' : 'ibike_csv')
      expect(calibrationRoute(activity.samples)).toBe('virtual-elevation')
      const v = calibrateByVirtualElevation(activity, rider, 20)
      expect(v.model).toBe('elevation')
      expect(v.note).toMatch(/no GPS positions: calibrated on its recorded elevation/)
      expect(v.cdaM2.value).toBeGreaterThan(0.1)
      expect(v.cdaM2.value).toBeLessThan(0.8)
    })
  }

  const gpx = 'courses/stuttgart-recorded-missing-ele.gpx'
  itWith(
    [gpx],
    'GPX with power (some points without elevation): on its own course',
    () => {
      const activity = activityOf(gpx)
      expect(activity.format).toBe('gpx')
      expect(calibrationRoute(activity.samples)).toBe('course')
      const r = calibrateRecordedRide(rideOnOwnCourse(activity).ride, input)
      expect(r.cdaM2.value).toBeGreaterThan(0.1)
      expect(Math.abs(r.replay.errorPct)).toBeLessThan(2)
    },
    120_000,
  )

  const outdoor = 'aero/open-air-helmet.tcx'
  itWith([outdoor], 'GPS without elevation (the same ride, altitude removed): flat ground', () => {
    const activity = activityOf(outdoor)
    expect(calibrationRoute(activity.samples)).toBe('course')
    const flat = { ...activity, samples: { ...activity.samples, altitude: null } }
    expect(calibrationRoute(flat.samples)).toBe('virtual-elevation')
    const v = calibrateByVirtualElevation(flat, rider, 20)
    expect(v.model).toBe('flat')
    expect(v.note).toMatch(/^The file has no elevation: calibrated as a ride on flat ground/)
  })
})

describe('calibrationMessage: a reader refusal in the words of the calibration', () => {
  it('a ride without power names what calibration needs, not the aero analysis', () => {
    const noPower = new TextEncoder().encode('time,speed\n0,10\n1,10\n2,10\n')
    let message = ''
    try {
      readActivity(noPower, 'trainer.csv')
    } catch (e) {
      expect(e).toBeInstanceOf(ImportError)
      message = calibrationMessage((e as Error).message)
    }
    expect(message).toMatch(/^trainer\.csv: .*no power data.*calibration needs power/)
    expect(message).not.toMatch(/aero analysis/)
  })
})

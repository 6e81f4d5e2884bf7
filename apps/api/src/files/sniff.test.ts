import { describe, expect, it } from 'vitest'
import { aeroSensorFit } from '../../../../packages/formats/src/activity/fixtures.ts'
import { syntheticClimb } from '../../../../packages/formats/test/fixtures/synthetic-climb.ts'
import { needs } from '../../../../scripts/test-data.ts'
import { itWith } from '../../../../scripts/test-data-vitest.ts'
import { sniff, xmlRootName } from './sniff.ts'

// Real files recorded by devices and exported by route planners (the real-world files,
// scripts/test-data.ts: skipped, naming them, when absent), and self-made ones.
const data = (path: string) => needs(path).read(path)
const REAL = [
  'courses/alpe-dhuez.gpx',
  'courses/stuttgart-recorded-missing-ele.gpx',
  'aero/open-air-helmet.tcx',
  'aero/velodrome-2015-a.tcx',
  'rides/edge810-vector-power.fit',
  'rides/elemnt-devfields.fit',
  'aero/airspeed-bom.csv',
]

describe('content sniffing', () => {
  it('recognizes self-made GPX, FIT and CSV files by their contents', () => {
    expect(sniff(Buffer.from(syntheticClimb().gpx))?.kind).toBe('gpx')
    const fit = aeroSensorFit({
      n: 30,
      t0: new Date(Date.UTC(2024, 4, 1)),
      speed: () => 9,
      power: () => 200,
      fields: [],
    })
    expect(sniff(Buffer.from(fit))?.kind).toBe('fit')
    expect(
      sniff(Buffer.from('\ufefftime,speed (km/h),power (W)\n0,30,200\n1,31,210\n'))?.kind,
    ).toBe('csv')
  })

  itWith(REAL, 'recognizes real GPX, TCX and FIT files by their contents', () => {
    expect(sniff(data('courses/alpe-dhuez.gpx'))?.kind).toBe('gpx')
    expect(sniff(data('courses/stuttgart-recorded-missing-ele.gpx'))?.kind).toBe('gpx')
    expect(sniff(data('aero/open-air-helmet.tcx'))?.kind).toBe('tcx')
    expect(sniff(data('aero/velodrome-2015-a.tcx'))?.kind).toBe('tcx')
    expect(sniff(data('rides/edge810-vector-power.fit'))?.kind).toBe('fit')
    expect(sniff(data('rides/elemnt-devfields.fit'))?.kind).toBe('fit')
    expect(sniff(data('aero/airspeed-bom.csv'))?.kind).toBe('csv')
  })

  it('finds the XML root past a BOM, the prolog and comments', () => {
    expect(xmlRootName('\uFEFF<?xml version="1.0"?><!-- hi --><gpx></gpx>')).toBe('gpx')
    expect(xmlRootName('<tcx:TrainingCenterDatabase xmlns:tcx="x"/>')).toBe(
      'TrainingCenterDatabase',
    )
  })

  it('refuses other XML, binary noise, broken JSON and plain prose', () => {
    expect(sniff(Buffer.from('<?xml version="1.0"?><kml></kml>'))).toBeUndefined()
    expect(sniff(Buffer.from([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]))).toBeUndefined()
    expect(sniff(Buffer.from('{"a": '))).toBeUndefined()
    expect(sniff(Buffer.from('hello there'))).toBeUndefined()
    expect(sniff(new Uint8Array())).toBeUndefined()
  })

  it('recognizes images, PDF and JSON by their signatures', () => {
    expect(sniff(Buffer.from('\x89PNG\r\n\x1a\n0000', 'latin1'))?.kind).toBe('png')
    expect(sniff(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0]))?.kind).toBe('jpeg')
    expect(sniff(Buffer.from('%PDF-1.7\n'))?.kind).toBe('pdf')
    expect(sniff(Buffer.from('[1,2,3]'))?.kind).toBe('json')
  })
})

// The table of export formats the app and the command line share: each entry writes the same
// bytes as its writer called directly, asks for what it needs (route, CP) and names it when
// missing.
import { describe, expect, it } from 'vitest'
import { writePlanErg } from './erg.ts'
import { writePlanFitCourse } from './fit-course.ts'
import { PLAN_FORMAT_NAMES, PLAN_FORMATS, planFormat } from './formats.ts'
import type { PlanExport } from './types.ts'

const plan: PlanExport = {
  name: 'Two targets',
  sections: [
    { startM: 0, endM: 2000, powerW: 280, durationS: 200, timeS: 200, target: 0 },
    { startM: 2000, endM: 3000, powerW: 340, durationS: 150, timeS: 350, target: 1 },
  ],
  points: [
    { lat: 45, lon: 6, ele: 100, distanceM: 0 },
    { lat: 45.01, lon: 6, ele: 110, distanceM: 1500 },
    { lat: 45.02, lon: 6, ele: 140, distanceM: 3000 },
  ],
  startTime: new Date(Date.UTC(2026, 5, 1, 8)),
}
const options = { cpW: 300, fileName: 'two.erg' }
const text = (v: string | Uint8Array) => (typeof v === 'string' ? v : new TextDecoder().decode(v))

describe('the plan formats', () => {
  it('are the seven files a plan exports to, each with an extension and a media type', () => {
    expect(PLAN_FORMAT_NAMES).toEqual(['fit', 'gpx', 'csv', 'erg', 'mrc', 'zwo', 'fit-workout'])
    for (const name of PLAN_FORMAT_NAMES) {
      const f = PLAN_FORMATS[name]
      expect(f.extension).toMatch(/^[a-z]+$/)
      expect(f.mediaType).toMatch(/^[a-z]+\/[a-z.+-]+$/)
    }
    expect(planFormat('zwo')).toBe(PLAN_FORMATS.zwo)
    expect(planFormat('toString')).toBeUndefined()
  })
  it('write what their writers write', () => {
    expect(PLAN_FORMATS.erg.write(plan, options)).toBe(writePlanErg(plan, options))
    expect(PLAN_FORMATS.fit.write(plan, options)).toEqual(writePlanFitCourse(plan))
  })
  it('start with each file kind’s own header', () => {
    const heads: Record<string, RegExp> = {
      gpx: /^<\?xml[^>]*>\s*<gpx /,
      csv: /^section,start_km/,
      erg: /^\[COURSE HEADER\]\r\n/,
      mrc: /^\[COURSE HEADER\][\s\S]*MINUTES PERCENT/,
      zwo: /^<\?xml[^>]*>\s*<workout_file>/,
    }
    for (const [name, head] of Object.entries(heads))
      expect(text(planFormat(name)!.write(plan, options))).toMatch(head)
    for (const name of ['fit', 'fit-workout'] as const) {
      const bytes = PLAN_FORMATS[name].write(plan, options) as Uint8Array
      // a FIT file's header: its size, then ".FIT" at bytes 8–11
      expect(new TextDecoder().decode(bytes.slice(8, 12))).toBe('.FIT')
      expect(PLAN_FORMATS[name].binary).toBe(true)
    }
  })
  it('name what is missing: the CP for MRC and ZWO, the route for FIT course and GPX', () => {
    expect(PLAN_FORMATS.mrc.cp && PLAN_FORMATS.zwo.cp).toBe(true)
    expect(() => PLAN_FORMATS.zwo.write(plan, { fileName: 'x.zwo' })).toThrow(/cpW .* nothing/)
    expect(PLAN_FORMATS.fit.route && PLAN_FORMATS.gpx.route).toBe(true)
    const { points: _, ...noRoute } = plan
    expect(() => PLAN_FORMATS.gpx.write(noRoute, options)).toThrow(/no positions/)
  })
})

// The aero analysis of a road test in the air it was ridden in, against the local
// Open-Meteo stand-in: a session that states no air gets the historical temperature, pressure and
// humidity of its first file's place and hours (the archive path), and the stored version says
// which weather; a session that states its air asks nothing; a file without GPS says why not.
// On real-world field tests (scripts/test-data.ts: skipped, naming them, when absent).
import { beforeAll, describe, expect } from 'vitest'
import { needs } from '../../../../scripts/test-data.ts'
import { itWith } from '../../../../scripts/test-data-vitest.ts'
import { postFile } from '../../test/files-helpers.ts'
import { eventually } from '../../test/runs-helpers.ts'
import { suiteWeatherApp } from '../../test/weather-fixture.ts'
import { standInWeather } from './stand-in.ts'

const shared = (path: string) => needs(path).read(path)
type Weather = {
  status: string
  label?: string
  reason?: string
  temperature_c?: number
  pressure_pa?: number
  relative_humidity?: number
}

const t = suiteWeatherApp('aero-weather')
let auth: { authorization: string }

beforeAll(async () => {
  await t.app.jobs.start({ workers: 1 })
  auth = await t.signIn({ uid: 'ann' })
}, 60_000)

/** A session with `environment`, one file uploaded, its first analysis once finished. */
async function analysed(environment: Record<string, number>, file: string) {
  const s = await t.app.inject({
    method: 'POST',
    url: '/api/aero-sessions',
    headers: auth,
    payload: { name: 'Weather day', format: 'v6', environment },
  })
  expect(s.statusCode, s.body).toBe(201)
  const id = s.json<{ id: string }>().id
  const up = await postFile(
    t.app,
    `/api/aero-sessions/${id}/files`,
    auth,
    file,
    shared(`aero/${file}`),
  )
  expect(up.statusCode, up.body).toBe(201)
  return eventually(
    async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/aero-sessions/${id}/analyses`,
        headers: auth,
      })
      const v = res
        .json<{
          items: { version: number; status: string; summary: { weather?: Weather } | null }[]
        }>()
        .items.find((x) => x.version === 1)
      return v && v.status !== 'queued' && v.status !== 'running' ? v : undefined
    },
    180_000,
    'analysis v1',
  )
}

describe('aero analysis with the historical air', () => {
  itWith(
    ['aero/helmet-test-2018-10-03-07-45-28.fit'],
    'no air stated, a FIT with GPS and time: the archive air of its place and hours, said in the result',
    async () => {
      t.standIn.requests.length = 0
      // GoldenCheetah's helmet test: 32.17° N 95.56° W, 2018-10-03 12:45:28 UTC, 927 s.
      const v = await analysed({ mass_kg: 85 }, 'helmet-test-2018-10-03-07-45-28.fit')
      expect(v.status).toBe('succeeded')
      const w = v.summary!.weather!
      expect(w.status).toBe('used')
      expect(w.label).toBe('Open-Meteo archive, 32.17° N 95.56° W, 2018-10-03 12:00 – 14:00 UTC')
      expect(t.standIn.requests.map((r) => r.pathname)).toEqual(['/v1/archive'])
      // The mean of the stand-in's own weather at that cell over 12:00, 13:00 and 14:00 UTC.
      const hours = [12, 13, 14].map((h) => Date.parse(`2018-10-03T${h}:00:00Z`) / 1000)
      const truth = hours.map((h) => standInWeather(32.17, -95.56, h))
      const mean = (f: (x: (typeof truth)[number]) => number) =>
        truth.reduce((a, x) => a + f(x), 0) / truth.length
      expect(Math.abs(w.temperature_c! - mean((x) => x.temperatureC))).toBeLessThan(0.15)
      expect(Math.abs(w.pressure_pa! - mean((x) => x.surfacePressureHpa) * 100)).toBeLessThan(100)
      expect(Math.abs(w.relative_humidity! - mean((x) => x.humidityPct) / 100)).toBeLessThan(0.02)
    },
    300_000,
  )

  itWith(
    ['aero/helmet-test-2018-10-03-07-45-28.fit'],
    'air stated by the session: nothing asked, no weather in the result',
    async () => {
      const asked = t.standIn.requests.length
      const v = await analysed(
        { mass_kg: 85, temperature_c: 18, pressure_pa: 100_500 },
        'helmet-test-2018-10-03-07-45-28.fit',
      )
      expect(v.status).toBe('succeeded')
      expect(v.summary!.weather).toBeUndefined()
      expect(t.standIn.requests.length).toBe(asked)
    },
    300_000,
  )

  itWith(
    ['aero/velodrome-2015-a.tcx'],
    'a velodrome file without GPS: no historical weather, and why',
    async () => {
      const v = await analysed({ mass_kg: 80 }, 'velodrome-2015-a.tcx')
      expect(v.status).toBe('succeeded')
      expect(v.summary!.weather).toMatchObject({ status: 'unavailable', reason: 'no_position' })
    },
    300_000,
  )
})

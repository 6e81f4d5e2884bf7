// GET /api/aero/planner, the aero test planner before a test (docs/engine/aero.md, "Test
// planner"): the runs per configuration from the two-sample formula, the run-to-run scatter of the
// caller's stored sessions (pooled over sessions by degrees of freedom; another user's sessions
// never read, a team's read by its members), 400 naming a bad field, 403 without the aero claim,
// and the day's hours at a place ranked by the wind at rider height from the local Open-Meteo
// stand-in (or "disabled" without weather).
import { beforeAll, describe, expect, it } from 'vitest'
import { aeroDataBlocks, aeroRuns, aeroSessions } from '@veloptima/db'
import { windHeightFactor } from '@veloptima/engine'
import { standInWeather } from '../src/weather/stand-in.ts'
import { createTeam, createUser, tempDir } from './files-helpers.ts'
import { startTestApp } from './helpers.ts'
import { suiteWeatherApp } from './weather-fixture.ts'

// Standard normal quantiles, written out: z0.975 for a two-sided 5 % test, z0.8 and z0.9 for
// 80 % and 90 % power.
const Z975 = 1.959964
const Z = { 0.8: 0.841621, 0.9: 1.281552 }
/** n per group = ceil(2·(z0.975 + z_power)²·σ²/Δ²) (docs/engine/aero.md, "Test planner"). */
const formula = (sd: number, delta: number, zPower: number) =>
  Math.ceil((2 * (Z975 + zPower) ** 2 * sd ** 2) / delta ** 2)

/** Pooled standard deviation within groups: √(Σ squared deviations from each group's mean / Σ (n − 1)). */
function pooledSd(groups: number[][]): { sd: number; dof: number } {
  let ss = 0
  let dof = 0
  for (const g of groups) {
    const mean = g.reduce((a, b) => a + b, 0) / g.length
    ss += g.reduce((a, x) => a + (x - mean) ** 2, 0)
    dof += g.length - 1
  }
  return { sd: Math.sqrt(ss / dof), dof }
}

type Planner = {
  delta_cda_m2: number
  power: number
  run_minutes: number
  run_sd_m2: number
  run_sd_source: 'sessions' | 'default'
  scatter_from: { sessions: number; runs: number; degrees_of_freedom: number }
  runs_per_configuration: number
  total_runs: number
  riding_time_s: number
  weather: {
    status: string
    reason?: string
    message?: string
    utc_offset_s?: number
    hours?: {
      time: string
      local_time: string
      wind_speed_mps: number
      wind_speed_10m_mps: number
      temperature_c: number
      calm: boolean
    }[]
  }
}

const t = suiteWeatherApp('aero-planner')
const auth: Record<string, { authorization: string }> = {}

beforeAll(async () => {
  for (const uid of ['ann', 'ben', 'cat', 'dan', 'eve']) auth[uid] = await t.signIn({ uid })
})

const plan = (uid: string, query = '') =>
  t.app.inject({ method: 'GET', url: `/api/aero/planner${query}`, headers: auth[uid] })

/** A stored session with analysed runs: configuration label → CdA of each run, of one version. */
async function storedSession(
  owner: { ownerUid: string } | { ownerTeam: string },
  runs: Record<string, (number | null)[]>,
  version = 1,
) {
  const [s] = await t.database.db
    .insert(aeroSessions)
    .values({ name: 'Test day', format: 'v6', ...owner })
    .returning()
  let position = 0
  for (const [setup, cdas] of Object.entries(runs)) {
    for (const cda of cdas) {
      await t.database.db.insert(aeroRuns).values({
        sessionId: s!.id,
        name: `Run ${position + 1}`,
        position: position++,
        configuration: { setup },
        results: { version, cda, method: 've' },
      })
    }
  }
  return s!.id
}

describe('GET /api/aero/planner', () => {
  it('with no sessions: the typical scatter 0.015 m² and the formula’s count for each Δ and power', async () => {
    const res = await plan('dan')
    expect(res.statusCode, res.body).toBe(200)
    const body = res.json<Planner>()
    expect(body.run_sd_source).toBe('default')
    expect(body.run_sd_m2).toBe(0.015)
    expect(body.scatter_from).toEqual({ sessions: 0, runs: 0, degrees_of_freedom: 0 })
    // Defaults: Δ 0.003 m², 80 % power, 5-minute runs.
    expect([body.delta_cda_m2, body.power, body.run_minutes]).toEqual([0.003, 0.8, 5])
    expect(body.runs_per_configuration).toBe(formula(0.015, 0.003, Z[0.8]))
    // Bracketed, the baseline first and last: n of the configuration, n + 1 of the baseline.
    expect(body.total_runs).toBe(2 * body.runs_per_configuration + 1)
    expect(body.riding_time_s).toBe(body.total_runs * 5 * 60)

    const other = (await plan('dan', '?delta=0.01&power=0.9&run_minutes=4')).json<Planner>()
    expect(other.runs_per_configuration).toBe(formula(0.015, 0.01, Z[0.9]))
    expect(other.riding_time_s).toBe((2 * other.runs_per_configuration + 1) * 4 * 60)
  })

  it('with stored sessions of repeats: their scatter pooled by degrees of freedom, the latest analysis only', async () => {
    const one = { A: [0.25, 0.262, 0.244], B: [0.24, 0.255], C: [0.27] }
    const two = { A: [0.3, 0.31, null] }
    await storedSession({ ownerUid: 'ann' }, one)
    const second = await storedSession({ ownerUid: 'ann' }, two, 2)
    // A run of an earlier version of the second session (its result replaced since): not read.
    await t.database.db.insert(aeroRuns).values({
      sessionId: second,
      name: 'Old',
      position: 9,
      configuration: { setup: 'A' },
      results: { version: 1, cda: 0.4, method: 've' },
    })
    // A session without repeats adds nothing.
    await storedSession({ ownerUid: 'ann' }, { A: [0.28], B: [0.29] })
    const body = (await plan('ann', '?delta=0.005')).json<Planner>()
    const truth = pooledSd([one.A, one.B, [0.3, 0.31]])
    expect(body.run_sd_source).toBe('sessions')
    expect(body.run_sd_m2).toBeCloseTo(truth.sd, 5)
    expect(body.scatter_from).toEqual({ sessions: 2, runs: 7, degrees_of_freedom: truth.dof })
    expect(body.runs_per_configuration).toBe(formula(truth.sd, 0.005, Z[0.8]))
  })

  it('a session whose analysis fitted the runs together: the scatter its session fit implies, its latest version', async () => {
    const id = await storedSession({ ownerUid: 'eve' }, { A: [0.25, 0.26, 0.27], B: [0.24, 0.25] })
    // The analysis blocks as the job stores them: the planner's σ of each version's session fit.
    const analysis = (version: number, runSd: number, runSdSource: string) =>
      t.database.db.insert(aeroDataBlocks).values({
        sessionId: id,
        kind: 'run',
        sequence: version,
        data: { type: 'analysis', version, summary: { plan: { runSd, runSdSource } } },
      })
    await analysis(1, 0.05, 'session_fit')
    await analysis(2, 0.021, 'session_fit')
    const body = (await plan('eve')).json<Planner>()
    expect(body.run_sd_source).toBe('sessions')
    expect(body.run_sd_m2).toBeCloseTo(0.021, 5)
    expect(body.scatter_from).toEqual({ sessions: 1, runs: 5, degrees_of_freedom: 3 })
    expect(body.runs_per_configuration).toBe(formula(0.021, 0.003, Z[0.8]))
  })

  it("another user's sessions are never read; a team's sessions are read by its members", async () => {
    await storedSession({ ownerUid: 'cat' }, { A: [0.2, 0.4, 0.3], B: [0.35, 0.25] })
    const dan = (await plan('dan')).json<Planner>()
    expect(dan.run_sd_source).toBe('default')
    expect(dan.scatter_from.sessions).toBe(0)

    const team = await createTeam(t.database, 'Aero squad', ['ben'])
    const runs = [0.21, 0.23, 0.22, 0.26]
    await storedSession({ ownerTeam: team.id }, { A: runs })
    const ben = (await plan('ben')).json<Planner>()
    expect(ben.run_sd_source).toBe('sessions')
    expect(ben.run_sd_m2).toBeCloseTo(pooledSd([runs]).sd, 5)
    expect(ben.scatter_from).toEqual({ sessions: 1, runs: 4, degrees_of_freedom: 3 })
    // Neither cat's nor the team's session reaches dan.
    expect((await plan('dan')).json<Planner>().run_sd_source).toBe('default')
  })

  it('bad parameters: 400 naming the field and the value', async () => {
    const cases: [string, RegExp][] = [
      ['?delta=0.5', /delta: must be at most 0\.05 m² \(got "0\.5"\)/],
      ['?delta=0', /delta: must be at least 0\.001/],
      ['?power=abc', /power: .*\(got "abc"\)/],
      ['?power=1', /power: must be at most 0\.99/],
      ['?run_minutes=0', /run_minutes: must be at least 1/],
      ['?lat=45', /lon: the place needs both lat and lon/],
      ['?lat=95&lon=6', /lat: must be at most 90/],
      ['?lat=45&lon=6&date=2026-02-30', /date: must be a date YYYY-MM-DD \(got "2026-02-30"\)/],
      ['?from_hour=20&to_hour=8', /to_hour: must be after from_hour/],
      ['?from_hour=6.5', /from_hour: must be a whole hour/],
      ['?deltaa=0.003', /deltaa/],
    ]
    for (const [query, message] of cases) {
      const res = await plan('ann', query)
      expect(res.statusCode, query).toBe(400)
      expect(res.json<{ code: string; message: string }>().message, query).toMatch(message)
    }
  })

  it('without the aero claim: 403', async () => {
    await createUser(t.database, 'sim')
    const simulationsOnly = await t.bearer({ uid: 'sim', claims: { 'create:simulations': true } })
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/aero/planner',
      headers: simulationsOnly,
    })
    expect(res.statusCode).toBe(403)
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/aero/planner' })
    expect(anonymous.statusCode).toBe(401)
  })

  it('with a place and a date: the hours between 06:00 and 21:00 local, calmest first, from the forecast', async () => {
    // 30° E: the stand-in's zone there is UTC+2 (whole hours from the longitude).
    const lat = 45.5
    const lon = 30
    const date = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10)
    const res = await plan('dan', `?lat=${lat}&lon=${lon}&date=${date}`)
    expect(res.statusCode, res.body).toBe(200)
    const w = res.json<Planner>().weather
    expect(w.status, JSON.stringify(w)).toBe('used')
    expect(w.utc_offset_s).toBe(2 * 3600)
    const hours = w.hours!
    // 06:00 … 20:00: 15 hour slots of that local date.
    expect(hours.map((h) => h.local_time).sort()).toEqual(
      Array.from({ length: 15 }, (_, k) => `${String(6 + k).padStart(2, '0')}:00`),
    )
    const factor = windHeightFactor()
    for (const h of hours) {
      const utc = Date.parse(h.time) / 1000
      expect(new Date((utc + 7200) * 1000).toISOString().slice(0, 16)).toBe(
        `${date}T${h.local_time}`,
      )
      // The stand-in's own weather at that place and hour (stand-in.ts standInWeather).
      const truth = standInWeather(lat, lon, utc)
      expect(h.wind_speed_10m_mps).toBeCloseTo(truth.windSpeedMps, 1)
      expect(h.wind_speed_mps).toBeCloseTo(truth.windSpeedMps * factor, 1)
      expect(h.temperature_c).toBeCloseTo(truth.temperatureC, 0)
    }
    // Ranked by the wind at rider height, calmest first; the three calmest marked.
    const winds = hours.map((h) => h.wind_speed_mps)
    expect(winds).toEqual([...winds].sort((a, b) => a - b))
    expect(hours.map((h) => h.calm)).toEqual(hours.map((_, k) => k < 3))
    // Another window of hours: only those.
    const evening = (
      await plan('dan', `?lat=${lat}&lon=${lon}&date=${date}&from_hour=18&to_hour=24`)
    ).json<Planner>().weather
    expect(evening.hours!.map((h) => h.local_time).sort()).toEqual([
      '18:00',
      '19:00',
      '20:00',
      '21:00',
      '22:00',
      '23:00',
    ])
    // Without a place and date the planner asks for no weather.
    expect((await plan('dan')).json<Planner>().weather).toEqual({ status: 'not_asked' })
  })

  it('without weather configured: the answer says so, the runs are still counted', async () => {
    const off = await startTestApp({ FILES_DIR: tempDir('aero-planner-off') })
    try {
      await createUser(off.database, 'dan')
      const res = await off.app.inject({
        method: 'GET',
        url: '/api/aero/planner?lat=45.5&lon=30&date=2030-06-01',
        headers: await off.bearer({ uid: 'dan' }),
      })
      expect(res.statusCode).toBe(200)
      const body = res.json<Planner>()
      expect(body.weather.status).toBe('disabled')
      expect(body.weather.message).toMatch(/WEATHER_PROVIDER=none/)
      expect(body.runs_per_configuration).toBe(formula(0.015, 0.003, Z[0.8]))
    } finally {
      await off.close()
    }
  })
})

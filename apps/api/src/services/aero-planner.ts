// The aero test planner before a test (docs/engine/aero.md, "Test planner"): the runs per
// configuration that resolve a ΔCdA with a given power, from the run-to-run scatter of the caller's
// stored sessions (per session the one its session fit implies, else its runs' own; pooled by
// degrees of freedom) or the engine's typical value, and the day's hours at a place ranked by the forecast wind at rider height.
import type { Db } from '@veloptima/db'
import {
  aeroPlannerQuerySchema,
  type AeroPlanner,
  type AeroPlannerHour,
  type AeroPlannerQuery,
  type AeroPlannerWeather,
} from '@veloptima/contracts'
import { DEFAULT_RUN_SD, runScatter, runsNeeded, windHeightFactor } from '@veloptima/engine'
import { configText } from '../jobs/aero-analysis-data.ts'
import {
  sessionFitScatter,
  visibleAnalysedRuns,
  type AnalysedRun,
} from '../repositories/aero-planner.ts'
import { WeatherUnavailable } from '../weather/errors.ts'
import type { WeatherSource } from '../weather/source.ts'
import { parse } from './validation.ts'

const HOUR = 3600
/** The calmest hours the page highlights. */
const CALM_HOURS = 3

const round = (v: number, d = 2) => Math.round(v * 10 ** d) / 10 ** d

export type PooledScatter = {
  /** Pooled run-to-run scatter, m², or null when no session has repeats. */
  sd: number | null
  sessions: number
  runs: number
  dof: number
}

/**
 * The scatter of repeated runs of one configuration over the sessions: each session's scatter
 * weighted by its degrees of freedom (runs of a repeated configuration less one per
 * configuration). A session's scatter is the one its session fit implies (`fitScatter`: the
 * planner's σ after that session's analysis, which carries the wind and drift all its runs share),
 * else the scatter of its runs' own CdA (engine `runScatter`: its latest analysis's runs, pooled
 * within configurations).
 */
export function pooledScatter(
  runs: readonly AnalysedRun[],
  fitScatter: ReadonlyMap<string, number> = new Map(),
): PooledScatter {
  const bySession = new Map<string, AnalysedRun[]>()
  for (const r of runs) bySession.set(r.sessionId, [...(bySession.get(r.sessionId) ?? []), r])
  let ss = 0
  let dof = 0
  let sessions = 0
  let repeated = 0
  for (const [sessionId, all] of bySession) {
    // The session's latest analysis: the runs it stored (older versions' results are replaced).
    const latest = Math.max(...all.map((r) => r.version))
    const used = all
      .filter((r) => r.version === latest && r.cda !== null && Number.isFinite(r.cda))
      .map((r) => ({ configuration: configText(r.configuration), cda: r.cda! }))
    const own = runScatter(used)
    if (own === null) continue
    const sd = fitScatter.get(sessionId) ?? own
    const counts = new Map<string, number>()
    for (const r of used) counts.set(r.configuration, (counts.get(r.configuration) ?? 0) + 1)
    const n = [...counts.values()].filter((k) => k >= 2)
    const df = n.reduce((a, k) => a + k - 1, 0)
    ss += sd * sd * df
    dof += df
    sessions++
    repeated += n.reduce((a, k) => a + k, 0)
  }
  return { sd: dof > 0 ? Math.sqrt(ss / dof) : null, sessions, runs: repeated, dof }
}

/** `YYYY-MM-DD` at 00:00 read as if UTC (the place's offset is applied once known). */
const dayAsUtcS = (date: string) => Date.parse(`${date}T00:00:00Z`) / 1000

const clock = (localS: number) => new Date(localS * 1000).toISOString().slice(11, 16)

/** The hours [from_hour, to_hour) of the local date at the place, calmest first. */
async function dayHours(
  source: WeatherSource,
  q: AeroPlannerQuery & { lat: number; lon: number; date: string },
): Promise<AeroPlannerWeather> {
  const day = dayAsUtcS(q.date)
  // The local day ± the widest zone offsets.
  const weather = await source.alongCourse(
    [{ latDeg: q.lat, lonDeg: q.lon, distanceM: 0 }],
    day - 14 * HOUR,
    day + 24 * HOUR + 14 * HOUR,
  )
  const point = weather.forecast.points[0]!
  const off = weather.utcOffsetS
  const factor = windHeightFactor()
  const hours: Omit<AeroPlannerHour, 'calm'>[] = []
  for (let i = 0; i < point.timeS.length; i++) {
    const t = point.timeS[i]!
    const local = t + off
    if (local < day + q.from_hour * HOUR || local >= day + q.to_hour * HOUR) continue
    const gust = point.gustMps?.[i]
    hours.push({
      time: new Date(t * 1000).toISOString(),
      local_time: clock(local),
      wind_speed_mps: round(point.windSpeedMps[i]! * factor),
      wind_speed_10m_mps: round(point.windSpeedMps[i]!),
      wind_from_deg: round(point.windFromDeg[i]!, 0) % 360,
      gust_mps: gust !== undefined && Number.isFinite(gust) ? round(gust) : null,
      temperature_c: round(point.temperatureC[i]!, 1),
    })
  }
  if (hours.length === 0) {
    throw new WeatherUnavailable('not_covered', `the forecast has no hours of ${q.date}`)
  }
  const ranked = hours
    .map((h, i) => ({ h, i }))
    .sort((a, b) => a.h.wind_speed_mps - b.h.wind_speed_mps || a.i - b.i)
    .map(({ h }, k) => ({ ...h, calm: k < CALM_HOURS }))
  return {
    status: 'used',
    date: q.date,
    lat: q.lat,
    lon: q.lon,
    utc_offset_s: off,
    issued_at: new Date(weather.fetchedAtS * 1000).toISOString(),
    source: weather.forecast.source ?? 'open-meteo',
    kind: weather.kind,
    wind_height_factor: round(factor, 3),
    from_hour: q.from_hour,
    to_hour: q.to_hour,
    hours: ranked,
  }
}

export class AeroPlannerService {
  constructor(
    private readonly db: Db,
    /** The weather source, or null when the server fetches none (WEATHER_PROVIDER=none). */
    private readonly weather: WeatherSource | null,
    private readonly log: { warn(o: object, msg: string): void } = { warn: () => {} },
  ) {}

  /** GET /api/aero/planner: the answer for the caller's query (400 naming a bad field). */
  async plan(uid: string, query: unknown): Promise<AeroPlanner> {
    const q = parse(aeroPlannerQuerySchema, query, 'query')
    const scatter = pooledScatter(
      await visibleAnalysedRuns(this.db, uid),
      await sessionFitScatter(this.db, uid),
    )
    const sd = scatter.sd ?? DEFAULT_RUN_SD
    const n = runsNeeded(sd, q.delta, q.power)
    const totalRuns = 2 * n + 1
    return {
      delta_cda_m2: q.delta,
      power: q.power,
      run_minutes: q.run_minutes,
      run_sd_m2: round(sd, 5),
      run_sd_source: scatter.sd === null ? 'default' : 'sessions',
      scatter_from: {
        sessions: scatter.sessions,
        runs: scatter.runs,
        degrees_of_freedom: scatter.dof,
      },
      runs_per_configuration: n,
      total_runs: totalRuns,
      riding_time_s: totalRuns * q.run_minutes * 60,
      weather: await this.weatherFor(q),
    }
  }

  private async weatherFor(q: AeroPlannerQuery): Promise<AeroPlannerWeather> {
    if (!this.weather) {
      return {
        status: 'disabled',
        message: 'This server fetches no weather (WEATHER_PROVIDER=none): no forecast for the day.',
      }
    }
    if (q.lat === undefined || q.lon === undefined || q.date === undefined) {
      return { status: 'not_asked' }
    }
    try {
      return await dayHours(this.weather, { ...q, lat: q.lat, lon: q.lon, date: q.date })
    } catch (error) {
      const e = error as Error
      if (error instanceof WeatherUnavailable) {
        return { status: 'unavailable', reason: error.reason, message: error.message }
      }
      if (e.name === 'EngineInputError') {
        return { status: 'unavailable', reason: 'not_covered', message: e.message }
      }
      this.log.warn({ err: e }, 'planner weather failed')
      return {
        status: 'unavailable',
        reason: 'error',
        message: `the weather could not be had (${e.message.slice(0, 200)})`,
      }
    }
  }
}

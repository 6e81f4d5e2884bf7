// The test planner page's read and form: the texts as typed (power in %, the place in degrees)
// read into GET /api/aero/planner's query (its schema in @veloptima/contracts), and the answer's
// read keyed by that query.
import { z } from 'zod'
import {
  aeroPlannerQuerySchema,
  DEFAULT_RIDE_HOURS,
  type AeroPlanner,
  type AeroPlannerQuery,
} from '@veloptima/contracts'
import { api } from '../../../lib/api-client.ts'
import { apiRead } from '../../../lib/query.ts'

/** The query's fields as URL parameters (only those given). */
export function plannerParams(q: AeroPlannerQuery): URLSearchParams {
  const p = new URLSearchParams()
  for (const [k, v] of Object.entries(q)) if (v !== undefined) p.set(k, String(v))
  return p
}

export const plannerQuery = (q: AeroPlannerQuery) =>
  apiRead(['aero-planner', plannerParams(q).toString()], () =>
    api<AeroPlanner>(`/api/aero/planner?${plannerParams(q).toString()}`),
  )

/** The query a page address asks (its known parameters; the defaults for the rest). */
export function queryOfParams(params: URLSearchParams): AeroPlannerQuery {
  const known = Object.keys(aeroPlannerQuerySchema.shape)
  const given = Object.fromEntries([...params].filter(([k]) => known.includes(k)))
  const parsed = aeroPlannerQuerySchema.safeParse(given)
  return parsed.success ? parsed.data : aeroPlannerQuerySchema.parse({})
}

export type PlannerForm = {
  delta: string
  power: string
  runMinutes: string
  lat: string
  lon: string
  date: string
  fromHour: string
  toHour: string
}

/** The form's texts for a query. */
export const formOfQuery = (q: AeroPlannerQuery): PlannerForm => ({
  delta: String(q.delta),
  power: String(Math.round(q.power * 100)),
  runMinutes: String(q.run_minutes),
  lat: q.lat === undefined ? '' : String(q.lat),
  lon: q.lon === undefined ? '' : String(q.lon),
  date: q.date ?? '',
  fromHour: String(q.from_hour ?? DEFAULT_RIDE_HOURS.from),
  toHour: String(q.to_hour ?? DEFAULT_RIDE_HOURS.to),
})

type Range = { min: number; max: number; what: string; whole?: boolean }
const RANGES: Record<Exclude<keyof PlannerForm, 'date'>, Range> = {
  delta: { min: 0.001, max: 0.05, what: 'ΔCdA: a number of m² from 0.001 to 0.05' },
  power: { min: 50, max: 99, what: 'Power: a percentage from 50 to 99' },
  runMinutes: { min: 1, max: 60, what: 'Run length: minutes from 1 to 60' },
  lat: { min: -90, max: 90, what: 'Latitude: degrees from −90 to 90' },
  lon: { min: -180, max: 180, what: 'Longitude: degrees from −180 to 180' },
  fromHour: { min: 0, max: 23, what: 'From: a whole hour from 0 to 23', whole: true },
  toHour: { min: 1, max: 24, what: 'To: a whole hour from 1 to 24', whole: true },
}

/** The planner form: its texts read in their own units (power in %), then the API's query schema. */
export const plannerFormSchema = z
  .object({
    delta: z.string(),
    power: z.string(),
    runMinutes: z.string(),
    lat: z.string(),
    lon: z.string(),
    date: z.string(),
    fromHour: z.string(),
    toHour: z.string(),
  })
  .transform((f, ctx): z.input<typeof aeroPlannerQuerySchema> => {
    let bad = false
    const issue = (key: keyof PlannerForm, message: string) => {
      bad = true
      ctx.addIssue({ code: 'custom', path: [key], message })
    }
    const read = (key: keyof typeof RANGES): number | undefined => {
      const text = f[key].trim().replace(',', '.')
      if (text === '') return undefined
      const r = RANGES[key]
      const v = Number(text)
      if (!Number.isFinite(v) || v < r.min || v > r.max || (r.whole && !Number.isInteger(v))) {
        issue(key, `${r.what}.`)
      }
      return v
    }
    const v = {
      delta: read('delta'),
      power: read('power'),
      run_minutes: read('runMinutes'),
      lat: read('lat'),
      lon: read('lon'),
      from_hour: read('fromHour'),
      to_hour: read('toHour'),
    }
    if ((v.lat === undefined) !== (v.lon === undefined)) {
      const key = v.lat === undefined ? 'lat' : 'lon'
      issue(key, 'The place needs both latitude and longitude.')
    }
    if (v.from_hour !== undefined && v.to_hour !== undefined && v.to_hour <= v.from_hour) {
      issue('toHour', 'To: after the From hour.')
    }
    if (bad) return z.NEVER
    return {
      ...v,
      power: v.power === undefined ? undefined : v.power / 100,
      date: f.date.trim() || undefined,
    }
  })
  .pipe(aeroPlannerQuerySchema)

// Valid bodies for each collection of the platform API, used by several test files.
import type { TestApp } from './helpers.ts'

export const setupBody = (name = 'TT bike') => ({
  name,
  bike_type: 'time_trial',
  rider_mass: 72,
  bike_mass: 8.6,
  positions: [
    { name: 'aero bars', cda: 0.215, min_speed: 8, max_speed: 25 },
    { name: 'base bar', cda: 0.3, min_speed: 0, max_speed: 8 },
  ],
  crr: { smooth: 0.0028, normal: 0.0035, rough: 0.006 },
  cp: 320,
  w_prime: 22000,
})

export const courseBody = (name = 'Hill loop') => ({
  name,
  source_format: 'gpx',
  track: { lat: [47, 47.001], lon: [8, 8.001], ele: [400, 405], distance: [0, 134.2] },
  segments: [{ start: 0, end: 134.2, grade: 0.037, heading: 45, radius: null, altitude: 402.5 }],
  stats: { distance: 134.2, ascent: 5, descent: 0, max_grade: 0.037, min_grade: 0.037 },
  settings: { surface: 'normal', wind: { speed: 3, direction: 270 } },
})

export const deviceBody = (serial = 'AS-0001') => ({
  serial,
  name: 'Front sensor',
  model: 'Aerosensor',
  firmware: '2.4.1',
  calibration: { calibration_factor: 1.02 },
})

export const sessionBody = (name = 'Track day') => ({
  name,
  format: 'v6',
  started_at: '2026-05-03T08:30:00Z',
  location: 'Velodrome',
  environment: { temperature_c: 21.5, pressure_pa: 101_100 },
})

type Headers = { authorization: string }

export function caller(t: TestApp, headers: Headers) {
  const go = async (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
  ) => {
    const res = await t.app.inject({ method, url, headers, payload: payload as never })
    return { status: res.statusCode, body: res.body ? (res.json() as Record<string, any>) : {} } // eslint-disable-line @typescript-eslint/no-explicit-any
  }
  return {
    get: (url: string) => go('GET', url),
    post: (url: string, body: unknown = {}) => go('POST', url, body),
    put: (url: string, body: unknown) => go('PUT', url, body),
    patch: (url: string, body: unknown) => go('PATCH', url, body),
    del: (url: string) => go('DELETE', url),
  }
}
export type Caller = ReturnType<typeof caller>

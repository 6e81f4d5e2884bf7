// The air an aero field test was ridden in (docs/engine/calibration.md): when a session states no air (neither a
// density nor a temperature and pressure) and its first file has a GPS position and a start time,
// the hourly temperature, surface pressure and humidity of that place over the file's hours
// (Open-Meteo's archive through the cached WeatherSource), averaged, become the analysis' air; the
// stored result says which weather it was, or why there was none.
import { WeatherUnavailable } from './errors.ts'
import { historyLabel } from './history.ts'
import type { WeatherSource } from './source.ts'

/** Where and when a file was recorded (its first position, its start and length). */
export type RecordedPlace = {
  lat: number
  lon: number
  startEpochS: number
  durationS: number
}

export type HistoricalAir =
  | {
      status: 'used'
      label: string
      temperature_c: number
      pressure_pa: number
      relative_humidity: number
    }
  | { status: 'unavailable'; reason: string; message: string }

/** The mean air of `place` over its hours, or why it could not be had (never throws). */
export async function historicalAir(
  source: WeatherSource,
  place: RecordedPlace,
): Promise<HistoricalAir> {
  const req = {
    points: [{ latDeg: place.lat, lonDeg: place.lon, distanceM: 0 }],
    fromS: place.startEpochS,
    toS: place.startEpochS + Math.max(1, place.durationS),
  }
  try {
    const w = await source.alongCourse(req.points, req.fromS, req.toS)
    const p = w.forecast.points[0]!
    let n = 0
    let t = 0
    let pr = 0
    let rh = 0
    for (let k = 0; k < p.timeS.length; k++) {
      n++
      t += p.temperatureC[k]!
      pr += p.surfacePressurePa[k]!
      rh += p.relativeHumidity[k]!
    }
    return {
      status: 'used',
      label: historyLabel(req, w),
      temperature_c: Math.round((t / n) * 10) / 10,
      pressure_pa: Math.round(pr / n),
      relative_humidity: Math.round((rh / n) * 100) / 100,
    }
  } catch (error) {
    const e = error as Error
    return {
      status: 'unavailable',
      reason: error instanceof WeatherUnavailable ? error.reason : 'error',
      message: e.message.slice(0, 300),
    }
  }
}

/** The historical air of the first file of a session recorded with a position and a start time. */
export async function sessionAir(
  source: WeatherSource,
  files: {
    summary: {
      position?: { lat: number; lon: number } | null
      startEpochS: number | null
      durationS: number
    }
  }[],
): Promise<HistoricalAir> {
  const f = files.find((x) => x.summary.position && x.summary.startEpochS != null)
  if (!f) {
    return {
      status: 'unavailable',
      reason: 'no_position',
      message: 'no file of the session has a GPS position and a start time',
    }
  }
  return historicalAir(source, {
    lat: f.summary.position!.lat,
    lon: f.summary.position!.lon,
    startEpochS: f.summary.startEpochS!,
    durationS: f.summary.durationS,
  })
}

/**
 * For a session that states no air (neither a density nor a temperature and pressure): the
 * historical air of its files (`sessionAir`), put into the analysis' `environment` when had;
 * null when the session states its air (nothing asked).
 */
export async function historicalAirFor(
  source: WeatherSource,
  settings: {
    air_density_kg_m3?: number | null
    temperature_c?: number | null
    pressure_pa?: number | null
  },
  files: Parameters<typeof sessionAir>[1],
  analysis: { environment?: { temperatureC: number; pressurePa: number; humidity?: number } },
): Promise<HistoricalAir | null> {
  const stated =
    settings.air_density_kg_m3 != null ||
    (settings.temperature_c != null && settings.pressure_pa != null)
  if (stated) return null
  const air = await sessionAir(source, files)
  if (air.status === 'used') {
    analysis.environment = {
      temperatureC: air.temperature_c,
      pressurePa: air.pressure_pa,
      humidity: air.relative_humidity,
    }
  }
  return air
}

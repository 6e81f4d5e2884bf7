// The weather suites' app: a test app whose weather source is the local Open-Meteo stand-in
// (every other test app has it off).
import { startOpenMeteoStandIn, type StandIn } from '../src/weather/stand-in.ts'
import { tempDir } from './files-helpers.ts'
import { forSuite, startTestApp, withStandIn, type TestApp } from './helpers.ts'

export type WeatherApp = TestApp & { standIn: StandIn }

/** The stand-in, then a test app (files under a temporary `dir`) pointing its weather at it. */
export async function startWeatherApp(dir: string): Promise<WeatherApp> {
  const standIn = await startOpenMeteoStandIn()
  const t = await startTestApp({
    FILES_DIR: tempDir(dir),
    WEATHER_PROVIDER: 'open-meteo',
    WEATHER_URL: standIn.url,
  })
  return withStandIn(t, standIn)
}

/** A weather app for the suite's tests (see startWeatherApp and forSuite). */
export const suiteWeatherApp = (dir: string) => forSuite(() => startWeatherApp(dir))

// For the weather tests: the WeatherUnavailable a promise is rejected with (the test fails when it
// resolves or is rejected with anything else).
import { expect } from 'vitest'
import { WeatherUnavailable } from './errors.ts'

export async function failure(p: Promise<unknown>): Promise<WeatherUnavailable> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  )
  expect(e).toBeInstanceOf(WeatherUnavailable)
  return e as WeatherUnavailable
}

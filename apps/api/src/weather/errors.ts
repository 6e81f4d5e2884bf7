/**
 * Weather could not be had. The optimization then runs on the typed wind and air, and says why
 * (`reason`, `message`) in its result.
 */
export class WeatherUnavailable extends Error {
  constructor(
    readonly reason:
      | 'disabled'
      | 'offline'
      | 'rate_limited'
      | 'provider_error'
      | 'refused'
      | 'malformed'
      | 'not_covered',
    message: string,
  ) {
    super(message)
    this.name = 'WeatherUnavailable'
  }
}

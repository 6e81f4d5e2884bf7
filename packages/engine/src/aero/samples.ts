// ActivitySamples from the channels one has: time, speed and power, and whichever others are
// given; every other channel is absent (null), laps all 0, the start time unknown.
import type { ActivitySamples } from './types.ts'

export function activitySamples(
  channels: Pick<ActivitySamples, 't' | 'speed' | 'power'> & Partial<ActivitySamples>,
): ActivitySamples {
  return {
    startEpochS: NaN,
    altitude: null,
    distance: null,
    lap: new Int32Array(channels.t.length),
    lat: null,
    lon: null,
    airspeed: null,
    yaw: null,
    temperature: null,
    pressure: null,
    airDensity: null,
    windSpeed: null,
    ...channels,
  }
}

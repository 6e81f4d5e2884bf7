// Test helper: a GoldenCheetah JSON ride (packages/formats/src/activity/gc-json.ts, the format
// GoldenCheetah's JsonRideFile writes) made from a real recorded activity, so the calibration of
// that format is tested on real power, speed, GPS and altitude (no such file is in the data set).
import type { ImportedActivity } from '@veloptima/formats'

const pad = (n: number) => String(n).padStart(2, '0')

/** "yyyy/MM/dd hh:mm:ss UTC", as GoldenCheetah writes STARTTIME. */
function gcTime(epochS: number): string {
  const d = new Date(epochS * 1000)
  return `${d.getUTCFullYear()}/${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} UTC`
}

/** The activity's samples as GoldenCheetah JSON text (KPH, KM, WATTS, ALT, LAT, LON). */
export function gcJsonOf(activity: ImportedActivity): string {
  const s = activity.samples
  const r = (v: number | undefined, digits: number) =>
    v === undefined || !Number.isFinite(v) ? undefined : Number(v.toFixed(digits))
  const samples = Array.from(s.t, (t, i) => ({
    SECS: t,
    KM: r(s.distance ? s.distance[i]! / 1000 : undefined, 5),
    WATTS: r(s.power[i], 0),
    KPH: r(s.speed[i]! * 3.6, 3),
    ALT: r(s.altitude?.[i], 1),
    LAT: r(s.lat?.[i], 7),
    LON: r(s.lon?.[i], 7),
  }))
  return JSON.stringify({
    RIDE: {
      STARTTIME: gcTime(activity.startEpochS),
      RECINTSECS: 1,
      DEVICETYPE: 'Garmin Edge 810',
      SAMPLES: samples,
    },
  })
}

// What the upload learns from an activity file: format, duration, laps, channels, devices, and the
// first GPS position (for its historical weather).
import { OPTIONAL_SAMPLE_CHANNELS } from '@veloptima/engine'
import { readActivity } from '@veloptima/formats'

/** What the upload learns from a file before storing it (and what a `source` block keeps). */
export type ActivitySummary = {
  format: string
  name: string | null
  startEpochS: number | null
  durationS: number
  samples: number
  laps: number
  channels: string[]
  devices: { serial: string; name: string | null }[]
  warnings: string[]
  /** The first GPS position of the file (for its historical weather); absent without GPS. */
  position?: { lat: number; lon: number } | null
}

/** The optional channels a file has, GPS named once (as `lat`). */
const CHANNELS = OPTIONAL_SAMPLE_CHANNELS.filter((c) => c !== 'lon')

function devicesOf(devices: unknown): ActivitySummary['devices'] {
  if (!Array.isArray(devices)) return []
  return devices
    .map((d: { serial?: unknown; name?: unknown; product?: unknown }) => ({
      serial: d.serial == null ? '' : String(d.serial),
      name: typeof d.name === 'string' ? d.name : typeof d.product === 'string' ? d.product : null,
    }))
    .filter((d) => d.serial !== '')
}

export function summaryOf(activity: ReturnType<typeof readActivity>): ActivitySummary {
  const s = activity.samples
  const n = s.t.length
  let laps = 0
  for (let i = 0; i < n; i++) laps = Math.max(laps, s.lap[i]! + 1)
  return {
    format: activity.format,
    name: activity.name ?? null,
    startEpochS: Number.isFinite(activity.startEpochS) ? activity.startEpochS : null,
    durationS: n > 0 ? s.t[n - 1]! - s.t[0]! : 0,
    samples: n,
    laps,
    channels: ['power', 'speed', ...CHANNELS.filter((c) => s[c] != null)],
    devices: devicesOf(activity.devices),
    warnings: [...(activity.warnings ?? [])].map(String),
    position: firstPosition(s.lat, s.lon),
  }
}

function firstPosition(lat: Float64Array | null, lon: Float64Array | null) {
  if (!lat || !lon) return null
  for (let i = 0; i < lat.length; i++)
    if (Number.isFinite(lat[i]) && Number.isFinite(lon[i])) return { lat: lat[i]!, lon: lon[i]! }
  return null
}

/** Reads one uploaded file as an activity; throws the reader's ImportError naming file and field. */
export function readActivitySummary(input: {
  bytes: Uint8Array
  fileName: string
  deviceSerial?: string | undefined
}): ActivitySummary {
  const activity = readActivity(input.bytes, input.fileName, {
    ...(input.deviceSerial ? { deviceSerial: input.deviceSerial } : {}),
  })
  return summaryOf(activity)
}

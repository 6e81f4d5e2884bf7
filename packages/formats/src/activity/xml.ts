// TCX and GPX activities → samples. The document is parsed by ../xml.ts (parseXml); elements are
// matched by local name, so any namespace prefix (ns3:TPX, gpxtpx:…) works.
import type { Document, Element } from '@xmldom/xmldom'
import { isoSeconds, num } from '../types.ts'
import { SampleColumns } from './types.ts'
import type { ActivityDevice, RawActivity } from './types.ts'

function child(el: Element, name: string): Element | null {
  for (let c = el.firstChild; c; c = c.nextSibling) {
    if (c.nodeType === 1 && (c as Element).localName === name) return c as Element
  }
  return null
}

const childText = (el: Element | null, name: string): string | null =>
  el ? (child(el, name)?.textContent ?? null) : null

const byName = (root: Document | Element, name: string): Element[] =>
  Array.from(root.getElementsByTagNameNS('*', name))

/** First element under `el` (depth first) whose local name is in `names`. */
function findDeep(el: Element, names: readonly string[]): Element | null {
  for (let c = el.firstChild; c; c = c.nextSibling) {
    if (c.nodeType !== 1) continue
    const e = c as Element
    if (names.includes(e.localName!)) return e
    const inner = findDeep(e, names)
    if (inner) return inner
  }
  return null
}

/** Number of the first element named one of `names` under `el` (NaN without one). */
function deepNum(el: Element | null, names: readonly string[]): number {
  if (!el) return NaN
  const found = findDeep(el, names)
  return found ? num(found.textContent) : NaN
}

export function readTcxActivity(doc: Document): RawActivity {
  const root = doc.documentElement!
  const warnings: string[] = []
  let activities = byName(root, 'Activity')
  const biking = activities.filter((a) => a.getAttribute('Sport') === 'Biking')
  if (activities.length > 1 && biking.length > 0 && biking.length < activities.length) {
    warnings.push(`${activities.length} activities in the file: the Biking ones are used`)
    activities = biking
  }
  // A TCX course has no <Activity>: its trackpoints are read all the same (and refused later
  // when they carry no time or power).
  const scopes: (Document | Element)[] = activities.length > 0 ? activities : [root]
  const cols = new SampleColumns()
  const laps: RawActivity['laps'] = []
  const devices: ActivityDevice[] = []
  for (const scope of scopes) {
    for (const lap of byName(scope, 'Lap')) {
      const start = isoSeconds(lap.getAttribute('StartTime'))
      const total = num(childText(lap, 'TotalTimeSeconds'))
      laps.push({ start, end: Number.isFinite(total) ? start + total : undefined })
    }
    for (const p of byName(scope, 'Trackpoint')) {
      const pos = child(p, 'Position')
      const ext = child(p, 'Extensions')
      cols.push(isoSeconds(childText(p, 'Time')), {
        lat: num(childText(pos, 'LatitudeDegrees')),
        lon: num(childText(pos, 'LongitudeDegrees')),
        altitude: num(childText(p, 'AltitudeMeters')),
        distance: num(childText(p, 'DistanceMeters')),
        speed: deepNum(ext, ['Speed']),
        power: deepNum(ext, ['Watts']),
      })
    }
    const creator = scope.nodeType === 1 ? child(scope as Element, 'Creator') : null
    const unit = childText(creator, 'UnitId')
    if (creator && unit) {
      const version = child(creator, 'Version')
      const major = childText(version, 'VersionMajor')
      const minor = childText(version, 'VersionMinor')
      devices.push({
        serial: unit.trim(),
        name: childText(creator, 'Name')?.trim() || null,
        model: childText(creator, 'ProductID')?.trim() || null,
        firmware: major ? `${major.trim()}.${(minor ?? '0').trim()}` : null,
        channels: [],
      })
    }
  }
  const notes = activities.length > 0 ? childText(activities[0]!, 'Notes') : null
  const course = byName(root, 'Course')[0]
  const name = notes?.trim() || childText(course ?? null, 'Name')?.trim() || null
  const unique = devices.filter((d, i) => devices.findIndex((e) => e.serial === d.serial) === i)
  return { format: 'tcx', name, columns: cols, absolute: true, laps, devices: unique, warnings }
}

const R_EARTH = 6_371_008.8

function haversine(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180
  const a =
    Math.sin(((lat2 - lat1) * rad) / 2) ** 2 +
    Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lon2 - lon1) * rad) / 2) ** 2
  return 2 * R_EARTH * Math.asin(Math.min(1, Math.sqrt(a)))
}

/**
 * GPX track with times. Power from an extension (`power`, `gpxpx:PowerInWatts`, `gpxtpx:power`),
 * speed from `gpxtpx:speed` (m/s) or else from the positions, air temperature from `atemp`.
 */
export function readGpxActivity(doc: Document): RawActivity {
  const root = doc.documentElement!
  const warnings: string[] = []
  let pts = byName(root, 'trkpt')
  if (pts.length === 0) pts = byName(root, 'rtept')
  const cols = new SampleColumns()
  let d = 0
  let prev: [number, number] | null = null
  let withSpeed = 0
  for (const p of pts) {
    const lat = num(p.getAttribute('lat'))
    const lon = num(p.getAttribute('lon'))
    if (Number.isFinite(lat) && Number.isFinite(lon)) {
      if (prev) d += haversine(prev[0], prev[1], lat, lon)
      prev = [lat, lon]
    }
    const ext = child(p, 'extensions')
    const speed = deepNum(ext, ['speed'])
    if (Number.isFinite(speed)) withSpeed++
    cols.push(isoSeconds(childText(p, 'time')), {
      lat,
      lon,
      altitude: num(childText(p, 'ele')),
      distance: prev ? d : NaN,
      speed,
      power: deepNum(ext, ['power', 'PowerInWatts', 'Watts']),
      temperature: deepNum(ext, ['atemp']),
    })
  }
  if (withSpeed === 0 && pts.length > 0)
    warnings.push('GPX has no speed: distance and speed come from the positions')
  const meta = child(root, 'metadata')
  const trk = child(root, 'trk') ?? child(root, 'rte')
  const name = childText(trk, 'name')?.trim() || childText(meta, 'name')?.trim() || null
  return { format: 'gpx', name, columns: cols, absolute: true, laps: [], devices: [], warnings }
}

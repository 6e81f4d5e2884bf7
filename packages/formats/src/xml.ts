// GPX (1.0 and 1.1; tracks or routes) and TCX (activities or courses) through @xmldom/xmldom,
// which throws on malformed XML: that becomes ImportError('invalid_xml').
import { DOMParser } from '@xmldom/xmldom'
import type { Document, Element } from '@xmldom/xmldom'
import { ImportError } from './errors.ts'
import { num, strictIsoSeconds, strictNum, TrackBuilder } from './types.ts'
import type { RawTrack } from './types.ts'

export function parseXml(text: string, fileName: string | null): Document {
  let doc: Document
  try {
    doc = new DOMParser({ onError: () => undefined }).parseFromString(text, 'text/xml')
  } catch (e) {
    const detail = (e as Error).message.split('\n')[0]
    throw new ImportError('invalid_xml', `not well-formed XML (${detail})`, fileName)
  }
  if (!doc.documentElement) throw new ImportError('invalid_xml', 'no XML root element', fileName)
  return doc
}

/** Direct or nested child by local name (namespace-agnostic). */
function child(el: Element, name: string): Element | null {
  for (let c = el.firstChild; c; c = c.nextSibling) {
    if (c.nodeType === 1 && (c as Element).localName === name) return c as Element
  }
  return null
}

function childText(el: Element, name: string): string | null {
  const c = child(el, name)
  return c ? c.textContent : null
}

/** Power (W) from an extension element named `name` anywhere under the point (TCX `ns3:Watts`,
 * GPX `power` or `gpxtpx:power`); NaN without one. */
function extensionPower(p: Element, name: string): number {
  const ext = child(p, 'Extensions') ?? child(p, 'extensions')
  if (!ext) return NaN
  const w = byName(ext, name)[0]
  return w ? num(w.textContent) : NaN
}

function byName(root: Document | Element, name: string): Element[] {
  return Array.from(root.getElementsByTagNameNS('*', name))
}

export function readGpx(doc: Document, fileName: string | null): RawTrack {
  const root = doc.documentElement!
  let pts = byName(root, 'trkpt')
  if (pts.length === 0) pts = byName(root, 'rtept')
  if (pts.length === 0) {
    throw new ImportError(
      'no_track_points',
      'GPX has no track or route points (<trkpt>/<rtept>)',
      fileName,
    )
  }
  const b = new TrackBuilder()
  pts.forEach((p, i) => {
    b.push(
      strictNum(p.getAttribute('lat'), 'lat', i, fileName),
      strictNum(p.getAttribute('lon'), 'lon', i, fileName),
      strictNum(childText(p, 'ele'), '<ele>', i, fileName),
      strictIsoSeconds(childText(p, 'time'), '<time>', i, fileName),
      NaN,
      extensionPower(p, 'power'),
    )
  })
  const meta = child(root, 'metadata')
  const trk = child(root, 'trk') ?? child(root, 'rte')
  const name = (meta && childText(meta, 'name')) || (trk && childText(trk, 'name')) || null
  return b.build('gpx', name ? name.trim() : null)
}

export function readTcx(doc: Document, fileName: string | null): RawTrack {
  const root = doc.documentElement!
  const pts = byName(root, 'Trackpoint')
  if (pts.length === 0)
    throw new ImportError('no_track_points', 'TCX has no <Trackpoint>', fileName)
  const b = new TrackBuilder()
  pts.forEach((p, i) => {
    const pos = child(p, 'Position')
    b.push(
      pos ? strictNum(childText(pos, 'LatitudeDegrees'), '<LatitudeDegrees>', i, fileName) : NaN,
      pos ? strictNum(childText(pos, 'LongitudeDegrees'), '<LongitudeDegrees>', i, fileName) : NaN,
      strictNum(childText(p, 'AltitudeMeters'), '<AltitudeMeters>', i, fileName),
      strictIsoSeconds(childText(p, 'Time'), '<Time>', i, fileName),
      strictNum(childText(p, 'DistanceMeters'), '<DistanceMeters>', i, fileName),
      extensionPower(p, 'Watts'),
    )
  })
  // A course has <Course><Name>; an activity only an <Id> (its start time). <Creator><Name> is
  // the device, not the ride.
  const course = byName(root, 'Course')[0]
  const activity = byName(root, 'Activity')[0]
  const name = (course && childText(course, 'Name')) || (activity && childText(activity, 'Id'))
  return b.build('tcx', name?.trim() || null)
}

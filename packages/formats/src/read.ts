// File → RawTrack by content (not by extension), and file → Course through the engine.
import { buildCourse, CourseError, recordedSegments } from '@veloptima/engine'
import type { BuildCourseOptions, BuiltCourse, RecordedSegments } from '@veloptima/engine'
import { ImportError } from './errors.ts'
import { isFitFile, readFit } from './fit.ts'
import { readJsonTrack } from './json.ts'
import type { RawTrack } from './types.ts'
import { parseXml, readGpx, readTcx } from './xml.ts'

/** Reads GPX, TCX, FIT or our JSON from bytes. Throws ImportError with a stable code. */
export function readTrack(bytes: Uint8Array, fileName: string | null = null): RawTrack {
  if (bytes.length === 0) throw new ImportError('empty_file', 'the file is empty', fileName)
  if (isFitFile(bytes)) return readFit(bytes, fileName)
  let text = new TextDecoder('utf-8').decode(bytes)
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1)
  const head = text.trimStart()
  if (head === '')
    throw new ImportError('empty_file', 'the file contains only white space', fileName)
  if (head.startsWith('{')) return readJsonTrack(head, fileName)
  if (head.startsWith('<')) {
    const doc = parseXml(head, fileName)
    const root = doc.documentElement!.localName
    if (root === 'gpx') return readGpx(doc, fileName)
    if (root === 'TrainingCenterDatabase') return readTcx(doc, fileName)
    throw new ImportError('unknown_format', `XML root <${root}> is neither GPX nor TCX`, fileName)
  }
  throw new ImportError(
    'unknown_format',
    'expected GPX, TCX, FIT or JSON, got something else',
    fileName,
  )
}

export interface ImportedCourse extends BuiltCourse {
  track: RawTrack
}

/** Reads a file and builds the engine's Course from it. */
export function importCourse(
  bytes: Uint8Array,
  fileName: string | null = null,
  opts: BuildCourseOptions = {},
): ImportedCourse {
  const track = readTrack(bytes, fileName)
  try {
    return { ...buildCourse(track, opts), track }
  } catch (e) {
    if (e instanceof CourseError) throw new ImportError(e.code, e.message, fileName)
    throw e
  }
}

/**
 * The recording's power and moving/stationary time per segment of the imported course (for a
 * replay: `pacing: {type: "recorded"}`, `replayRecorded`); null when the file records no power or
 * no time.
 */
export function recordedRide(imported: ImportedCourse): RecordedSegments | null {
  const { track, course, pointDistanceM } = imported
  if (!track.power || !track.time.some(Number.isFinite)) return null
  return recordedSegments(course, {
    distanceM: pointDistanceM,
    timeS: track.time,
    powerW: track.power,
  })
}

import { ImportError, importCourse } from '@veloptima/formats'
import { courses, type Database } from '@veloptima/db'
import { AppError } from '../../errors.ts'
import type { Owner } from '../../files/repository.ts'
import type { FileService } from '../../files/service.ts'
import { segmentLengthFor, segmentsOf, statsOf, trackOf } from './course-rows.ts'

export type CourseRow = typeof courses.$inferSelect

/** Reads a course file in full before anything is stored, with the engine's default segments. */
export function buildFromFile(bytes: Uint8Array, fileName: string) {
  try {
    const first = importCourse(bytes, fileName)
    const length = segmentLengthFor(first.stats.distanceM)
    return length === 10 ? first : importCourse(bytes, fileName, { segmentLengthM: length })
  } catch (error) {
    if (error instanceof ImportError) {
      throw new AppError('invalid-course-file', 422, error.message.replace(/\.?$/, '.'), {
        reason: error.code,
      })
    }
    throw error
  }
}

/**
 * POST /api/courses/import: the file is checked (type by content), read and built into a course
 * first; only then are the bytes stored and the file and course rows written in one transaction.
 * Any failure leaves nothing behind (the bytes are removed if the rows cannot be written).
 */
export async function importCourseFile(
  database: Database,
  files: FileService,
  owner: Owner,
  upload: { filename: string; bytes: Uint8Array; name?: string | undefined },
): Promise<{ course: CourseRow; cleaning: ReturnType<typeof buildFromFile>['cleaning'] }> {
  const prepared = files.prepare(upload.filename, upload.bytes, {
    allowed: ['gpx', 'tcx', 'fit', 'json'],
  })
  const built = buildFromFile(upload.bytes, prepared.name)
  const name =
    upload.name?.trim() ||
    built.track.name?.trim() ||
    prepared.name.replace(/\.(gpx|tcx|fit|json)$/i, '') ||
    'Imported course'
  const course = await files.storeWith(prepared, () =>
    database.db.transaction(async (tx) => {
      const file = await files.insertRow(tx, prepared, owner, 'upload')
      const [row] = await tx
        .insert(courses)
        .values({
          ownerUid: owner.uid ?? null,
          ownerTeam: owner.team ?? null,
          name: name.slice(0, 200),
          sourceFileId: file.id,
          sourceFormat: built.track.format,
          track: trackOf(built.track, built.course),
          segments: segmentsOf(built.course),
          stats: statsOf(built),
        })
        .returning()
      return row!
    }),
  )
  return { course, cleaning: built.cleaning }
}

import { ImportError } from '@veloptima/formats'
import type { Database } from '@veloptima/db'
import { AppError } from '../../errors.ts'
import { ownerToColumns, type Owner } from '../../repositories/ownership.ts'
import type { FileService } from '../../files/service.ts'
import type { WorkerPool } from '../../jobs/pool.ts'
import { insertCourse, type CourseRow } from '../../repositories/courses.ts'
import { courseFromFile, type CourseFromFile } from './course-rows.ts'

/** The ImportError of a thread or of this thread, as the API's error naming file and problem. */
function importFailure(error: unknown): unknown {
  const e = error as { name?: string; errorName?: string; code?: string; message: string }
  if (error instanceof ImportError || e.errorName === 'ImportError') {
    return new AppError('invalid-course-file', e.message.replace(/\.?$/, '.'), {
      reason: e.code,
    })
  }
  return error
}

/**
 * Reads and builds the course: in a worker thread when the app has a pool for it (a 3 MB FIT file
 * takes over a second, which must not stall every other request), else here.
 */
export async function readCourseFile(
  bytes: Uint8Array,
  fileName: string,
  pool?: WorkerPool,
): Promise<CourseFromFile> {
  try {
    if (pool) return await pool.run<CourseFromFile>('import-course', { bytes, fileName })
    return courseFromFile(bytes, fileName)
  } catch (error) {
    throw importFailure(error)
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
  pool?: WorkerPool,
): Promise<{
  course: CourseRow
  cleaning: CourseFromFile['cleaning']
  warnings: CourseFromFile['warnings']
}> {
  const prepared = files.prepare(upload.filename, upload.bytes, {
    allowed: ['gpx', 'tcx', 'fit', 'json'],
  })
  const built = await readCourseFile(upload.bytes, prepared.name, pool)
  const name =
    upload.name?.trim() ||
    built.name?.trim() ||
    prepared.name.replace(/\.(gpx|tcx|fit|json)$/i, '') ||
    'Imported course'
  const course = await files.storeWith(prepared, () =>
    database.db.transaction(async (tx) => {
      const file = await files.insertRow(tx, prepared, owner, 'upload')
      return insertCourse(tx, {
        ...ownerToColumns(owner),
        name: name.slice(0, 200),
        sourceFileId: file.id,
        sourceFormat: built.format,
        track: built.track,
        segments: built.segments,
        stats: built.stats,
      })
    }),
  )
  return { course, cleaning: built.cleaning, warnings: built.warnings }
}

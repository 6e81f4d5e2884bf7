import { eq, sql } from 'drizzle-orm'
import { courses, type CourseTrack, type Db } from '@veloptima/db'

export type CourseRow = typeof courses.$inferSelect
export type NewCourse = typeof courses.$inferInsert

/** A course's track (positions, distances, elevations), or undefined for no such course. */
export async function courseTrack(db: Db, id: string): Promise<CourseTrack | undefined> {
  const [row] = await db.select({ track: courses.track }).from(courses).where(eq(courses.id, id))
  return row?.track ?? undefined
}

export async function insertCourse(db: Db, values: NewCourse): Promise<CourseRow> {
  const [row] = await db.insert(courses).values(values).returning()
  return row!
}

/** Writes a sample course under its fixed id: created once, its contents refreshed afterwards. */
export async function upsertSampleCourse(
  db: Db,
  id: string,
  values: Pick<NewCourse, 'name' | 'segments' | 'stats' | 'track'>,
): Promise<void> {
  await db
    .insert(courses)
    .values({ id, sample: true, sourceFormat: 'json', ...values })
    .onConflictDoUpdate({ target: courses.id, set: { ...values, updatedAt: sql`now()` } })
}

import { and, desc, eq, lt } from 'drizzle-orm'
import { optimizationResults, optimizations, type Db } from '@veloptima/db'
import { visibleTo } from './ownership.ts'

export type ResultRow = typeof optimizationResults.$inferSelect

/** Results of an optimization the caller can see, newest version first. */
export async function listResults(
  db: Db,
  uid: string,
  optimizationId: string,
  o: { limit: number; beforeVersion?: number | undefined },
) {
  const rows = await db
    .select({ r: optimizationResults })
    .from(optimizationResults)
    .innerJoin(optimizations, eq(optimizations.id, optimizationResults.optimizationId))
    .where(
      and(
        eq(optimizationResults.optimizationId, optimizationId),
        visibleTo(db, optimizations, uid),
        o.beforeVersion === undefined
          ? undefined
          : lt(optimizationResults.version, o.beforeVersion),
      ),
    )
    .orderBy(desc(optimizationResults.version))
    .limit(o.limit + 1)
  return rows.map((x) => x.r)
}

export async function findResult(db: Db, uid: string, id: string) {
  const [row] = await db
    .select({ r: optimizationResults })
    .from(optimizationResults)
    .innerJoin(optimizations, eq(optimizations.id, optimizationResults.optimizationId))
    .where(and(eq(optimizationResults.id, id), visibleTo(db, optimizations, uid)))
  return row?.r
}

export async function updateResult(db: Db, id: string, set: { label: string | null }) {
  const [row] = await db
    .update(optimizationResults)
    .set(set)
    .where(eq(optimizationResults.id, id))
    .returning()
  return row
}

export async function deleteResult(db: Db, id: string) {
  await db.delete(optimizationResults).where(eq(optimizationResults.id, id))
}

import { and, desc, eq, getTableColumns, lt } from 'drizzle-orm'
import { optimizationResults, optimizations, type Db } from '@veloptima/db'
import { findVisibleChild, visibleTo } from './ownership.ts'

export type ResultRow = typeof optimizationResults.$inferSelect
export type ResultSummaryRow = Omit<ResultRow, 'inputs' | 'result'>

/** What a list of results selects: everything but the snapshot of inputs and the result. */
const { inputs: _inputs, result: _result, ...summaryColumns } = getTableColumns(optimizationResults)

/**
 * Results of an optimization the caller can see, newest version first, without their inputs
 * and result (the list shows versions; one result is read whole by `findResult`).
 */
export async function listResults(
  db: Db,
  uid: string,
  optimizationId: string,
  o: { limit: number; beforeVersion?: number | undefined },
): Promise<ResultSummaryRow[]> {
  return listResultsQuery(db, uid, optimizationId, o)
}

/** The list's query, not run (its plan is checked in list-queries.int.test.ts). */
export function listResultsQuery(
  db: Db,
  uid: string,
  optimizationId: string,
  o: { limit: number; beforeVersion?: number | undefined },
) {
  return db
    .select(summaryColumns)
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
}

/** A result is seen, and changed, with its optimization. */
const ofOptimization = {
  child: optimizationResults,
  parentKey: optimizationResults.optimizationId,
  parent: optimizations,
}

export async function findResult(db: Db, uid: string, id: string) {
  return findVisibleChild(db, uid, id, ofOptimization)
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

// What the test planner reads of the caller's aero sessions: each analysed run's configuration,
// CdA and analysis version, in the sessions the caller can see (their own and their teams', as
// every aero session route: `visibleTo` of ownership.ts).
import { and, asc, desc, eq, isNotNull, sql } from 'drizzle-orm'
import { aeroDataBlocks, aeroRuns, aeroSessions, type Db } from '@veloptima/db'
import { visibleTo } from './ownership.ts'

export type AnalysedRun = {
  sessionId: string
  configuration: Record<string, string>
  /** The run's own CdA, m² (null when the analysis withheld it). */
  cda: number | null
  /** The analysis version that stored it. */
  version: number
}

/** The runs with stored results of every aero session the caller can see. */
export async function visibleAnalysedRuns(db: Db, uid: string): Promise<AnalysedRun[]> {
  const rows = await db
    .select({
      sessionId: aeroRuns.sessionId,
      configuration: aeroRuns.configuration,
      cda: sql<number | null>`(${aeroRuns.results}->>'cda')::float8`,
      version: sql<number>`coalesce((${aeroRuns.results}->>'version')::int, 0)`,
    })
    .from(aeroRuns)
    .innerJoin(aeroSessions, eq(aeroSessions.id, aeroRuns.sessionId))
    .where(and(visibleTo(db, aeroSessions, uid), isNotNull(aeroRuns.results)))
    .orderBy(asc(aeroRuns.sessionId), asc(aeroRuns.position))
  return rows.map((r) => ({
    ...r,
    cda: r.cda === null ? null : Number(r.cda),
    version: Number(r.version),
  }))
}

/**
 * Per session the caller can see, the run-to-run scatter its latest finished analysis's planner
 * took from the session fit (`plan.runSd` where `plan.runSdSource` is 'session_fit', m²).
 */
export async function sessionFitScatter(db: Db, uid: string): Promise<Map<string, number>> {
  const rows = await db
    .select({
      sessionId: aeroDataBlocks.sessionId,
      version: sql<number>`(${aeroDataBlocks.data}->>'version')::int`,
      runSd: sql<number | null>`(${aeroDataBlocks.data}->'summary'->'plan'->>'runSd')::float8`,
      source: sql<string | null>`${aeroDataBlocks.data}->'summary'->'plan'->>'runSdSource'`,
    })
    .from(aeroDataBlocks)
    .innerJoin(aeroSessions, eq(aeroSessions.id, aeroDataBlocks.sessionId))
    .where(
      and(
        visibleTo(db, aeroSessions, uid),
        sql`${aeroDataBlocks.data}->>'type' = 'analysis'`,
        sql`${aeroDataBlocks.data}->'summary' is not null`,
      ),
    )
    .orderBy(asc(aeroDataBlocks.sessionId), desc(sql`(${aeroDataBlocks.data}->>'version')::int`))
  const out = new Map<string, number>()
  const seen = new Set<string>()
  for (const r of rows) {
    if (seen.has(r.sessionId)) continue
    seen.add(r.sessionId)
    const sd = r.runSd === null ? NaN : Number(r.runSd)
    if (r.source === 'session_fit' && sd > 0) out.set(r.sessionId, sd)
  }
  return out
}

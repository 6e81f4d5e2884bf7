// What the test planner reads of the caller's aero sessions: each analysed run's configuration,
// CdA and analysis version, in the sessions the caller can see (their own and their teams', as
// every aero session route: `visibleTo` of ownership.ts).
import { and, asc, eq, isNotNull, sql } from 'drizzle-orm'
import { aeroRuns, aeroSessions, type Db } from '@veloptima/db'
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

// Reading an aero session's analysis versions and their blocks (split from aero-analysis.ts; the
// storage layout is described there). The caller has checked that the session is visible.
import { and, asc, desc, eq, gte, inArray, lt, sql } from 'drizzle-orm'
import { aeroDataBlocks, jobs, type Db } from '@veloptima/db'
import type { AeroAnalysisVersion } from '@veloptima/contracts'
import { isUuid } from '../repositories/ownership.ts'
import { STRIDE, versionJson, type BlockRow } from './aero-analysis-data.ts'

/** Every analysis version of a session, newest first, with its job's state. */
export async function versionsOf(db: Db, sessionId: string): Promise<AeroAnalysisVersion[]> {
  const blocks = await db
    .select()
    .from(aeroDataBlocks)
    .where(
      and(
        eq(aeroDataBlocks.sessionId, sessionId),
        sql`${aeroDataBlocks.data}->>'type' = 'analysis'`,
      ),
    )
    .orderBy(desc(aeroDataBlocks.sequence))
  const ids = blocks.map((b) => String(b.data.job_id)).filter(isUuid)
  const jobRows = ids.length ? await db.select().from(jobs).where(inArray(jobs.id, ids)) : []
  const byId = new Map(jobRows.map((j) => [j.id, j]))
  return blocks.map((b) => versionJson(b, byId.get(String(b.data.job_id))))
}

const blockJson = (b: BlockRow) => ({
  id: b.id,
  kind: b.kind,
  run_id: b.runId,
  sequence: b.sequence,
  start_time: b.startTime,
  end_time: b.endTime,
  data: b.data,
})

/** A version's runs' blocks (results, VE samples, track) and its CdA windows, in sequence. */
export async function versionBlocks(db: Db, sessionId: string, version: number) {
  const rows = await db
    .select()
    .from(aeroDataBlocks)
    .where(
      and(
        eq(aeroDataBlocks.sessionId, sessionId),
        gte(aeroDataBlocks.sequence, version * STRIDE + 1),
        lt(aeroDataBlocks.sequence, (version + 1) * STRIDE),
      ),
    )
    .orderBy(asc(aeroDataBlocks.sequence))
  return {
    runs: rows.filter((b) => b.data.type === 'run').map(blockJson),
    windows: rows.filter((b) => b.data.type === 'cdam').map(blockJson),
  }
}

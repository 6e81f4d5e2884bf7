// Aero analysis (see aero-analysis.ts): a finished version stored in ONE guarded transaction
// (its runs' results, the data blocks of this version, the "Aero analysis ready" notification),
// or marked failed with its notification.
import { and, eq, inArray, sql } from 'drizzle-orm'
import {
  aeroDataBlocks,
  aeroRuns,
  aeroSessions,
  jobs,
  notifications,
  type Db,
  type JsonObject,
} from '@veloptima/db'
import type { AeroRunResults } from '@veloptima/contracts'
import { comparisonOf, runResults } from './aero-results.ts'
import type { AeroTaskOutput, AeroTaskRun } from './aero-task.ts'
import {
  blockKind,
  DEFAULT_MASS_KG,
  notificationText,
  sourceBlocks,
  STRIDE,
  type AnalysisData,
  type BlockRow,
  type SessionRow,
  type SourceData,
} from './aero-analysis-data.ts'
import type { HistoricalAir } from '../weather/history-air.ts'
import { markSucceeded } from './repository.ts'
import { PermanentJobError, type JobContext } from './system.ts'

/** The version block of a job; a permanent failure when the session was deleted. */
export async function analysisBlockOf(db: Db, jobId: string): Promise<BlockRow> {
  const [row] = await db
    .select()
    .from(aeroDataBlocks)
    .where(sql`${aeroDataBlocks.data}->>'job_id' = ${jobId}`)
  if (!row) throw new PermanentJobError('analysis-missing', 'The aero session was deleted.')
  return row
}

/** Stores a finished analysis in one transaction, once. */
export async function storeAnalysis(
  db: Db,
  jobId: string,
  block: BlockRow,
  data: AnalysisData,
  session: SessionRow,
  runRows: (typeof aeroRuns.$inferSelect)[],
  output: AeroTaskOutput,
  /** The historical air used (or why none); null when not asked (the session stated its air). */
  air: HistoricalAir | null = null,
) {
  const userBaseline = runRows.some((r) => r.isBaseline)
  const comparison = comparisonOf(output)
  const resultsOf = (run: AeroTaskRun, i: number): AeroRunResults =>
    runResults(run, i, comparison, data.version)
  const sourceConfig = new Map<string, Record<string, string>>()
  for (const b of await sourceBlocks(db, session.id)) {
    const d = b.data as unknown as SourceData
    sourceConfig.set(d.file_id, d.configuration)
  }
  const k = blockKind(session.format, 'run')
  const kc = blockKind(session.format, 'cdam')
  const written = await db.transaction(async (tx) => {
    const done = await tx
      .update(aeroDataBlocks)
      .set({ data: sql`jsonb_set(${aeroDataBlocks.data}, '{status}', '"succeeded"')` })
      .where(
        and(eq(aeroDataBlocks.id, block.id), sql`${aeroDataBlocks.data}->>'status' = 'queued'`),
      )
      .returning({ id: aeroDataBlocks.id })
    if (done.length === 0) return false
    let position = runRows.reduce((m, r) => Math.max(m, r.position + 1), 0)
    const runIds: string[] = []
    for (const [i, run] of output.runs.entries()) {
      const results = resultsOf(run, i) as unknown as JsonObject
      const baseline =
        !userBaseline &&
        comparison != null &&
        run.configuration === comparison.baseline &&
        Number.isFinite(run.cda)
      if (run.key) {
        await tx
          .update(aeroRuns)
          .set({ results, updatedAt: new Date(), ...(baseline ? { isBaseline: true } : {}) })
          .where(eq(aeroRuns.id, run.key))
        runIds.push(run.key)
      } else {
        const [row] = await tx
          .insert(aeroRuns)
          .values({
            sessionId: session.id,
            name: run.label.slice(0, 200),
            position: position++,
            configuration: (run.fileId && sourceConfig.get(run.fileId)) || {},
            isBaseline: baseline,
            startTime: run.startT,
            endTime: run.endT,
            lap: run.lap,
            results,
          })
          .returning({ id: aeroRuns.id })
        runIds.push(row!.id)
      }
    }
    for (const [i, run] of output.runs.entries()) {
      const { series, track, ...rest } = run
      await tx.insert(aeroDataBlocks).values({
        sessionId: session.id,
        runId: runIds[i]!,
        deviceId: data.device?.id ?? null,
        kind: k,
        sequence: data.version * STRIDE + 1 + i,
        startTime: run.startT,
        endTime: run.endT,
        data: {
          type: 'run',
          version: data.version,
          name: run.label,
          results: resultsOf(run, i),
          params: {
            cda: rest.cda,
            crr: rest.crr,
            mass_kg: data.settings.mass_kg ?? DEFAULT_MASS_KG,
            drivetrain_efficiency: data.settings.drivetrain_efficiency ?? null,
            wind_e: rest.windE,
            wind_n: rest.windN,
            offset_m: rest.elevationOffsetM,
          },
          series,
          track,
        } as unknown as JsonObject,
      })
    }
    const perRun = new Map<number, AeroTaskOutput['windows']>()
    for (const w of output.windows) perRun.set(w.run, [...(perRun.get(w.run) ?? []), w])
    for (const [i, windows] of perRun) {
      await tx.insert(aeroDataBlocks).values({
        sessionId: session.id,
        runId: runIds[i] ?? null,
        deviceId: data.device?.id ?? null,
        kind: kc,
        sequence: data.version * STRIDE + 50_000 + i,
        startTime: windows[0]!.startT,
        endTime: windows[windows.length - 1]!.endT,
        data: {
          type: 'cdam',
          version: data.version,
          start_t: windows.map((w) => w.startT),
          end_t: windows.map((w) => w.endT),
          cda: windows.map((w) => w.cda),
          speed_mps: windows.map((w) => w.meanSpeedMps),
          air_speed_mps: windows.map((w) => w.meanAirSpeedMps),
          power_w: windows.map((w) => w.meanPowerW),
          yaw_rad: windows.map((w) => w.meanYawRad),
        } as unknown as JsonObject,
      })
    }
    const summary: NonNullable<AnalysisData['summary']> = {
      crr: output.crr,
      ve_model: output.veModel,
      fitted_calibration_factor: output.fittedCalibrationFactor,
      comparison: output.comparison,
      plan: output.plan,
      warnings: [...data.warnings, ...output.warnings],
      runs: output.runs.length,
      ...(air ? { weather: air } : {}),
    }
    await tx
      .update(aeroDataBlocks)
      .set({
        data: sql`${aeroDataBlocks.data} || ${JSON.stringify({ summary })}::jsonb`,
      })
      .where(eq(aeroDataBlocks.id, block.id))
    await tx.insert(notifications).values({
      uid: data.requested_by,
      type: 'success',
      title: 'Aero analysis ready',
      text: `${session.name} (v${data.version}): ${notificationText(output)}`,
      data: {
        aero_session_id: session.id,
        aero_session_format: session.format,
        version: data.version,
      },
    })
    await markSucceeded(tx, jobId, { version: data.version, runs: output.runs.length })
    return true
  })
  return written
}

/** Marks a version failed (once) and tells the user who asked for it. */
export async function markAnalysisFailed(
  db: Db,
  jobId: string,
  error: { code: string; message: string },
) {
  const block = await analysisBlockOf(db, jobId).catch(() => undefined)
  if (!block) return
  const data = block.data as unknown as AnalysisData
  const rows = await db
    .update(aeroDataBlocks)
    .set({
      data: sql`${aeroDataBlocks.data} || ${JSON.stringify({ status: 'failed', error })}::jsonb`,
    })
    .where(and(eq(aeroDataBlocks.id, block.id), sql`${aeroDataBlocks.data}->>'status' = 'queued'`))
    .returning({ id: aeroDataBlocks.id })
  if (rows.length === 0) return
  const [session] = await db
    .select({ name: aeroSessions.name, format: aeroSessions.format })
    .from(aeroSessions)
    .where(eq(aeroSessions.id, block.sessionId))
  await db.insert(notifications).values({
    uid: data.requested_by,
    type: 'error',
    title: 'Aero analysis failed',
    text: `${session?.name ?? 'Aero session'} (v${data.version}): ${error.message}`,
    data: {
      aero_session_id: block.sessionId,
      aero_session_format: session?.format ?? 'v6',
      version: data.version,
    },
  })
}

/** How long a version waits for the earlier versions of its session to finish. */
const WAIT_EARLIER_MS = 10 * 60_000

/**
 * Versions of one session build on each other (a version analyses the runs the earlier ones
 * found): waits while an earlier version is still queued or running (jobs are taken in order,
 * so it is running or about to), at most WAIT_EARLIER_MS.
 */
export async function waitForEarlierVersions(
  db: Db,
  block: BlockRow,
  version: number,
  ctx: JobContext,
) {
  const deadline = Date.now() + WAIT_EARLIER_MS
  for (;;) {
    const [pending] = await db
      .select({ id: aeroDataBlocks.id })
      .from(aeroDataBlocks)
      .innerJoin(jobs, sql`${jobs.id}::text = ${aeroDataBlocks.data}->>'job_id'`)
      .where(
        and(
          eq(aeroDataBlocks.sessionId, block.sessionId),
          sql`${aeroDataBlocks.data}->>'type' = 'analysis'`,
          sql`(${aeroDataBlocks.data}->>'version')::int < ${version}`,
          sql`${aeroDataBlocks.data}->>'status' = 'queued'`,
          inArray(jobs.status, ['queued', 'running']),
        ),
      )
      .limit(1)
    if (!pending || Date.now() > deadline || ctx.signal.aborted) return
    ctx.progress(0, 'Waiting for the previous analysis of this session')
    await new Promise((r) => setTimeout(r, 300))
  }
}

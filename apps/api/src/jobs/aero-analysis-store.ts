// Aero analysis (see aero-analysis.ts): a finished version stored in ONE guarded transaction
// (its runs' results, the data blocks of this version, the "Aero analysis ready" notification),
// or marked failed with its notification.
import type { Db, JsonObject } from '@veloptima/db'
import type { AeroRunResults } from '@veloptima/contracts'
import { comparisonOf, runResults } from './aero-results.ts'
import type { AeroTaskOutput, AeroTaskRun } from './aero-task.ts'
import {
  blockKind,
  DEFAULT_MASS_KG,
  notificationText,
  type AnalysisData,
  type BlockRow,
  type SessionRow,
  type SourceData,
} from './aero-analysis-data.ts'
import {
  analysisBlockOfJob,
  earlierVersionPending,
  insertRun,
  markQueuedAnalysisSucceeded,
  patchBlock,
  patchQueuedBlock,
  sessionById,
  sourceBlocks,
  storeBlock,
  STRIDE,
  updateRun,
  type RunRow,
} from '../repositories/aero.ts'
import { insertNotification } from '../repositories/notifications.ts'
import type { HistoricalAir } from '../weather/history-air.ts'
import { markSucceeded } from './repository.ts'
import { PermanentJobError, type JobContext } from './system.ts'

/** The version block of a job; a permanent failure when the session was deleted. */
export async function analysisBlockOf(db: Db, jobId: string): Promise<BlockRow> {
  const row = await analysisBlockOfJob(db, jobId)
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
  runRows: RunRow[],
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
    if (!(await markQueuedAnalysisSucceeded(tx, block.id))) return false
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
        await updateRun(tx, run.key, {
          results,
          updatedAt: new Date(),
          ...(baseline ? { isBaseline: true } : {}),
        })
        runIds.push(run.key)
      } else {
        const row = await insertRun(tx, {
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
        runIds.push(row.id)
      }
    }
    for (const [i, run] of output.runs.entries()) {
      const { series, track, ...rest } = run
      await storeBlock(tx, {
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
      await storeBlock(tx, {
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
      skipped_laps: output.skippedLaps,
      ...(output.crrByTyre.length > 0 ? { crr_by_tyre: output.crrByTyre } : {}),
      ...(air ? { weather: air } : {}),
    }
    await patchBlock(tx, block.id, { summary } as unknown as JsonObject)
    await insertNotification(tx, {
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
  if (!(await patchQueuedBlock(db, block.id, { status: 'failed', error }))) return
  const session = await sessionById(db, block.sessionId)
  await insertNotification(db, {
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
    const pending = await earlierVersionPending(db, block.sessionId, version)
    if (!pending || Date.now() > deadline || ctx.signal.aborted) return
    ctx.progress(0, 'Waiting for the previous analysis of this session')
    await new Promise((r) => setTimeout(r, 300))
  }
}

// Aero analysis: an uploaded field test is read at once (a bad file is refused with nothing
// stored), then stored, attached to its session and analysed by a job. The job reads every file
// of the session in a worker thread, finds or takes the runs, fits CdA and Crr per run with the
// engine, and in ONE guarded transaction stores the runs' results, the data blocks of this
// analysis version and the "Aero analysis ready" notification. Re-analysing (other mass, Crr,
// calibration, baseline) makes a new version; earlier versions' blocks stay.
//
// Storage (no table of its own): a version is a block with `data.type = "analysis"` (kind `run`
// in v6 sessions, `raw` in v5) at sequence version·100 000; its runs' blocks (`data.type = "run"`)
// and CdA windows (`cdam` in v6, `raw` with `data.type = "cdam"` in v5) follow it. Each uploaded
// file is a block with `data.type = "source"` at sequence < 100 000.
import { randomUUID } from 'node:crypto'
import type { Readable } from 'node:stream'
import { and, asc, desc, eq, gte, inArray, lt, sql } from 'drizzle-orm'
import {
  aeroDataBlocks,
  aeroRuns,
  aeroSessions,
  devices,
  files,
  jobs,
  notifications,
  type Db,
  type JsonObject,
} from '@veloptima/db'
import {
  aeroAnalysisCreateSchema,
  aeroAnalysisSettingsSchema,
  type AeroAnalysisSettings,
  type AeroAnalysisVersion,
  type AeroRunResults,
  type AeroSourceFile,
} from '@veloptima/contracts'
import { AppError, notFound } from '../errors.ts'
import type { FileService } from '../files/service.ts'
import { visibleTo } from '../repositories/ownership.ts'
import { isUuid } from '../repositories/ownership.ts'
import { parse } from '../services/validation.ts'
import type {
  ActivitySummary,
  AeroTaskInput,
  AeroTaskOutput,
  AeroTaskRun,
  GivenRun,
} from './aero-task.ts'
import { TaskError } from './pool.ts'
import { insertJob, markSucceeded } from './repository.ts'
import { PermanentJobError, type JobContext, type JobSystem } from './system.ts'

export const AERO_ANALYSIS = 'aero-analysis'

/** Sequence of a version's blocks: version·STRIDE + k (sources below STRIDE). */
const STRIDE = 100_000
/** Mass assumed when the session states none (said in the analysis' warnings). */
const DEFAULT_MASS_KG = 80
/** How long a version waits for the earlier versions of its session to finish. */
const WAIT_EARLIER_MS = 10 * 60_000

declare module 'fastify' {
  interface FastifyInstance {
    /** Aero uploads and analysis versions (jobs). */
    aeroAnalyses: AeroAnalyses
  }
}

type SessionRow = typeof aeroSessions.$inferSelect
type BlockRow = typeof aeroDataBlocks.$inferSelect

/** What an analysis version records when it is asked for (the job reads it back). */
type AnalysisData = {
  type: 'analysis'
  version: number
  job_id: string
  status: 'queued' | 'succeeded' | 'failed' | 'cancelled'
  label: string | null
  requested_by: string
  settings: AeroAnalysisSettings
  device: { id: string; serial: string } | null
  /** Files whose runs this version detects (the newly uploaded ones). */
  detect_file_ids: string[]
  warnings: string[]
  error?: { code: string; message: string }
  summary?: AeroAnalysisVersion['summary']
}

type SourceData = {
  type: 'source'
  file_id: string
  name: string
  configuration: Record<string, string>
  offset_s: number
  summary: ActivitySummary
}

/** A run's configuration as one text (the engine compares runs by it). */
export function configText(c: Record<string, string>): string {
  return Object.entries(c)
    .filter(([, v]) => v.trim() !== '')
    .map(([k, v]) => (k === 'setup' ? v : `${k}: ${v}`))
    .join(', ')
}

const blockKind = (format: SessionRow['format'], kind: 'run' | 'cdam') =>
  format === 'v5' ? ('raw' as const) : kind

async function bytesOf(stream: Readable): Promise<Uint8Array> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array))
  return new Uint8Array(Buffer.concat(chunks))
}

/** The reader's ImportError (in a thread or here) as a 422 naming the file and the field. */
function activityFailure(error: unknown, fileName: string): unknown {
  const e = error as { errorName?: string; name?: string; code?: string; message: string }
  const isImport =
    e.name === 'ImportError' || (error instanceof TaskError && e.errorName === 'ImportError')
  if (!isImport) return error
  const field =
    e.code === 'missing_power' ? 'power' : e.code === 'missing_speed' ? 'speed' : undefined
  const message = e.message.includes(fileName) ? e.message : `${fileName}: ${e.message}`
  return new AppError('invalid-activity-file', 422, message.replace(/\.?$/, '.'), {
    file: fileName,
    reason: e.code,
    ...(field ? { field } : {}),
  })
}

const num = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) ? x : undefined)

export class AeroAnalyses {
  constructor(
    private readonly db: Db,
    private readonly jobs: JobSystem,
    private readonly files: FileService,
  ) {
    jobs.define({
      queue: AERO_ANALYSIS,
      run: (ctx) => this.run(ctx),
      onFailed: (jobId, error) => this.failed(jobId, error),
      onCancelled: async (tx, jobId) => {
        await tx
          .update(aeroDataBlocks)
          .set({ data: sql`jsonb_set(${aeroDataBlocks.data}, '{status}', '"cancelled"')` })
          .where(
            and(
              sql`${aeroDataBlocks.data}->>'job_id' = ${jobId}`,
              sql`${aeroDataBlocks.data}->>'status' = 'queued'`,
            ),
          )
      },
    })
  }

  /** The session if the caller can see it (owner, or a member of its team); else 404. */
  async session(uid: string, id: string): Promise<SessionRow> {
    const [row] = isUuid(id)
      ? await this.db
          .select()
          .from(aeroSessions)
          .where(and(eq(aeroSessions.id, id), visibleTo(this.db, aeroSessions, uid)))
      : []
    if (!row) throw notFound('The aero session')
    return row
  }

  /**
   * POST /api/aero-sessions/:id/files: reads the file first (a file the analysis cannot use is
   * refused, 422, and nothing is stored), then stores it, attaches it to the session and queues
   * the analysis. `configuration` labels the runs found in this file.
   */
  async upload(
    uid: string,
    sessionId: string,
    upload: { filename: string; bytes: Uint8Array; configuration?: string | undefined },
  ) {
    const session = await this.session(uid, sessionId)
    const name = upload.filename || 'upload'
    if (upload.bytes.byteLength === 0) {
      throw new AppError('invalid-activity-file', 422, `${name}: the file is empty.`, {
        file: name,
        reason: 'empty_file',
      })
    }
    const prepared = this.files.prepare(name, upload.bytes, {
      allowed: ['fit', 'tcx', 'csv', 'json', 'gpx'],
    })
    const device = await this.sessionDevice(session, undefined)
    let summary: ActivitySummary
    try {
      summary = await this.jobs.interactivePool().run<ActivitySummary>('aero-read', {
        bytes: upload.bytes,
        fileName: prepared.name,
        deviceSerial: device?.serial,
      })
    } catch (error) {
      throw activityFailure(error, prepared.name)
    }
    const configuration = upload.configuration?.trim()
      ? { setup: upload.configuration.trim().slice(0, 200) }
      : { setup: prepared.name.replace(/\.[^.]+$/, '') }
    const owner = session.ownerTeam ? { team: session.ownerTeam } : { uid: session.ownerUid! }
    const jobId = randomUUID()
    const { source, version } = await this.files.storeWith(prepared, () =>
      this.db.transaction(async (tx) => {
        await this.lock(tx, session.id)
        const file = await this.files.insertRow(tx, prepared, owner, 'upload')
        const sources = await this.sources(tx, session.id)
        const offset = offsetOf(sources, summary)
        const data: SourceData = {
          type: 'source',
          file_id: file.id,
          name: prepared.name,
          configuration,
          offset_s: offset,
          summary,
        }
        const [source] = await tx
          .insert(aeroDataBlocks)
          .values({
            sessionId: session.id,
            kind: blockKind(session.format, 'run'),
            sequence: sources.length,
            startTime: offset,
            endTime: offset + summary.durationS,
            data: data as unknown as JsonObject,
          })
          .returning()
        await tx
          .update(aeroSessions)
          .set({
            sourceFileId: file.id,
            updatedAt: new Date(),
            ...(session.startedAt || summary.startEpochS == null
              ? {}
              : { startedAt: new Date(summary.startEpochS * 1000) }),
          })
          .where(eq(aeroSessions.id, session.id))
        const version = await this.enqueue(tx, session, uid, jobId, {}, [file.id], null)
        return { source: source!, version }
      }),
    )
    await this.jobs.send(AERO_ANALYSIS, jobId)
    return {
      file: { id: source.data.file_id as string, name: prepared.name },
      source: sourceJson(source),
      analysis: { version, job_id: jobId },
    }
  }

  /** POST /api/aero-sessions/:id/analyses: a new version with these overrides of the settings. */
  async analyse(uid: string, sessionId: string, input: unknown) {
    const body = parse(aeroAnalysisCreateSchema, input ?? {})
    const session = await this.session(uid, sessionId)
    const { label, ...overrides } = body
    const sources = await this.sources(this.db, session.id)
    if (sources.length === 0) {
      throw new AppError(
        'no-data',
        400,
        'Upload a file with the test (FIT, TCX, CSV…) before analysing this session.',
      )
    }
    const jobId = randomUUID()
    const version = await this.db.transaction(async (tx) => {
      await this.lock(tx, session.id)
      return this.enqueue(tx, session, uid, jobId, overrides, [], label ?? null)
    })
    await this.jobs.send(AERO_ANALYSIS, jobId)
    return { version, job_id: jobId }
  }

  /**
   * POST /api/aero-runs/:id/baseline: the run's configuration becomes the session's baseline
   * (every run with that configuration is a baseline repeat); a new version compares against it.
   */
  async setBaseline(uid: string, runId: string) {
    const [row] = isUuid(runId)
      ? await this.db
          .select({ run: aeroRuns })
          .from(aeroRuns)
          .innerJoin(aeroSessions, eq(aeroSessions.id, aeroRuns.sessionId))
          .where(and(eq(aeroRuns.id, runId), visibleTo(this.db, aeroSessions, uid)))
      : []
    if (!row) throw notFound('The run')
    const run = row.run
    const text = configText(run.configuration)
    const all = await this.db.select().from(aeroRuns).where(eq(aeroRuns.sessionId, run.sessionId))
    await this.db.transaction(async (tx) => {
      for (const r of all) {
        const baseline = r.id === run.id || (text !== '' && configText(r.configuration) === text)
        if (r.isBaseline !== baseline) {
          await tx
            .update(aeroRuns)
            .set({ isBaseline: baseline, updatedAt: new Date() })
            .where(eq(aeroRuns.id, r.id))
        }
      }
    })
    const sources = await this.sources(this.db, run.sessionId)
    if (sources.length === 0) return { version: null, job_id: null }
    return this.analyse(uid, run.sessionId, { label: `Baseline: ${text || run.name}` })
  }

  /** GET /api/aero-sessions/:id/analyses: every version, newest first, with its job's state. */
  async listVersions(uid: string, sessionId: string): Promise<{ items: AeroAnalysisVersion[] }> {
    const session = await this.session(uid, sessionId)
    const blocks = await this.db
      .select()
      .from(aeroDataBlocks)
      .where(
        and(
          eq(aeroDataBlocks.sessionId, session.id),
          sql`${aeroDataBlocks.data}->>'type' = 'analysis'`,
        ),
      )
      .orderBy(desc(aeroDataBlocks.sequence))
    const ids = blocks.map((b) => String(b.data.job_id)).filter(isUuid)
    const jobRows = ids.length ? await this.db.select().from(jobs).where(inArray(jobs.id, ids)) : []
    const byId = new Map(jobRows.map((j) => [j.id, j]))
    return { items: blocks.map((b) => versionJson(b, byId.get(String(b.data.job_id)))) }
  }

  /**
   * GET /api/aero-sessions/:id/analyses/:version (or `latest`: the newest that succeeded): the
   * version, its runs' blocks (results, VE samples, track) and its CdA windows.
   */
  async getVersion(uid: string, sessionId: string, which: string) {
    const session = await this.session(uid, sessionId)
    const { items } = await this.listVersions(uid, session.id)
    const version =
      which === 'latest'
        ? items.find((v) => v.status === 'succeeded')
        : items.find((v) => String(v.version) === which)
    if (!version) {
      if (which === 'latest') return { analysis: null, runs: [], windows: [] }
      throw notFound('The analysis version')
    }
    const rows = await this.db
      .select()
      .from(aeroDataBlocks)
      .where(
        and(
          eq(aeroDataBlocks.sessionId, session.id),
          gte(aeroDataBlocks.sequence, version.version * STRIDE + 1),
          lt(aeroDataBlocks.sequence, (version.version + 1) * STRIDE),
        ),
      )
      .orderBy(asc(aeroDataBlocks.sequence))
    const json = (b: BlockRow) => ({
      id: b.id,
      kind: b.kind,
      run_id: b.runId,
      sequence: b.sequence,
      start_time: b.startTime,
      end_time: b.endTime,
      data: b.data,
    })
    return {
      analysis: version,
      runs: rows.filter((b) => b.data.type === 'run').map(json),
      windows: rows.filter((b) => b.data.type === 'cdam').map(json),
    }
  }

  /**
   * GET /api/aero-sessions/:id/files: the files read into the session, in upload order (the
   * order their laps are numbered in: a file's laps follow the earlier files' laps).
   */
  async listSources(uid: string, sessionId: string): Promise<{ items: AeroSourceFile[] }> {
    const session = await this.session(uid, sessionId)
    const rows = await this.sources(this.db, session.id)
    return { items: rows.map(sourceJson) }
  }

  // — internals —

  /** Serializes version numbers and file offsets of one session (row lock; PGlite is serial). */
  private async lock(tx: Db, sessionId: string) {
    await tx.execute(sql`select id from aero_sessions where id = ${sessionId} for update`)
  }

  private sources(db: Db, sessionId: string) {
    return db
      .select()
      .from(aeroDataBlocks)
      .where(
        and(
          eq(aeroDataBlocks.sessionId, sessionId),
          lt(aeroDataBlocks.sequence, STRIDE),
          sql`${aeroDataBlocks.data}->>'type' = 'source'`,
        ),
      )
      .orderBy(asc(aeroDataBlocks.sequence))
  }

  /** The session device whose data and calibration the analysis uses (chosen, primary, first). */
  private async sessionDevice(
    session: SessionRow,
    chosen: string | null | undefined,
    db: Db = this.db,
  ) {
    const list = session.devices ?? []
    const entry =
      (chosen ? list.find((d) => d.device_id === chosen) : undefined) ??
      list.find((d) => d.role === 'primary') ??
      list[0]
    const id = chosen ?? entry?.device_id
    if (!id) return undefined
    const [row] = await db.select().from(devices).where(eq(devices.id, id))
    if (!row) return undefined
    const cal = row.calibration ?? {}
    const factor =
      (entry?.device_id === id ? entry?.calibration_factor : undefined) ??
      num(cal.calibration_factor) ??
      num(cal.factor) ??
      num(cal.cal)
    return { id: row.id, serial: row.serial, calibrationFactor: factor }
  }

  /** Inserts the version's block and its job row (in the caller's transaction); the version. */
  private async enqueue(
    tx: Db,
    session: SessionRow,
    uid: string,
    jobId: string,
    overrides: AeroAnalysisSettings,
    detectFileIds: string[],
    label: string | null,
  ): Promise<number> {
    const [row] = await tx
      .select({ v: sql<number>`coalesce(max((${aeroDataBlocks.data}->>'version')::int), 0)::int` })
      .from(aeroDataBlocks)
      .where(
        and(
          eq(aeroDataBlocks.sessionId, session.id),
          sql`${aeroDataBlocks.data}->>'type' = 'analysis'`,
        ),
      )
    const version = Number(row?.v ?? 0) + 1
    const warnings: string[] = []
    const stored = aeroAnalysisSettingsSchema.safeParse(pickSettings(session.environment))
    if (!stored.success) {
      const issue = stored.error.issues[0]!
      throw new AppError(
        'invalid-inputs',
        400,
        `environment.${issue.path.join('.')}: ${issue.message}. Correct the session's environment.`,
        { field: `environment.${issue.path.join('.')}` },
      )
    }
    const settings: AeroAnalysisSettings = { ...stored.data, ...overrides }
    if (settings.mass_kg == null) {
      settings.mass_kg = DEFAULT_MASS_KG
      warnings.push(
        `mass_kg: the session gives no system mass; ${DEFAULT_MASS_KG} kg (rider, bike and kit) assumed.`,
      )
    }
    // in the caller's transaction (PGlite has one connection: a query beside it would wait)
    const device = await this.sessionDevice(session, settings.device_id, tx)
    if (settings.calibration_factor == null && device?.calibrationFactor != null) {
      settings.calibration_factor = device.calibrationFactor
    }
    await insertJob(tx, {
      id: jobId,
      ownerUid: session.ownerUid ?? null,
      ownerTeam: session.ownerTeam ?? null,
      kind: AERO_ANALYSIS,
      subjectType: 'aero_session',
      subjectId: session.id,
      bossJobId: jobId,
    })
    const data: AnalysisData = {
      type: 'analysis',
      version,
      job_id: jobId,
      status: 'queued',
      label,
      requested_by: uid,
      settings,
      device: device ? { id: device.id, serial: device.serial } : null,
      detect_file_ids: detectFileIds,
      warnings,
    }
    await tx.insert(aeroDataBlocks).values({
      sessionId: session.id,
      kind: blockKind(session.format, 'run'),
      sequence: version * STRIDE,
      data: data as unknown as JsonObject,
    })
    return version
  }

  private async analysisBlock(jobId: string): Promise<BlockRow> {
    const [row] = await this.db
      .select()
      .from(aeroDataBlocks)
      .where(sql`${aeroDataBlocks.data}->>'job_id' = ${jobId}`)
    if (!row) throw new PermanentJobError('analysis-missing', 'The aero session was deleted.')
    return row
  }

  /** One attempt of an analysis (idempotent: the final transaction applies once). */
  private async run(ctx: JobContext) {
    const { jobId } = ctx
    const block = await this.analysisBlock(jobId)
    const data = block.data as unknown as AnalysisData
    if (data.status === 'cancelled' || data.status === 'failed') return
    if (data.status === 'succeeded') {
      await markSucceeded(this.db, jobId, { version: data.version })
      return
    }
    await this.earlierVersionsDone(block, data.version, ctx)
    const [session] = await this.db
      .select()
      .from(aeroSessions)
      .where(eq(aeroSessions.id, block.sessionId))
    if (!session) throw new PermanentJobError('analysis-missing', 'The aero session was deleted.')
    ctx.progress(1, 'Loading the files')
    const sourceRows = await this.sources(this.db, session.id)
    const sources = sourceRows.map((b) => b.data as unknown as SourceData)
    const fileRows = sources.length
      ? await this.db
          .select()
          .from(files)
          .where(
            inArray(
              files.id,
              sources.map((s) => s.file_id),
            ),
          )
      : []
    const keyOf = new Map(fileRows.map((f) => [f.id, f.storageKey]))
    const present = sources.filter((s) => keyOf.has(s.file_id))
    if (present.length === 0) {
      throw new PermanentJobError('no-data', 'The session has no stored file to analyse.')
    }
    const taskFiles = await Promise.all(
      present.map(async (s) => ({
        fileId: s.file_id,
        name: s.name,
        bytes: await bytesOf(await this.files.storage.get(keyOf.get(s.file_id)!)),
        offsetS: s.offset_s,
        configuration: configText(s.configuration),
        detect: data.detect_file_ids.includes(s.file_id),
      })),
    )
    const runRows = await this.db
      .select()
      .from(aeroRuns)
      .where(eq(aeroRuns.sessionId, session.id))
      .orderBy(asc(aeroRuns.position), asc(aeroRuns.createdAt))
    const given: GivenRun[] = runRows.map((r) => ({
      key: r.id,
      name: r.name,
      startT: r.startTime,
      endT: r.endTime,
      lap: r.lap,
      configuration: configText(r.configuration),
    }))
    const baselineRun = runRows.find((r) => r.isBaseline)
    const s = data.settings
    const input: AeroTaskInput = {
      files: taskFiles,
      deviceSerial: data.device?.serial,
      runs: given,
      baseline: baselineRun ? configText(baselineRun.configuration) : undefined,
      analysis: {
        massKg: s.mass_kg ?? DEFAULT_MASS_KG,
        ...(s.crr != null ? { crr: s.crr } : {}),
        ...(s.drivetrain_efficiency != null
          ? { drivetrainEfficiency: s.drivetrain_efficiency }
          : {}),
        ...(s.air_density_kg_m3 != null ? { airDensity: s.air_density_kg_m3 } : {}),
        ...(s.air_density_kg_m3 == null && s.temperature_c != null && s.pressure_pa != null
          ? {
              environment: {
                temperatureC: s.temperature_c,
                pressurePa: s.pressure_pa,
                ...(s.humidity != null ? { humidity: s.humidity } : {}),
              },
            }
          : {}),
        ...(s.method ? { method: s.method } : {}),
        ...(s.calibration_factor != null ? { calibrationFactor: s.calibration_factor } : {}),
        ...(s.reference_speed_mps != null ? { referenceSpeedMps: s.reference_speed_mps } : {}),
        ...(s.reference_power_w != null ? { referencePowerW: s.reference_power_w } : {}),
      },
    }
    const output = await ctx.pool.run<AeroTaskOutput>(
      'aero-analysis',
      input,
      (p) => ctx.progress(p.progress, p.message),
      ctx.signal,
    )
    await this.store(jobId, block, data, session, runRows, output)
  }

  /**
   * Versions of one session build on each other (a version analyses the runs the earlier ones
   * found): waits while an earlier version is still queued or running (jobs are taken in order,
   * so it is running or about to), at most WAIT_EARLIER_MS.
   */
  private async earlierVersionsDone(block: BlockRow, version: number, ctx: JobContext) {
    const deadline = Date.now() + WAIT_EARLIER_MS
    for (;;) {
      const [pending] = await this.db
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

  /** Stores a finished analysis in one transaction, once. */
  private async store(
    jobId: string,
    block: BlockRow,
    data: AnalysisData,
    session: SessionRow,
    runRows: (typeof aeroRuns.$inferSelect)[],
    output: AeroTaskOutput,
  ) {
    const comparison = output.comparison as {
      baseline: string
      correctedCda: number[]
      configurations: {
        configuration: string
        deltaCda: number
        deltaCdaCi95: [number, number]
        wattsSaved: number
        secondsPer40km: number
        verdict: 'faster' | 'slower' | 'no_difference'
      }[]
    } | null
    const byConfig = new Map(comparison?.configurations.map((c) => [c.configuration, c]) ?? [])
    const userBaseline = runRows.some((r) => r.isBaseline)
    const sourceConfig = new Map<string, Record<string, string>>()
    for (const b of await this.sources(this.db, session.id)) {
      const d = b.data as unknown as SourceData
      sourceConfig.set(d.file_id, d.configuration)
    }
    const resultsOf = (run: AeroTaskRun, i: number): AeroRunResults => {
      const c = byConfig.get(run.configuration)
      const isBaseline = comparison != null && run.configuration === comparison.baseline
      return {
        version: data.version,
        detected: run.key == null,
        source: run.source,
        method: run.method,
        cda: run.cda,
        cda_ci95: run.cdaCi95,
        crr: run.crr,
        crr_ci95: run.crrCi95,
        ve_rmse_m: run.veRmseM,
        corrected_cda: comparison?.correctedCda[i] ?? null,
        delta_cda: c ? c.deltaCda : isBaseline ? 0 : null,
        delta_cda_ci95: c ? c.deltaCdaCi95 : null,
        watts_saved: c ? c.wattsSaved : null,
        seconds_per_40km: c ? c.secondsPer40km : null,
        verdict: c ? c.verdict : null,
        mean_speed_mps: run.meanSpeedMps,
        mean_power_w: run.meanPowerW,
        air_density: run.airDensity,
        calibration_factor: run.calibrationFactor,
        flags: run.flags,
        file_id: run.fileId,
      }
    }
    const k = blockKind(session.format, 'run')
    const kc = blockKind(session.format, 'cdam')
    const written = await this.db.transaction(async (tx) => {
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
          !userBaseline && comparison != null && run.configuration === comparison.baseline
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
        warnings: [...data.warnings, ...output.warnings],
        runs: output.runs.length,
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

  private async failed(jobId: string, error: { code: string; message: string }) {
    const block = await this.analysisBlock(jobId).catch(() => undefined)
    if (!block) return
    const data = block.data as unknown as AnalysisData
    const rows = await this.db
      .update(aeroDataBlocks)
      .set({
        data: sql`${aeroDataBlocks.data} || ${JSON.stringify({ status: 'failed', error })}::jsonb`,
      })
      .where(
        and(eq(aeroDataBlocks.id, block.id), sql`${aeroDataBlocks.data}->>'status' = 'queued'`),
      )
      .returning({ id: aeroDataBlocks.id })
    if (rows.length === 0) return
    const [session] = await this.db
      .select({ name: aeroSessions.name, format: aeroSessions.format })
      .from(aeroSessions)
      .where(eq(aeroSessions.id, block.sessionId))
    await this.db.insert(notifications).values({
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
}

/** The known settings keys of a session's environment (other keys are the tester's notes). */
function pickSettings(env: Record<string, unknown>): Record<string, unknown> {
  const keys = Object.keys(aeroAnalysisSettingsSchema.shape)
  return Object.fromEntries(
    Object.entries(env ?? {}).filter(([k, v]) => keys.includes(k) && v !== undefined),
  )
}

/** Where a new file sits on the session clock: by its absolute start, else after the last file. */
function offsetOf(sources: BlockRow[], summary: ActivitySummary): number {
  const list = sources.map((b) => b.data as unknown as SourceData)
  const first = list.find((s) => s.summary.startEpochS != null)
  const end = list.reduce((m, s) => Math.max(m, s.offset_s + s.summary.durationS), 0)
  if (first && summary.startEpochS != null) {
    const zero = first.summary.startEpochS! - first.offset_s
    const at = summary.startEpochS - zero
    // A file that starts before the session's t = 0 is placed after the last one instead
    // (the session clock never goes negative: runs keep their times).
    if (at >= 0) return at
  }
  return list.length === 0 ? 0 : Math.ceil(end + 60)
}

function notificationText(output: AeroTaskOutput): string {
  const n = output.runs.length
  const cdas = output.runs.map((r) => r.cda).filter(Number.isFinite)
  const range =
    cdas.length === 0
      ? ''
      : cdas.length === 1
        ? `, CdA ${cdas[0]!.toFixed(3)} m²`
        : `, CdA ${Math.min(...cdas).toFixed(3)}–${Math.max(...cdas).toFixed(3)} m²`
  return `${n} run${n === 1 ? '' : 's'} analysed${range}.`
}

function sourceJson(b: BlockRow): AeroSourceFile {
  const d = b.data as unknown as SourceData
  return {
    block_id: b.id,
    file_id: d.file_id,
    name: d.name,
    format: d.summary.format,
    start_epoch_s: d.summary.startEpochS,
    offset_s: d.offset_s,
    duration_s: d.summary.durationS,
    samples: d.summary.samples,
    laps: d.summary.laps,
    channels: d.summary.channels,
    devices: d.summary.devices,
    configuration: d.configuration,
  }
}

function versionJson(b: BlockRow, job: typeof jobs.$inferSelect | undefined): AeroAnalysisVersion {
  const d = b.data as unknown as AnalysisData
  const status =
    d.status === 'succeeded' || d.status === 'failed' || d.status === 'cancelled'
      ? d.status
      : job?.status === 'running'
        ? 'running'
        : job?.status === 'failed' || job?.status === 'cancelled'
          ? job.status
          : 'queued'
  return {
    version: d.version,
    block_id: b.id,
    job_id: d.job_id,
    status,
    progress: status === 'succeeded' ? 100 : (job?.progress ?? 0),
    message: job?.message ?? null,
    error: d.error ?? job?.error ?? null,
    label: d.label,
    settings: d.settings,
    created_at: b.createdAt.toISOString(),
    summary: d.summary ?? null,
  }
}

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
import type { Db, JsonObject } from '@veloptima/db'
import {
  aeroAnalysisCreateSchema,
  aeroAnalysisSettingsSchema,
  statedWindIssue,
  type AeroAnalysisSettings,
  type AeroAnalysisVersion,
  type AeroSourceFile,
} from '@veloptima/contracts'
import { AppError, notFound } from '../errors.ts'
import type { FileService } from '../files/service.ts'
import {
  cancelQueuedAnalysis,
  findDevice,
  findRun,
  findSession,
  insertBlock,
  lastAnalysisVersion,
  lockSession,
  recordSessionSource,
  sessionById,
  sessionRuns,
  sourceBlocks,
  storeBlock,
  STRIDE,
  updateRun,
} from '../repositories/aero.ts'
import { storedFiles } from '../repositories/files.ts'
import { isUuid, ownerOf } from '../repositories/ownership.ts'
import { parse } from '../services/validation.ts'
import type { ActivitySummary, AeroTaskInput, AeroTaskOutput, GivenRun } from './aero-task.ts'
import {
  activityFailure,
  analysisOptions,
  blockKind,
  bytesOf,
  configText,
  tyreText,
  DEFAULT_MASS_KG,
  offsetOf,
  pickSettings,
  sourceJson,
  versionBlocks,
  versionsOf,
  type AnalysisData,
  type SessionRow,
  type SourceData,
} from './aero-analysis-data.ts'
import {
  analysisBlockOf,
  markAnalysisFailed,
  storeAnalysis,
  waitForEarlierVersions,
} from './aero-analysis-store.ts'
import { historicalAirFor } from '../weather/history-air.ts'
import type { WeatherSource } from '../weather/source.ts'
import { markSucceeded } from './repository.ts'
import { PermanentJobError, type JobContext, type JobSystem } from './system.ts'

export const AERO_ANALYSIS = 'aero-analysis'
export { configText } from './aero-analysis-data.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** Aero uploads and analysis versions (jobs). */
    aeroAnalyses: AeroAnalyses
  }
}

const num = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) ? x : undefined)

export class AeroAnalyses {
  constructor(
    private readonly db: Db,
    private readonly jobs: JobSystem,
    private readonly files: FileService,
    /** Historical weather for sessions that state no air (null: never asked). */
    private readonly weather: WeatherSource | null = null,
  ) {
    jobs.define({
      queue: AERO_ANALYSIS,
      run: (ctx) => this.run(ctx),
      onFailed: (jobId, error) => markAnalysisFailed(this.db, jobId, error),
      onCancelled: (tx, jobId) => cancelQueuedAnalysis(tx, jobId),
    })
  }

  /** The session if the caller can see it (owner, or a member of its team); else 404. */
  async session(uid: string, id: string): Promise<SessionRow> {
    const row = isUuid(id) ? await findSession(this.db, uid, id) : undefined
    if (!row) throw notFound('The aero session')
    return row
  }

  /**
   * POST /api/aero-sessions/:id/files: reads the file first (a file the analysis cannot use is
   * refused, 422, and nothing is stored), then stores it, attaches it to the session and queues
   * the analysis. `configuration` labels the runs found in this file, `tyre` their tyres.
   */
  async upload(
    uid: string,
    sessionId: string,
    upload: {
      filename: string
      bytes: Uint8Array
      configuration?: string | undefined
      tyre?: string | undefined
    },
  ) {
    const session = await this.session(uid, sessionId)
    // A caller at a cap hears it before the file is read (checked again under locks).
    await this.jobs.checkRoom({
      requestedBy: uid,
      ownerUid: session.ownerUid,
      ownerTeam: session.ownerTeam,
    })
    const name = upload.filename || 'upload'
    if (upload.bytes.byteLength === 0) {
      throw new AppError('invalid-activity-file', `${name}: the file is empty.`, {
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
    const tyre = upload.tyre?.trim().slice(0, 200)
    const configuration = {
      setup: upload.configuration?.trim()
        ? upload.configuration.trim().slice(0, 200)
        : prepared.name.replace(/\.[^.]+$/, ''),
      ...(tyre ? { tyre } : {}),
    }
    const owner = ownerOf(session.ownerTeam, session.ownerUid!)
    const jobId = randomUUID()
    const { source, version, turn } = await this.files.storeWith(prepared, () =>
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
        const source = await insertBlock(tx, {
          sessionId: session.id,
          kind: blockKind(session.format, 'run'),
          sequence: sources.length,
          startTime: offset,
          endTime: offset + summary.durationS,
          data: data as unknown as JsonObject,
        })
        await recordSessionSource(tx, session.id, {
          sourceFileId: file.id,
          ...(session.startedAt || summary.startEpochS == null
            ? {}
            : { startedAt: new Date(summary.startEpochS * 1000) }),
        })
        const queued = await this.enqueue(tx, session, uid, jobId, {}, [file.id], null)
        return { source, ...queued }
      }),
    )
    await this.jobs.send(AERO_ANALYSIS, jobId, turn)
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
        'Upload a file with the test (FIT, TCX, CSV…) before analysing this session.',
      )
    }
    const jobId = randomUUID()
    const { version, turn } = await this.db.transaction(async (tx) => {
      await this.lock(tx, session.id)
      return this.enqueue(tx, session, uid, jobId, overrides, [], label ?? null)
    })
    await this.jobs.send(AERO_ANALYSIS, jobId, turn)
    return { version, job_id: jobId }
  }

  /**
   * POST /api/aero-runs/:id/baseline: the run's configuration becomes the session's baseline
   * (every run with that configuration is a baseline repeat); a new version compares against it.
   */
  async setBaseline(uid: string, runId: string) {
    const run = isUuid(runId) ? await findRun(this.db, uid, runId) : undefined
    if (!run) throw notFound('The run')
    const text = configText(run.configuration)
    const all = await sessionRuns(this.db, run.sessionId)
    await this.db.transaction(async (tx) => {
      for (const r of all) {
        const baseline = r.id === run.id || (text !== '' && configText(r.configuration) === text)
        if (r.isBaseline !== baseline) {
          await updateRun(tx, r.id, { isBaseline: baseline, updatedAt: new Date() })
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
    return { items: await versionsOf(this.db, session.id) }
  }

  /**
   * GET /api/aero-sessions/:id/analyses/:version (or `latest`: the newest that succeeded): the
   * version, its runs' blocks (results, VE samples, track) and its CdA windows.
   */
  async getVersion(uid: string, sessionId: string, which: string) {
    const session = await this.session(uid, sessionId)
    const items = await versionsOf(this.db, session.id)
    const version =
      which === 'latest'
        ? items.find((v) => v.status === 'succeeded')
        : items.find((v) => String(v.version) === which)
    if (!version) {
      if (which === 'latest') return { analysis: null, runs: [], windows: [] }
      throw notFound('The analysis version')
    }
    return { analysis: version, ...(await versionBlocks(this.db, session.id, version.version)) }
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
    await lockSession(tx, sessionId)
  }

  private sources(db: Db, sessionId: string) {
    return sourceBlocks(db, sessionId)
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
    const row = await findDevice(db, id)
    if (!row) return undefined
    const cal = row.calibration ?? {}
    const factor =
      (entry?.device_id === id ? entry?.calibration_factor : undefined) ??
      num(cal.calibration_factor) ??
      num(cal.factor) ??
      num(cal.cal)
    return { id: row.id, serial: row.serial, calibrationFactor: factor }
  }

  /**
   * Admits the job (its row, or a 429 at a cap) and inserts the version's block, in the caller's
   * transaction; the version and the job's turn.
   */
  private async enqueue(
    tx: Db,
    session: SessionRow,
    uid: string,
    jobId: string,
    overrides: AeroAnalysisSettings,
    detectFileIds: string[],
    label: string | null,
  ): Promise<{ version: number; turn: number }> {
    const version = (await lastAnalysisVersion(tx, session.id)) + 1
    const warnings: string[] = []
    const stored = aeroAnalysisSettingsSchema.safeParse(pickSettings(session.environment))
    if (!stored.success) {
      const issue = stored.error.issues[0]!
      throw new AppError(
        'invalid-inputs',
        `environment.${issue.path.join('.')}: ${issue.message}. Correct the session's environment.`,
        { field: `environment.${issue.path.join('.')}` },
      )
    }
    const settings: AeroAnalysisSettings = { ...stored.data, ...overrides }
    const wind = statedWindIssue(settings)
    if (wind)
      throw new AppError('invalid-inputs', `${wind.field}: ${wind.message}.`, { field: wind.field })
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
    const job = await this.jobs.admit(tx, {
      id: jobId,
      ownerUid: session.ownerUid ?? null,
      ownerTeam: session.ownerTeam ?? null,
      requestedBy: uid,
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
    await storeBlock(tx, {
      sessionId: session.id,
      kind: blockKind(session.format, 'run'),
      sequence: version * STRIDE,
      data: data as unknown as JsonObject,
    })
    return { version, turn: job.turn }
  }

  /** One attempt of an analysis (idempotent: the final transaction applies once). */
  private async run(ctx: JobContext) {
    const { jobId } = ctx
    const block = await analysisBlockOf(this.db, jobId)
    const data = block.data as unknown as AnalysisData
    if (data.status === 'cancelled' || data.status === 'failed') return
    if (data.status === 'succeeded') {
      await markSucceeded(this.db, jobId, { version: data.version })
      return
    }
    await waitForEarlierVersions(this.db, block, data.version, ctx)
    const session = await sessionById(this.db, block.sessionId)
    if (!session) throw new PermanentJobError('analysis-missing', 'The aero session was deleted.')
    ctx.progress(1, 'Loading the files')
    const sourceRows = await this.sources(this.db, session.id)
    const sources = sourceRows.map((b) => b.data as unknown as SourceData)
    const fileRows = await storedFiles(
      this.db,
      sources.map((s) => s.file_id),
    )
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
        tyre: tyreText(s.configuration),
        detect: data.detect_file_ids.includes(s.file_id),
      })),
    )
    const runRows = await sessionRuns(this.db, session.id)
    const given: GivenRun[] = runRows.map((r) => ({
      key: r.id,
      name: r.name,
      startT: r.startTime,
      endT: r.endTime,
      lap: r.lap,
      configuration: configText(r.configuration),
      tyre: tyreText(r.configuration),
    }))
    const baselineRun = runRows.find((r) => r.isBaseline)
    const s = data.settings
    const input: AeroTaskInput = {
      files: taskFiles,
      deviceSerial: data.device?.serial,
      runs: given,
      baseline: baselineRun ? configText(baselineRun.configuration) : undefined,
      analysis: analysisOptions(s),
    }
    // No air stated: the historical air of the first file with a GPS position and a start time.
    const air = this.weather
      ? await historicalAirFor(this.weather, s, present, input.analysis)
      : null
    const output = await ctx.pool.run<AeroTaskOutput>(
      'aero-analysis',
      input,
      (p) => ctx.progress(p.progress, p.message),
      ctx.signal,
    )
    await storeAnalysis(this.db, jobId, block, data, session, runRows, output, air)
  }
}

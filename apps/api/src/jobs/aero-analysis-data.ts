// Aero analysis storage (see aero-analysis.ts): what a version and an uploaded file record in
// their data blocks (laid out as repositories/aero.ts describes), and their JSON for the API.
import type { Readable } from 'node:stream'
import type { Db } from '@veloptima/db'
import {
  aeroAnalysisSettingsSchema,
  type AeroAnalysisSettings,
  type AeroAnalysisVersion,
  type AeroSourceFile,
} from '@veloptima/contracts'
import { AppError } from '../errors.ts'
import {
  analysisBlocks,
  versionBlockRows,
  type BlockRow,
  type SessionRow,
} from '../repositories/aero.ts'
import { isUuid } from '../repositories/ownership.ts'
import type { ActivitySummary, AeroTaskInput, AeroTaskOutput } from './aero-task.ts'
import { SAME_CLOCK_S } from './aero/session-clock.ts'
import { TaskError } from './pool.ts'
import { findJobs, type JobRow } from './repository.ts'

export type { BlockRow, SessionRow }

/** Mass assumed when the session states none (said in the analysis' warnings). */
export const DEFAULT_MASS_KG = 80

/** What an analysis version records when it is asked for (the job reads it back). */
export type AnalysisData = {
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

export type SourceData = {
  type: 'source'
  file_id: string
  name: string
  configuration: Record<string, string>
  offset_s: number
  summary: ActivitySummary
}

/** The tyres a configuration names (`tyre`, `tyres`, `tire`, `tires` or `surface`), if any. */
export function tyreText(c: Record<string, string>): string | undefined {
  for (const key of ['tyre', 'tyres', 'tire', 'tires', 'surface']) {
    const v = c[key]?.trim()
    if (v) return v
  }
  return undefined
}

/** A run's configuration as one text (the engine compares runs by it). */
export function configText(c: Record<string, string>): string {
  return Object.entries(c)
    .filter(([, v]) => v.trim() !== '')
    .map(([k, v]) => (k === 'setup' ? v : `${k}: ${v}`))
    .join(', ')
}

export const blockKind = (format: SessionRow['format'], kind: 'run' | 'cdam') =>
  format === 'v5' ? ('raw' as const) : kind

export async function bytesOf(stream: Readable): Promise<Uint8Array> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array))
  return new Uint8Array(Buffer.concat(chunks))
}

/** The reader's ImportError (in a thread or here) as a 422 naming the file and the field. */
export function activityFailure(error: unknown, fileName: string): unknown {
  const e = error as { errorName?: string; name?: string; code?: string; message: string }
  const isImport =
    e.name === 'ImportError' || (error instanceof TaskError && e.errorName === 'ImportError')
  if (!isImport) return error
  const field =
    e.code === 'missing_power' ? 'power' : e.code === 'missing_speed' ? 'speed' : undefined
  const message = e.message.includes(fileName) ? e.message : `${fileName}: ${e.message}`
  return new AppError('invalid-activity-file', message.replace(/\.?$/, '.'), {
    file: fileName,
    reason: e.code,
    ...(field ? { field } : {}),
  })
}

/** The known settings keys of a session's environment (other keys are the tester's notes). */
export function pickSettings(env: Record<string, unknown>): Record<string, unknown> {
  const keys = Object.keys(aeroAnalysisSettingsSchema.shape)
  return Object.fromEntries(
    Object.entries(env ?? {}).filter(([k, v]) => keys.includes(k) && v !== undefined),
  )
}

/**
 * Where a new file sits on the session clock: by its absolute start when it was recorded within
 * SAME_CLOCK_S of the session's files (the same morning's test), else after the last file, 60 s
 * on (a file of another day, or without a date, keeps its own clock: the analysis never fits a
 * drift across files that far apart, and a chart never spans years).
 */
export function offsetOf(sources: BlockRow[], summary: ActivitySummary): number {
  const list = sources.map((b) => b.data as unknown as SourceData)
  const first = list.find((s) => s.summary.startEpochS != null)
  const end = list.reduce((m, s) => Math.max(m, s.offset_s + s.summary.durationS), 0)
  if (first && summary.startEpochS != null) {
    const zero = first.summary.startEpochS! - first.offset_s
    const at = summary.startEpochS - zero
    const onClock = (s: SourceData) =>
      s.summary.startEpochS != null && Math.abs(s.summary.startEpochS - zero - s.offset_s) < 1
    // Not before t = 0 (the clock never goes negative: runs keep their times), not another day,
    // and not over a file placed off the clock.
    const clash = list.some(
      (s) =>
        !onClock(s) && at < s.offset_s + s.summary.durationS && at + summary.durationS > s.offset_s,
    )
    if (at >= 0 && at <= end + SAME_CLOCK_S && !clash) return at
  }
  return list.length === 0 ? 0 : Math.ceil(end + 60)
}

export function notificationText(output: AeroTaskOutput): string {
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

export function sourceJson(b: BlockRow): AeroSourceFile {
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

export function versionJson(b: BlockRow, job: JobRow | undefined): AeroAnalysisVersion {
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

/** Every analysis version of a session, newest first, with its job's state. */
export async function versionsOf(db: Db, sessionId: string): Promise<AeroAnalysisVersion[]> {
  const blocks = await analysisBlocks(db, sessionId)
  const jobRows = await findJobs(db, blocks.map((b) => String(b.data.job_id)).filter(isUuid))
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
  const rows = await versionBlockRows(db, sessionId, version)
  return {
    runs: rows.filter((b) => b.data.type === 'run').map(blockJson),
    windows: rows.filter((b) => b.data.type === 'cdam').map(blockJson),
  }
}

/** The engine's analysis options from a version's settings (mass defaults to DEFAULT_MASS_KG). */
export function analysisOptions(s: AeroAnalysisSettings): AeroTaskInput['analysis'] {
  return {
    massKg: s.mass_kg ?? DEFAULT_MASS_KG,
    ...(s.crr != null ? { crr: s.crr } : {}),
    ...(s.drivetrain_efficiency != null ? { drivetrainEfficiency: s.drivetrain_efficiency } : {}),
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
    ...(s.wind_speed_mps != null && s.wind_from_deg != null
      ? { statedWind: { speedMps: s.wind_speed_mps, fromDeg: s.wind_from_deg } }
      : {}),
  }
}

// The aero tasks a worker thread runs: read activity files (formats) and analyse them (engine).
// Pure: bytes and settings in, JSON out; the job (aero-analysis.ts) stores what comes back.
import {
  analyzeAero,
  detectRunsAndSkipped,
  type AeroAnalysisInput,
  type RunSpec,
} from '@veloptima/engine'
import type { CrrByTyreJson, SkippedLapJson } from '@veloptima/contracts'
import { readActivity } from '@veloptima/formats'
import { clocksOf, mergeActivities } from './aero/session-clock.ts'
import { indexRange, seriesOf, trackOf, type RunSeries } from './aero/run-series.ts'
import { summaryOf, type ActivitySummary } from './aero/activity-summary.ts'

export { mergeActivities } from './aero/session-clock.ts'
export type { RunSeries } from './aero/run-series.ts'
export { readActivitySummary, type ActivitySummary } from './aero/activity-summary.ts'

export type Progress = (progress: number, message?: string) => void

/** An interval whose bounds are both numbers, else null (JSON has no NaN). */
const finitePair = (p: [number, number]): [number, number] | null =>
  Number.isFinite(p[0]) && Number.isFinite(p[1]) ? p : null

/** A file of the session, placed on the session's clock (t = 0 at the first file's start). */
export type SessionFile = {
  fileId: string
  name: string
  bytes: Uint8Array
  offsetS: number
  /** The configuration label given at upload: the runs detected in this file get it. */
  configuration: string
  /** The tyres given at upload (the configuration's `tyre`), if any. */
  tyre?: string | undefined
  /** Find runs in this file (a newly uploaded one); the others' runs are given. */
  detect: boolean
}

/** A run the analysis must use as is (made by the user, or detected earlier). */
export type GivenRun = {
  key: string
  name: string
  startT: number | null
  endT: number | null
  lap: number | null
  configuration: string
  /** The run's tyres (its configuration's `tyre`), if any. */
  tyre?: string | undefined
}

export type AeroTaskInput = {
  files: SessionFile[]
  deviceSerial?: string | undefined
  analysis: Omit<AeroAnalysisInput, 'runs' | 'baseline'>
  baseline?: string | undefined
  runs: GivenRun[]
}

export type AeroTaskRun = {
  /** The given run's key, or null for a run detected by this analysis. */
  key: string | null
  fileId: string | null
  label: string
  configuration: string
  source: string
  startT: number
  endT: number
  lap: number | null
  method: 've' | 'direct'
  cda: number
  cdaCi95: [number, number]
  crr: number
  crrCi95: [number, number]
  veRmseM: number | null
  elevationOffsetM: number
  windE: number
  windN: number
  calibrationFactor: number | null
  meanSpeedMps: number
  meanPowerW: number
  airDensity: number
  samplesUsed: number
  /** Samples left out of the fit, by reason (stops, braking, freewheeling). */
  excludedSamples: { stop: number; braking: number; freewheel: number }
  flags: string[]
  /** Quantities not reported (NaN above) and why: out of physical range, no interval. */
  withheld: { field: string; reason: string }[]
  /** The clock of the run's file: runs on different clocks are never on one time line. */
  clock: number
  series: RunSeries
  track: [number, number][] | null
}

export type AeroTaskOutput = {
  runs: AeroTaskRun[]
  windows: {
    run: number
    startT: number
    endT: number
    cda: number
    meanSpeedMps: number
    meanAirSpeedMps: number
    meanPowerW: number
    meanYawRad: number | null
  }[]
  comparison: unknown
  /** The test planner's answer (engine `AeroPlan`). */
  plan: unknown
  fittedCalibrationFactor: number | null
  crr: number
  /** The VE motion model: 'road' (the rider moves as the wheel) or 'track' (velodrome lean). */
  veModel: 'road' | 'track'
  warnings: string[]
  files: { fileId: string; summary: ActivitySummary }[]
  /** Laps not taken as runs, and why (none that a run covers). */
  skippedLaps: SkippedLapJson[]
  /** Each tyre's Crr in a tyre test (empty otherwise). */
  crrByTyre: CrrByTyreJson[]
}

/**
 * A file as a detected run's name starts: its recording time (UTC), with the date when the
 * session's files were recorded on different days; else its name, short.
 */
function shortName(fileName: string, startEpochS: number, withDate: boolean): string {
  if (Number.isFinite(startEpochS)) {
    const iso = new Date(startEpochS * 1000).toISOString()
    return withDate ? `${iso.slice(0, 10)} ${iso.slice(11, 16)}` : iso.slice(11, 19)
  }
  const base = fileName.replace(/\.[^.]+$/, '')
  return base.length > 24 ? `${base.slice(0, 23)}…` : base
}

type ReadFile = { file: SessionFile; activity: ReturnType<typeof readActivity> }

/** The session's files read and merged on the session clock. */
type ReadSession = {
  read: ReadFile[]
  samples: ReturnType<typeof mergeActivities>
  clocks: number[]
  /** Files recorded on different days: detected runs' names carry the date. */
  withDate: boolean
  /** The clock of the file a run lies in (by its start time, else its lap). */
  clockAt: (t: number | null, lap: number | null) => number
}

/** What a run spec's label stands for: the given run's key, or the file a detected run is in. */
type RunMeta = { key: string | null; fileId: string | null; label: string; lap: number | null }

type RunSpecs = { specs: RunSpec[]; meta: Map<string, RunMeta> }

type AeroAnalysis = ReturnType<typeof analyzeAero>

const lapCount = (activity: ReadFile['activity']) => {
  let laps = 0
  for (const l of activity.samples.lap) laps = Math.max(laps, l + 1)
  return laps
}

function readSession(input: AeroTaskInput): ReadSession {
  const read = input.files.map((f) => {
    const activity = readActivity(f.bytes, f.name, {
      ...(input.deviceSerial ? { deviceSerial: input.deviceSerial } : {}),
    })
    return { file: f, activity }
  })
  const samples = mergeActivities(
    read.map((r) => ({ samples: r.activity.samples, offsetS: r.file.offsetS })),
  )
  const clocks = clocksOf(
    read.map((r) => ({ offsetS: r.file.offsetS, startEpochS: r.activity.startEpochS })),
  )
  const days = new Set(
    read.map((r) =>
      Number.isFinite(r.activity.startEpochS)
        ? new Date(r.activity.startEpochS * 1000).toISOString().slice(0, 10)
        : 'undated',
    ),
  )
  const spans = read.map(({ file, activity }) => {
    const n = activity.samples.t.length
    const laps = lapCount(activity)
    return { from: file.offsetS, to: file.offsetS + (n > 0 ? activity.samples.t[n - 1]! : 0), laps }
  })
  const clockAt = (t: number | null, lap: number | null): number => {
    if (t != null) {
      const f = spans.findIndex((x) => t >= x.from - 1 && t <= x.to + 1)
      if (f >= 0) return clocks[f]!
    }
    if (lap != null) {
      let base = 0
      for (const [f, x] of spans.entries()) {
        base += Math.max(1, x.laps)
        if (lap < base) return clocks[f]!
      }
    }
    return clocks[0] ?? 0
  }
  return { read, samples, clocks, withDate: days.size > 1, clockAt }
}

/** The given runs as specs (a run with neither a time range nor a lap is left out). */
function addGivenRuns(input: AeroTaskInput, session: ReadSession, out: RunSpecs) {
  input.runs.forEach((r, i) => {
    const label = `given:${i}`
    out.meta.set(label, { key: r.key, fileId: null, label: r.name, lap: r.lap })
    const spec: RunSpec = {
      label,
      configuration: r.configuration,
      ...(r.tyre ? { tyre: r.tyre } : {}),
      source: 'time_range',
      clock: session.clockAt(r.startT, r.lap),
    }
    if (r.startT != null && r.endT != null) {
      spec.startT = r.startT
      spec.endT = r.endT
    } else if (r.lap != null) {
      spec.lap = r.lap
      spec.source = 'lap'
    } else return
    out.specs.push(spec)
  })
}

/** The runs detected in the files asked for, on the session clock and with the session's laps. */
function addDetectedRuns(session: ReadSession, out: RunSpecs) {
  let lapBase = 0
  session.read.forEach(({ file, activity }, f) => {
    const found = file.detect ? detectRunsAndSkipped(activity.samples).runs : []
    found.forEach((spec, j) => {
      const label = `detected:${f}:${j}`
      out.meta.set(label, {
        key: null,
        fileId: file.fileId,
        label: `${shortName(file.name, activity.startEpochS, session.withDate)} · ${spec.label ?? `run ${j + 1}`}`,
        lap: spec.lap != null ? lapBase + spec.lap : null,
      })
      out.specs.push({
        ...spec,
        label,
        clock: session.clocks[f]!,
        configuration: spec.configuration || file.configuration,
        ...(file.tyre ? { tyre: file.tyre } : {}),
        ...(spec.startT != null ? { startT: spec.startT + file.offsetS } : {}),
        ...(spec.endT != null ? { endT: spec.endT + file.offsetS } : {}),
        ...(spec.pieces
          ? {
              pieces: spec.pieces.map(
                ([a, b]) => [a + file.offsetS, b + file.offsetS] as [number, number],
              ),
            }
          : {}),
        ...(spec.lap != null ? { lap: lapBase + spec.lap } : {}),
      })
    })
    lapBase += Math.max(1, lapCount(activity))
  })
}

/**
 * The laps of every file that the run detection does not take as runs (recoveries, coast-downs,
 * turnarounds), on the session clock; a lap that a run covers (the tester added it back) is not
 * listed.
 */
function skippedLaps(session: ReadSession, specs: RunSpec[]): SkippedLapJson[] {
  const out: SkippedLapJson[] = []
  const covered = (a: number, b: number) =>
    specs.some((r) => {
      if (r.startT != null && r.endT != null) return r.startT < b && r.endT > a
      return false
    })
  let lapBase = 0
  session.read.forEach(({ file, activity }) => {
    for (const l of detectRunsAndSkipped(activity.samples).skipped) {
      const a = l.startT + file.offsetS
      const b = l.endT + file.offsetS
      const lap = lapBase + l.lap
      if (covered(a, b) || specs.some((r) => r.startT == null && r.lap === lap)) continue
      out.push({
        file_id: file.fileId,
        lap,
        label: `${shortName(file.name, activity.startEpochS, session.withDate)} · lap ${l.lap + 1}`,
        start_t: a,
        end_t: b,
        kind: l.kind,
        reason: l.reason,
      })
    }
    lapBase += Math.max(1, lapCount(activity))
  })
  return out
}

/** One analysed run with what its chart needs (VE series, track) and where it came from. */
function runOutput(
  run: AeroAnalysis['runs'][number],
  analysis: AeroAnalysis,
  session: ReadSession,
  meta: Map<string, RunMeta>,
): AeroTaskRun {
  const { samples, read } = session
  const m = meta.get(run.label) ?? { key: null, fileId: null, label: run.label, lap: null }
  const [i0, i1] = indexRange(samples.t, run.startT, run.endT)
  const fileId =
    m.fileId ??
    read.find(
      ({ file, activity }) =>
        run.startT >= file.offsetS &&
        run.startT <= file.offsetS + activity.samples.t[activity.samples.t.length - 1]!,
    )?.file.fileId ??
    null
  // Wind blowing FROM windFromDeg moves the air TOWARDS the opposite direction.
  const from = ((run.windFromDeg ?? 0) * Math.PI) / 180
  const w = run.windMps ?? 0
  const { series } = seriesOf(
    analysis.veSeries,
    analysis.veResiduals,
    analysis.veExcluded,
    run.veSegments,
    i0,
    Math.max(i0 + 1, i1),
  )
  const firstElevation = series.elevation?.find(Number.isFinite) ?? 0
  return {
    key: m.key,
    fileId,
    label: m.label,
    configuration: run.configuration,
    source: run.source,
    startT: run.startT,
    endT: run.endT,
    lap: m.lap,
    method: run.method,
    cda: run.cda,
    cdaCi95: run.cdaCi95,
    crr: run.crr,
    crrCi95: run.crrCi95,
    veRmseM: Number.isFinite(run.veRmseM) ? run.veRmseM : null,
    elevationOffsetM: Number.isFinite(run.elevationOffsetM) ? run.elevationOffsetM : firstElevation,
    windE: -w * Math.sin(from),
    windN: -w * Math.cos(from),
    calibrationFactor: run.calibrationFactor ?? null,
    meanSpeedMps: run.meanSpeedMps,
    meanPowerW: run.meanPowerW,
    airDensity: run.airDensity,
    samplesUsed: run.samplesUsed,
    excludedSamples: run.excludedSamples,
    flags: run.flags,
    withheld: run.withheld,
    clock: session.clockAt(run.startT, null),
    series,
    track: trackOf(samples, i0, i1),
  }
}

/**
 * Reads the session's files, detects or takes the runs, analyses them with the engine and
 * returns each run's results with the samples its VE chart needs.
 */
export function analyseSession(input: AeroTaskInput, progress: Progress): AeroTaskOutput {
  progress(
    2,
    `Reading ${input.files.length === 1 ? input.files[0]!.name : `${input.files.length} files`}`,
  )
  const session = readSession(input)
  progress(15, 'Finding the runs')
  // Each spec's label carries its key, to find its result again in the engine's time order.
  const runSpecs: RunSpecs = { specs: [], meta: new Map() }
  addGivenRuns(input, session, runSpecs)
  addDetectedRuns(session, runSpecs)
  const { specs, meta } = runSpecs
  if (specs.length === 0) {
    throw Object.assign(
      new Error('runs: no run found in the data; add one from a time range or a lap'),
      {
        code: 'no-runs',
      },
    )
  }
  progress(25, `Analysing ${specs.length} run${specs.length === 1 ? '' : 's'}`)
  const analysis = analyzeAero(session.samples, {
    ...input.analysis,
    runs: specs,
    ...(input.baseline ? { baseline: input.baseline } : {}),
  })
  progress(85, 'Preparing the charts')
  const runs = analysis.runs.map((run) => runOutput(run, analysis, session, meta))
  progress(95, 'Storing the runs')
  const { read } = session
  return {
    runs,
    windows: analysis.windows.map((w) => ({
      run: w.runIndex,
      startT: w.startT,
      endT: w.endT,
      cda: w.cda,
      meanSpeedMps: w.meanSpeedMps,
      meanAirSpeedMps: w.meanAirSpeedMps,
      meanPowerW: w.meanPowerW,
      meanYawRad: w.meanYawRad ?? null,
    })),
    comparison: analysis.comparison,
    plan: analysis.plan,
    fittedCalibrationFactor: analysis.fittedCalibrationFactor,
    crr: analysis.crr,
    crrByTyre: analysis.crrByTyre.map((t) => ({
      tyre: t.tyre,
      crr: t.crr,
      crr_ci95: finitePair(t.crrCi95),
      delta_crr: t.deltaCrr,
      delta_crr_ci95: finitePair(t.deltaCrrCi95),
    })),
    veModel: analysis.veModel,
    warnings: [...analysis.warnings, ...read.flatMap((r) => r.activity.warnings ?? []).map(String)],
    files: read.map((r) => ({ fileId: r.file.fileId, summary: summaryOf(r.activity) })),
    skippedLaps: skippedLaps(session, specs),
  }
}

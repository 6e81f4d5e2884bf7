// The aero tasks a worker thread runs: read activity files (formats) and analyse them (engine).
// Pure: bytes and settings in, JSON out; the job (aero-analysis.ts) stores what comes back.
import {
  analyzeAero,
  detectRuns,
  type ActivitySamples,
  type AeroAnalysisInput,
  type RunSpec,
  type VeSegment,
  type VeSeries,
} from '@veloptima/engine'
import { readActivity } from '@veloptima/formats'

export type Progress = (progress: number, message?: string) => void

/** What the upload learns from a file before storing it (and what a `source` block keeps). */
export type ActivitySummary = {
  format: string
  name: string | null
  startEpochS: number | null
  durationS: number
  samples: number
  laps: number
  channels: string[]
  devices: { serial: string; name: string | null }[]
  warnings: string[]
  /** The first GPS position of the file (for its historical weather); absent without GPS. */
  position?: { lat: number; lon: number } | null
}

const CHANNELS = [
  'altitude',
  'distance',
  'lat',
  'airspeed',
  'yaw',
  'temperature',
  'pressure',
  'airDensity',
  'windSpeed',
] as const

function devicesOf(devices: unknown): ActivitySummary['devices'] {
  if (!Array.isArray(devices)) return []
  return devices
    .map((d: { serial?: unknown; name?: unknown; product?: unknown }) => ({
      serial: d.serial == null ? '' : String(d.serial),
      name: typeof d.name === 'string' ? d.name : typeof d.product === 'string' ? d.product : null,
    }))
    .filter((d) => d.serial !== '')
}

function summaryOf(activity: ReturnType<typeof readActivity>): ActivitySummary {
  const s = activity.samples
  const n = s.t.length
  let laps = 0
  for (let i = 0; i < n; i++) laps = Math.max(laps, s.lap[i]! + 1)
  return {
    format: activity.format,
    name: activity.name ?? null,
    startEpochS: Number.isFinite(activity.startEpochS) ? activity.startEpochS : null,
    durationS: n > 0 ? s.t[n - 1]! - s.t[0]! : 0,
    samples: n,
    laps,
    channels: ['power', 'speed', ...CHANNELS.filter((c) => s[c] != null)],
    devices: devicesOf(activity.devices),
    warnings: [...(activity.warnings ?? [])].map(String),
    position: firstPosition(s.lat, s.lon),
  }
}

function firstPosition(lat: Float64Array | null, lon: Float64Array | null) {
  if (!lat || !lon) return null
  for (let i = 0; i < lat.length; i++)
    if (Number.isFinite(lat[i]) && Number.isFinite(lon[i])) return { lat: lat[i]!, lon: lon[i]! }
  return null
}

/** Reads one uploaded file as an activity; throws the reader's ImportError naming file and field. */
export function readActivitySummary(input: {
  bytes: Uint8Array
  fileName: string
  deviceSerial?: string | undefined
}): ActivitySummary {
  const activity = readActivity(input.bytes, input.fileName, {
    ...(input.deviceSerial ? { deviceSerial: input.deviceSerial } : {}),
  })
  return summaryOf(activity)
}

/** A file of the session, placed on the session's clock (t = 0 at the first file's start). */
export type SessionFile = {
  fileId: string
  name: string
  bytes: Uint8Array
  offsetS: number
  /** The configuration label given at upload: the runs detected in this file get it. */
  configuration: string
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
}

export type AeroTaskInput = {
  files: SessionFile[]
  deviceSerial?: string | undefined
  analysis: Omit<AeroAnalysisInput, 'runs' | 'baseline'>
  baseline?: string | undefined
  runs: GivenRun[]
}

/**
 * Samples of a run for the page's VE chart and sliders (downsampled to at most MAX_POINTS), as
 * the VE fit used them: with them the browser's `virtualElevation` redraws the fitted trace.
 */
export type RunSeries = {
  t: number[]
  dt: number[]
  speed: number[]
  power: number[]
  rho: number[]
  /** The elevation the fit matched (averaged by position when it was), null on a flat track. */
  elevation: number[] | null
  heading: number[]
  valid: number[]
  /**
   * The stretches the fit used, [first, end) in this series' indices, with their fitted offset
   * (m): the trace restarts at each; samples outside every stretch are not drawn.
   */
  segments: [number, number, number][]
  /** The fitted virtual elevation per sample (NaN outside the stretches), m. */
  fit: number[]
  /** The velodrome model's geometry and per-sample terms (null: the road model). */
  velodrome: {
    lap_length_m: number
    bend_radius_m: number
    com_height_m: number
    com_speed: number[]
    com_height: number[]
    normal_factor: number[]
  } | null
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
  flags: string[]
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
  fittedCalibrationFactor: number | null
  crr: number
  /** The VE motion model: 'road' (the rider moves as the wheel) or 'track' (velodrome lean). */
  veModel: 'road' | 'track'
  warnings: string[]
  files: { fileId: string; summary: ActivitySummary }[]
}

const MAX_POINTS = 4000
const MAX_TRACK = 600

type Channel = Exclude<keyof ActivitySamples, 't' | 'startEpochS' | 'lap'>
const FLOAT_CHANNELS: Channel[] = [
  'speed',
  'power',
  'altitude',
  'distance',
  'lat',
  'lon',
  'airspeed',
  'yaw',
  'temperature',
  'pressure',
  'airDensity',
  'windSpeed',
]

/** The files' samples end to end on the session clock; laps numbered across files. */
export function mergeActivities(parts: { samples: ActivitySamples; offsetS: number }[]) {
  const n = parts.reduce((sum, p) => sum + p.samples.t.length, 0)
  const t = new Float64Array(n)
  const lap = new Int32Array(n)
  const merged: Record<string, Float64Array | null> = {}
  for (const c of FLOAT_CHANNELS) {
    merged[c] = parts.some((p) => p.samples[c] != null) ? new Float64Array(n).fill(NaN) : null
  }
  let at = 0
  let lapBase = 0
  let last = -Infinity
  for (const { samples, offsetS } of parts) {
    const m = samples.t.length
    let laps = 0
    for (let i = 0; i < m; i++) {
      // Strictly increasing even if two files overlap in time (a second device on the same ride).
      const time = Math.max(offsetS + samples.t[i]!, last + 1e-3)
      t[at + i] = time
      last = time
      lap[at + i] = lapBase + samples.lap[i]!
      laps = Math.max(laps, samples.lap[i]! + 1)
    }
    for (const c of FLOAT_CHANNELS) {
      const src = samples[c]
      if (src && merged[c]) merged[c].set(src, at)
    }
    at += m
    lapBase += Math.max(1, laps)
  }
  return {
    ...(merged as Record<Channel, Float64Array | null>),
    speed: merged.speed!,
    power: merged.power!,
    t,
    lap,
    startEpochS: NaN,
  } as ActivitySamples
}

/** A file as a detected run's name starts: its recording time (UTC), else its name, short. */
function shortName(fileName: string, startEpochS: number): string {
  if (Number.isFinite(startEpochS)) {
    return new Date(startEpochS * 1000).toISOString().slice(11, 19)
  }
  const base = fileName.replace(/\.[^.]+$/, '')
  return base.length > 24 ? `${base.slice(0, 23)}…` : base
}

const round = (x: number, digits: number) => {
  if (!Number.isFinite(x)) return NaN
  const f = 10 ** digits
  return Math.round(x * f) / f
}

/**
 * A run's samples [i0, i1) for the sliders, the fit's stretches and fitted trace in them; above
 * MAX_POINTS buckets of k samples averaged (and rounded: the redraw then only approximates the
 * fit), else every sample at full precision (the redraw equals the fit's trace).
 */
function seriesOf(
  ve: VeSeries,
  residuals: Float64Array,
  segments: VeSegment[],
  i0: number,
  i1: number,
): { series: RunSeries; k: number } {
  const n = i1 - i0
  const k = Math.max(1, Math.ceil(n / MAX_POINTS))
  const r = k === 1 ? (x: number) => (Number.isFinite(x) ? x : NaN) : round
  const track = ve.track
  const out: RunSeries = {
    t: [],
    dt: [],
    speed: [],
    power: [],
    rho: [],
    elevation: ve.elevation ? [] : null,
    heading: [],
    valid: [],
    segments: [],
    fit: [],
    velodrome: track
      ? {
          lap_length_m: track.geometry.lapLengthM,
          bend_radius_m: track.geometry.bendRadiusM,
          com_height_m: track.geometry.comHeightM,
          com_speed: [],
          com_height: [],
          normal_factor: [],
        }
      : null,
  }
  const mean = (a: Float64Array, b: number, e: number) => {
    let x = 0
    for (let i = b; i < e; i++) x += a[i]!
    return x / (e - b)
  }
  for (let b = i0; b < i1; b += k) {
    const e = Math.min(i1, b + k)
    let dt = 0
    let valid = 1
    let fit = 0
    for (let i = b; i < e; i++) {
      dt += i === i0 ? 0 : ve.dt[i]!
      if (!ve.valid[i]) valid = 0
      fit += (ve.elevation ? ve.elevation[i]! : 0) - residuals[i]!
    }
    const sv = mean(ve.speed, b, e)
    const pv = mean(ve.power, b, e)
    out.t.push(r(ve.t[b]! - ve.t[i0]!, 2))
    out.dt.push(r(dt, 3))
    out.speed.push(r(sv, 3))
    out.power.push(r(pv, 1))
    out.rho.push(r(mean(ve.rho, b, e), 4))
    if (ve.elevation) out.elevation!.push(r(mean(ve.elevation, b, e), 2))
    out.heading.push(r(ve.heading[b]!, 4))
    out.valid.push(valid && Number.isFinite(sv) && Number.isFinite(pv) ? 1 : 0)
    out.fit.push(r(fit / (e - b), 3))
    if (track && out.velodrome) {
      out.velodrome.com_speed.push(r(mean(track.comSpeed, b, e), 3))
      out.velodrome.com_height.push(r(mean(track.comHeight, b, e), 4))
      out.velodrome.normal_factor.push(r(mean(track.normalFactor, b, e), 5))
    }
  }
  for (const g of segments) {
    const a = Math.max(0, Math.ceil((g.start - i0) / k))
    const z = Math.min(out.t.length, Math.ceil((g.end - i0) / k))
    if (z - a >= 2) out.segments.push([a, z, g.offsetM])
  }
  return { series: out, k }
}

function trackOf(s: ActivitySamples, i0: number, i1: number): [number, number][] | null {
  if (!s.lat || !s.lon) return null
  const k = Math.max(1, Math.ceil((i1 - i0) / MAX_TRACK))
  const out: [number, number][] = []
  for (let i = i0; i < i1; i += k) {
    const la = s.lat[i]!
    const lo = s.lon[i]!
    if (Number.isFinite(la) && Number.isFinite(lo)) out.push([round(la, 6), round(lo, 6)])
  }
  return out.length > 1 ? out : null
}

/** First index with t ≥ a and one past the last with t ≤ b (binary search). */
function indexRange(t: Float64Array, a: number, b: number): [number, number] {
  const lower = (x: number, strict: boolean) => {
    let lo = 0
    let hi = t.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (strict ? t[mid]! <= x : t[mid]! < x) lo = mid + 1
      else hi = mid
    }
    return lo
  }
  return [lower(a, false), lower(b, true)]
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
  const read = input.files.map((f) => {
    const activity = readActivity(f.bytes, f.name, {
      ...(input.deviceSerial ? { deviceSerial: input.deviceSerial } : {}),
    })
    return { file: f, activity }
  })
  const samples = mergeActivities(
    read.map((r) => ({ samples: r.activity.samples, offsetS: r.file.offsetS })),
  )
  progress(15, 'Finding the runs')
  // Each spec's label carries its key, to find its result again in the engine's time order.
  const specs: RunSpec[] = []
  const meta = new Map<
    string,
    { key: string | null; fileId: string | null; label: string; lap: number | null }
  >()
  input.runs.forEach((r, i) => {
    const label = `given:${i}`
    meta.set(label, { key: r.key, fileId: null, label: r.name, lap: r.lap })
    const spec: RunSpec = { label, configuration: r.configuration, source: 'time_range' }
    if (r.startT != null && r.endT != null) {
      spec.startT = r.startT
      spec.endT = r.endT
    } else if (r.lap != null) {
      spec.lap = r.lap
      spec.source = 'lap'
    } else return
    specs.push(spec)
  })
  {
    let lapBase = 0
    read.forEach(({ file, activity }, f) => {
      const found = file.detect ? detectRuns(activity.samples) : []
      found.forEach((spec, j) => {
        const label = `detected:${f}:${j}`
        meta.set(label, {
          key: null,
          fileId: file.fileId,
          label: `${shortName(file.name, activity.startEpochS)} · ${spec.label ?? `run ${j + 1}`}`,
          lap: spec.lap != null ? lapBase + spec.lap : null,
        })
        specs.push({
          ...spec,
          label,
          configuration: spec.configuration || file.configuration,
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
      let laps = 0
      for (const l of activity.samples.lap) laps = Math.max(laps, l + 1)
      lapBase += Math.max(1, laps)
    })
  }
  if (specs.length === 0) {
    throw Object.assign(
      new Error('runs: no run found in the data; add one from a time range or a lap'),
      {
        code: 'no-runs',
      },
    )
  }
  progress(25, `Analysing ${specs.length} run${specs.length === 1 ? '' : 's'}`)
  const analysis = analyzeAero(samples, {
    ...input.analysis,
    runs: specs,
    ...(input.baseline ? { baseline: input.baseline } : {}),
  })
  progress(85, 'Preparing the charts')
  const ve = analysis.veSeries
  const runs: AeroTaskRun[] = analysis.runs.map((run) => {
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
    const { series } = seriesOf(ve, analysis.veResiduals, run.veSegments, i0, Math.max(i0 + 1, i1))
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
      elevationOffsetM: Number.isFinite(run.elevationOffsetM)
        ? run.elevationOffsetM
        : firstElevation,
      windE: -w * Math.sin(from),
      windN: -w * Math.cos(from),
      calibrationFactor: run.calibrationFactor ?? null,
      meanSpeedMps: run.meanSpeedMps,
      meanPowerW: run.meanPowerW,
      airDensity: run.airDensity,
      samplesUsed: run.samplesUsed,
      flags: run.flags,
      series,
      track: trackOf(samples, i0, i1),
    }
  })
  progress(95, 'Storing the runs')
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
    fittedCalibrationFactor: analysis.fittedCalibrationFactor,
    crr: analysis.crr,
    veModel: analysis.veModel,
    warnings: [...analysis.warnings, ...read.flatMap((r) => r.activity.warnings ?? []).map(String)],
    files: read.map((r) => ({ fileId: r.file.fileId, summary: summaryOf(r.activity) })),
  }
}

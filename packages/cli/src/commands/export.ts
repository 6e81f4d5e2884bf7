// `veloptima export --format F [--out FILE] [--cp W] [--course FILE] [--name NAME] RESULT.json`:
// the plan of an optimization result (what `veloptima optimize` prints, or a run's stored output)
// as a file for a head unit, a trainer or a spreadsheet. The writers are the product's own
// (@veloptima/formats): the same bytes as the app's exports for the same plan.
import { writeFileSync } from 'node:fs'
import { basename, extname } from 'node:path'
import type { FuelOutput, RunPlanSection, RunPlanTarget } from '@veloptima/engine'
import {
  ExportError,
  exportFeeds,
  exportSections,
  importCourse,
  PLAN_FORMAT_NAMES,
  planFormat,
  type ExportPoint,
  type PlanExport,
} from '@veloptima/formats'
import { numberFlag, parseArgs, UsageError } from '../args.ts'
import { readBytes } from './course.ts'

type Json = Record<string, unknown>
export const EXPORT_FORMATS = PLAN_FORMAT_NAMES

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

/** One segment of `veloptima optimize`'s ride: where it ends and the elapsed time there. */
type SegmentJson = { start_m: number; end_m: number; grade: number; time_s: number }

/**
 * The plan's rows with their times. A run's stored output has them (`duration_s`, `elapsed_s`);
 * `veloptima optimize` prints the plan's sections and the ride segment by segment, so each
 * section's time is the elapsed time of its last segment minus that of the one before it, as the
 * engine's run output computes it (packages/engine/src/optimize/run-output.ts). A section holds
 * the segments whose middle lies in it: the printed section ends are rounded to 0.1 m.
 */
function planRows(result: Json, file: string): RunPlanSection[] {
  const plan = result.plan
  if (!Array.isArray(plan) || plan.length === 0) {
    throw new UsageError(
      `${file}: plan: expected the plan's sections (the output of veloptima optimize), got ${
        Array.isArray(plan) ? 'an empty plan' : 'nothing'
      }`,
    )
  }
  const rows = plan as RunPlanSection[]
  if (rows.every((r) => typeof r.duration_s === 'number')) return rows
  const segments = Array.isArray(result.segments) ? (result.segments as SegmentJson[]) : []
  if (segments.length === 0) return rows
  let i = 0
  let before = 0
  return rows.map((row) => {
    let length = 0
    let rise = 0
    let elapsed = before
    while (i < segments.length && segments[i]!.start_m + segments[i]!.end_m < 2 * row.end_m) {
      const s = segments[i++]!
      length += s.end_m - s.start_m
      rise += s.grade * (s.end_m - s.start_m)
      elapsed = s.time_s
    }
    const duration = elapsed - before
    before = elapsed
    return {
      ...row,
      grade: length > 0 ? rise / length : 0,
      speed_mps: duration > 0 ? length / duration : 0,
      duration_s: duration,
      elapsed_s: elapsed,
    }
  })
}

/** The rider's CP: --cp, else the one the result carries (its own, its rider's or its scenario's). */
function cpOf(p: ReturnType<typeof parseArgs>, result: Json): number | undefined {
  const flag = numberFlag(p, 'cp', 1, 3000)
  if (flag !== undefined) return flag
  if (typeof result.cp_w === 'number') return result.cp_w
  for (const holder of [result, result.scenario]) {
    const rider = isObject(holder) ? holder.rider : undefined
    if (isObject(rider) && typeof rider.cp_w === 'number') return rider.cp_w
  }
  return undefined
}

/**
 * The route's positions along the plan's distance: the course file's points (the same file the
 * scenario named, built the same way, so its distances are the plan's), else the track a stored
 * result carries (`track`: lat, lon, ele, distance).
 */
function routeOf(courseFile: string | undefined, result: Json, planLengthM: number): ExportPoint[] {
  if (courseFile !== undefined) {
    const { track, course, pointDistanceM } = importCourse(readBytes(courseFile), courseFile)
    const length = course.start[course.n]!
    if (Math.abs(length - planLengthM) > 0.01 * planLengthM + 1) {
      throw new UsageError(
        `--course ${courseFile}: expected the course the plan was made on (${planLengthM.toFixed(0)} m), got ${length.toFixed(0)} m`,
      )
    }
    const points: ExportPoint[] = []
    for (let i = 0; i < track.lat.length; i++) {
      const d = pointDistanceM[i]!
      if (!Number.isFinite(d) || !Number.isFinite(track.lat[i]!)) continue
      if (points.length > 0 && d <= points.at(-1)!.distanceM) continue
      const k = Math.min(course.n - 1, Math.max(0, course.start.findIndex((s) => s > d) - 1))
      const f = Math.min(1, (d - course.start[k]!) / course.length[k]!)
      const ele = course.altitude[k]! + f * (course.altitude[k + 1]! - course.altitude[k]!)
      points.push({ lat: track.lat[i]!, lon: track.lon[i]!, ele, distanceM: d })
    }
    return points
  }
  const t = result.track
  if (isObject(t) && Array.isArray(t.lat) && Array.isArray(t.distance)) {
    return (t.lat as number[]).map((lat, i) => ({
      lat,
      lon: (t.lon as number[])[i]!,
      ele: (t.ele as number[] | undefined)?.[i] ?? 0,
      distanceM: (t.distance as number[])[i]!,
    }))
  }
  throw new UsageError(
    '--course: expected the course file the plan was made on (a route file needs its positions), got nothing',
  )
}

function readResult(file: string): Json {
  const text = new TextDecoder().decode(readBytes(file === '-' ? '/dev/stdin' : file))
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (e) {
    throw new UsageError(`${file}: not valid JSON (${(e as Error).message})`)
  }
  if (!isObject(json))
    throw new UsageError(`${file}: expected a JSON object, got ${text.slice(0, 20)}`)
  // a stored equipment run: its best combination's pacing
  return json.type === 'equipment' && isObject(json.best) ? json.best : json
}

export async function exportCommand(args: string[]): Promise<number> {
  const p = parseArgs(args, ['format', 'out', 'cp', 'course', 'name'])
  if (p.positionals.length !== 1)
    throw new UsageError(`expected one result file, got ${p.positionals.length}`)
  const formatName = p.flags.get('format')
  const format = formatName === undefined ? undefined : planFormat(formatName)
  if (!format) {
    throw new UsageError(
      `--format: expected one of ${EXPORT_FORMATS.join(', ')}, got ${formatName ?? 'nothing'}`,
    )
  }
  const file = p.positionals[0]!
  const out = p.flags.get('out')
  if (format.binary && out === undefined && process.stdout.isTTY) {
    throw new UsageError(
      `--out: a ${formatName} file is binary and is not printed on a terminal; give --out FILE (or redirect the output to a file)`,
    )
  }
  const result = readResult(file)
  const rows = planRows(result, file)
  const targets = Array.isArray(result.targets) ? (result.targets as RunPlanTarget[]) : undefined
  const sections = exportSections(rows, targets)
  const name = p.flags.get('name') ?? basename(file, extname(file))
  // the fuel plan's feeds (a result with the rider's CP carries them) become course points
  const feeds = isObject(result.fuel)
    ? exportFeeds(result.fuel as FuelOutput, sections.at(-1)!.endM)
    : []
  const plan: PlanExport = {
    name,
    sections,
    ...(feeds.length > 0 ? { feeds } : {}),
    ...(format.route
      ? { points: routeOf(p.flags.get('course'), result, sections.at(-1)!.endM) }
      : {}),
  }
  const cpW = cpOf(p, result)
  if (format.cp && cpW === undefined) {
    throw new UsageError(
      `--cp: a ${formatName} file sets targets relative to the rider's CP and the result carries none; give --cp W`,
    )
  }
  let bytes: string | Uint8Array
  try {
    bytes = format.write(plan, { cpW, fileName: out ? basename(out) : `${name}.${formatName}` })
  } catch (e) {
    if (e instanceof ExportError) throw new UsageError(`${file}: ${e.message}`)
    throw e
  }
  if (out !== undefined) writeFileSync(out, bytes)
  else process.stdout.write(bytes)
  return 0
}

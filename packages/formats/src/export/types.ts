// What the plan writers take: the route's positions and the plan's sections (SI units).
import type { FuelOutput, RunPlanSection, RunPlanTarget } from '@veloptima/engine'

/** A position along the course; `distanceM` is the distance from the start. */
export type ExportPoint = { lat: number; lon: number; ele: number; distanceM: number }

/** One target of the plan: ride `powerW` from `startM` to `endM`. */
export type ExportSection = {
  startM: number
  endM: number
  powerW: number
  label?: string
  grade?: number
  speedMps?: number
  durationS?: number
  /** elapsed time at the end of the section (s) */
  timeS?: number
  /** The riding position held over most of the section, when the plan has several. */
  position?: string
  /** The section's target (sections of one target share it; see targets.ts). */
  target?: number
}

/**
 * The sections of a run's plan (as the API stores it and the preview computes it) to export; with
 * the plan's targets, each section knows its target, and the writers show the targets too.
 */
export function exportSections(
  plan: readonly RunPlanSection[],
  targets?: readonly RunPlanTarget[],
): ExportSection[] {
  const targetOf = new Map<number, number>()
  targets?.forEach((t, k) => t.sections.forEach((i) => targetOf.set(i, k)))
  return plan.map((s, i) => ({
    startM: s.start_m,
    endM: s.end_m,
    powerW: s.power_w,
    label: s.label,
    grade: s.grade,
    speedMps: s.speed_mps,
    durationS: s.duration_s,
    timeS: s.elapsed_s,
    ...(s.position !== undefined ? { position: s.position } : {}),
    ...(targetOf.has(i) ? { target: targetOf.get(i)! } : {}),
  }))
}

/** A feed of the fuel plan: where to eat or drink, and what. */
export type ExportFeed = {
  distanceM: number
  /** carbohydrate (g); 0 for a drink of water */
  carbohydrateG: number
  fluidMl: number
  /** what to take, as the result page shows it ("gel 21 g + 570 ml") */
  label: string
  /**
   * the ride's own time at the feed (s), as the fuel plan gives it; the sections' times would
   * put a feed in a section with a standing start or a climb's slowing seconds off
   */
  elapsedS?: number
}

/**
 * The feeds of a run's fuel plan (as the API stores it and the preview computes it) to export;
 * feeds off the course or without anything to take are left out.
 */
export function exportFeeds(
  fuel: Pick<FuelOutput, 'feeds'> | null | undefined,
  lengthM: number,
): ExportFeed[] {
  return (fuel?.feeds ?? [])
    .filter(
      (f) =>
        Number.isFinite(f.distance_m) &&
        f.distance_m >= 0 &&
        f.distance_m <= lengthM &&
        (f.carbohydrate_g > 0 || f.fluid_ml > 0),
    )
    .map((f) => ({
      distanceM: f.distance_m,
      carbohydrateG: Math.max(0, f.carbohydrate_g),
      fluidMl: Math.max(0, f.fluid_ml),
      label: f.label,
      ...(Number.isFinite(f.elapsed_s) && f.elapsed_s >= 0 ? { elapsedS: f.elapsed_s } : {}),
    }))
}

export type PlanExport = {
  name: string
  sections: ExportSection[]
  /** The fuel plan's feeds; the FIT course marks each with a food or water course point. */
  feeds?: ExportFeed[]
  /** Route positions; required by GPX and FIT (a head unit follows them). */
  points?: ExportPoint[]
  /** Start time written in the FIT file (head units show it as the course's date). */
  startTime?: Date
}

export class ExportError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ExportError'
  }
}

export function checkSections(plan: PlanExport) {
  if (plan.sections.length === 0) throw new ExportError('The plan has no sections to export.')
  plan.sections.forEach((s, i) => {
    if (!(s.endM > s.startM) || !Number.isFinite(s.powerW) || s.powerW < 0) {
      throw new ExportError(
        `Section ${i + 1}: expected start < end and a power ≥ 0 W, got ${s.startM}–${s.endM} m at ${s.powerW} W.`,
      )
    }
  })
}

export function checkPoints(plan: PlanExport): ExportPoint[] {
  const points = plan.points ?? []
  if (points.length < 2) {
    throw new ExportError(
      'The course has no positions (fewer than 2): a route file cannot be written.',
    )
  }
  return points
}

/** The section ridden at `distanceM` (the last one past the end). */
export function sectionAt(sections: readonly ExportSection[], distanceM: number): ExportSection {
  for (const s of sections) if (distanceM < s.endM) return s
  return sections[sections.length - 1]!
}

/** Predicted elapsed time at `distanceM`, interpolated within the section (0 without times). */
export function elapsedAt(sections: readonly ExportSection[], distanceM: number): number {
  let before = 0
  for (const s of sections) {
    const t = s.timeS ?? before + (s.durationS ?? 0)
    if (distanceM <= s.endM) {
      const f = Math.min(1, Math.max(0, (distanceM - s.startM) / (s.endM - s.startM)))
      return before + f * (t - before)
    }
    before = t
  }
  return before
}

/** The position at `distanceM` along the route, interpolated between the two around it. */
export function pointAt(points: readonly ExportPoint[], distanceM: number): ExportPoint {
  const i = points.findIndex((p) => p.distanceM >= distanceM)
  if (i <= 0) return points[i === 0 ? 0 : points.length - 1]!
  const a = points[i - 1]!
  const b = points[i]!
  const f = b.distanceM > a.distanceM ? (distanceM - a.distanceM) / (b.distanceM - a.distanceM) : 0
  return {
    lat: a.lat + f * (b.lat - a.lat),
    lon: a.lon + f * (b.lon - a.lon),
    ele: a.ele + f * (b.ele - a.ele),
    distanceM,
  }
}

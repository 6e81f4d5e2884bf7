import { courseFromSegments, type CourseSegmentInput } from '../course/types.ts'
import { baselineTime, pairTime, type CourseTimeSetup } from './course-time.ts'
import {
  frontStability,
  HANDLING_LEVELS,
  rearStability,
  type Handling,
  type StabilityAssessment,
} from './stability.ts'
import type { ToolWarning } from './tyre-pressure.ts'
import { RIDER_HEIGHT_WIND_FACTOR } from '../weather/profile.ts'
import {
  optionalBoolean,
  optionalChoice,
  optionalNumber,
  requireChoice,
  requireNumber,
  requireObject,
  ToolInputError,
} from './validate.ts'
import {
  FRONT_WHEELS,
  REAR_WHEELS,
  WHEELS,
  type FrontWheel,
  type RearWheel,
} from './wheel-tables.ts'

/**
 * Wheel recommendation: for each wheel class, the time on the course through the engine's
 * forward simulation (aero gain against mass on climbs), the front wheel gated by crosswind
 * stability. Drag tables and the stability heuristic are our model (wheel-tables.ts,
 * stability.ts, docs/decisions/0004-wheel-drag-tables.md).
 */

export const TERRAINS = ['flat', 'rolling', 'hilly', 'mountain'] as const
export type Terrain = (typeof TERRAINS)[number]

export type WheelsInput = {
  riderMassKg: number
  /** Bike and kit with the baseline 30 mm wheels (kg); default 8. */
  bikeMassKg?: number
  /** A typical course of this kind (40 km), used when `course` is not given. Default "flat". */
  terrain?: Terrain
  /** An actual course as segments (horizontal length, grade, heading). */
  course?: { name?: string; segments: CourseSegmentInput[] }
  /** Forecast mean wind speed at 10 m (m/s); its direction is unknown (all equally likely). */
  windSpeedMps: number
  handling: Handling
  /** Steady power (W); default 3 W/kg of rider mass. */
  powerW?: number
  /** Rider and bike drag area with 30 mm wheels (m²); default 0.30. */
  cdaM2?: number
  crr?: number
  airDensityKgM3?: number
  /** Direction the wind blows from (degrees clockwise from north), when known. */
  windFromDeg?: number
  /** Whether a disc rear is allowed (e.g. not in some mass-start races). Default true. */
  allowDisc?: boolean
}

export type WheelOption<W extends string> = {
  wheel: W
  label: string
  /** Time saved on the course against 30 mm wheels (s); negative = slower. */
  timeGainedS: number
  stability: StabilityAssessment
}

export type WheelsResult = {
  front: WheelOption<FrontWheel>
  rear: WheelOption<RearWheel>
  /** Both recommended wheels together, against 30/30. */
  timeGainedS: number
  baselineTimeS: number
  timeS: number
  distanceM: number
  ascentM: number
  /** Time-weighted mean |yaw| on the course with the baseline wheels (degrees). */
  meanAbsYawDeg: number
  /** Average speed on the course with the baseline wheels (m/s). */
  baselineSpeedMps: number
  courseName: string
  wind: { forecastMps: number; riderHeightMps: number; gustMps: number }
  candidates: { front: WheelOption<FrontWheel>[]; rear: WheelOption<RearWheel>[] }
  method: string
  explanation: string
  assumptions: string[]
  warnings: ToolWarning[]
}

/** A deeper wheel must save at least this much more time to be worth recommending (s). */
export const MIN_WORTHWHILE_GAIN_S = 1

function terrainSegments(terrain: Terrain): CourseSegmentInput[] {
  // 40 km made of 500 m segments; headings turn through a loop so that wind from any direction
  // meets the course at every angle.
  const segs: CourseSegmentInput[] = []
  const n = 80
  for (let i = 0; i < n; i++) {
    const headingDeg = (Math.floor(i / 10) * 45) % 360
    let grade = 0
    if (terrain === 'rolling') grade = Math.floor(i / 2) % 2 === 0 ? 0.03 : -0.03
    if (terrain === 'hilly') grade = Math.floor(i / 10) % 2 === 0 ? 0.06 : -0.06
    if (terrain === 'mountain') grade = i < 40 ? 0.07 : -0.07
    segs.push({ lengthM: 500, grade, headingDeg })
  }
  return segs
}

/**
 * Joins consecutive segments into pieces of at least `minLengthM` (climb kept, heading the
 * length-weighted mean direction): wheel choice does not need 10 m resolution, and a recompute
 * per keystroke must stay fast in the browser.
 */
export function coarsenSegments(
  segments: readonly CourseSegmentInput[],
  minLengthM = 100,
): CourseSegmentInput[] {
  const out: CourseSegmentInput[] = []
  let len = 0
  let rise = 0
  let east = 0
  let north = 0
  const flush = () => {
    const headingDeg = (Math.atan2(east, north) * 180) / Math.PI
    out.push({ lengthM: len, grade: rise / len, headingDeg: (headingDeg + 360) % 360 })
    len = rise = east = north = 0
  }
  for (const s of segments) {
    const h = ((s.headingDeg ?? 0) * Math.PI) / 180
    len += s.lengthM
    rise += s.grade * s.lengthM
    east += s.lengthM * Math.sin(h)
    north += s.lengthM * Math.cos(h)
    if (len >= minLengthM) flush()
  }
  if (len > 0) flush()
  return out
}

export function parseWheelsInput(raw: unknown): WheelsInput {
  const o = requireObject('input', raw)
  const input: WheelsInput = {
    riderMassKg: requireNumber('riderMassKg', o.riderMassKg, 30, 200),
    windSpeedMps: requireNumber('windSpeedMps', o.windSpeedMps, 0, 25),
    handling: requireChoice('handling', o.handling, HANDLING_LEVELS),
    terrain: optionalChoice('terrain', o.terrain, TERRAINS, 'flat'),
    allowDisc: optionalBoolean('allowDisc', o.allowDisc, true),
  }
  const opt = (field: keyof WheelsInput, min: number, max: number) => {
    const v = optionalNumber(field, o[field], min, max)
    if (v !== undefined) (input as Record<string, unknown>)[field] = v
  }
  opt('bikeMassKg', 3, 40)
  opt('powerW', 30, 800)
  opt('cdaM2', 0.12, 0.7)
  opt('crr', 0.001, 0.03)
  opt('airDensityKgM3', 0.6, 1.5)
  opt('windFromDeg', -360, 360)
  if (o.course !== undefined && o.course !== null) {
    const c = requireObject('course', o.course)
    if (!Array.isArray(c.segments) || c.segments.length === 0) {
      throw new ToolInputError(
        'course.segments',
        `course.segments: expected a non-empty array, got ${Array.isArray(c.segments) ? 'an empty array' : typeof c.segments}`,
      )
    }
    const segments = c.segments.map((s: unknown, i: number) => {
      const so = requireObject(`course.segments[${i}]`, s)
      const seg: CourseSegmentInput = {
        lengthM: requireNumber(`course.segments[${i}].lengthM`, so.lengthM, 0.1, 1e5),
        grade: requireNumber(`course.segments[${i}].grade`, so.grade, -0.4, 0.4),
      }
      const h = optionalNumber(`course.segments[${i}].headingDeg`, so.headingDeg, -360, 360)
      if (h !== undefined) seg.headingDeg = h
      return seg
    })
    input.course = { segments }
    if (typeof c.name === 'string') input.course.name = c.name
  }
  return input
}

export function recommendWheels(raw: WheelsInput | unknown): WheelsResult {
  const input = parseWheelsInput(raw)
  const segments = coarsenSegments(
    input.course?.segments ?? terrainSegments(input.terrain ?? 'flat'),
  )
  const course = courseFromSegments(segments)
  const bikeMassKg = input.bikeMassKg ?? 8
  const powerW = input.powerW ?? 3 * input.riderMassKg
  const rho = input.airDensityKgM3 ?? 1.225
  const windAtRider = input.windSpeedMps * RIDER_HEIGHT_WIND_FACTOR
  const setup: CourseTimeSetup = {
    course,
    rider: {
      massKg: input.riderMassKg,
      bikeMassKg,
      cdaM2: input.cdaM2 ?? 0.3,
      crr: input.crr ?? 0.004,
      drivetrainEfficiency: 0.976,
    },
    powerW,
    airDensityKgM3: rho,
    windMps: windAtRider,
  }
  if (input.windFromDeg !== undefined) setup.windFromDeg = input.windFromDeg
  const baseline = baselineTime(setup)
  if (!Number.isFinite(baseline.timeS)) {
    throw new ToolInputError(
      'powerW',
      `powerW: expected enough power to ride up every segment of the course, got ${Math.round(powerW)} W`,
    )
  }
  const systemMassKg = input.riderMassKg + bikeMassKg
  const conditions = {
    systemMassKg,
    speedMps: baseline.averageSpeedMps,
    windSpeedMps: input.windSpeedMps,
    handling: input.handling,
    airDensityKgM3: rho,
  }
  const round1 = (x: number) => Math.round(x * 10) / 10
  const gain = (f: FrontWheel, r: RearWheel) =>
    round1(baseline.timeS - pairTime(setup, baseline, f, r))

  const fronts = FRONT_WHEELS.map((wheel) => ({
    wheel,
    label: WHEELS[wheel].label,
    timeGainedS: wheel === '30' ? 0 : gain(wheel, '30'),
    stability: frontStability(wheel, conditions),
  }))
  const rears = REAR_WHEELS.filter((w) => w !== 'disc' || input.allowDisc !== false).map(
    (wheel) => ({
      wheel,
      label: WHEELS[wheel].label,
      timeGainedS: wheel === '30' ? 0 : gain('30', wheel),
      stability: rearStability(wheel, conditions),
    }),
  )
  // Deepest worthwhile choice: walk up the depths, keep a deeper wheel only if it saves at
  // least MIN_WORTHWHILE_GAIN_S more; fronts rated unstable are not eligible.
  const pick = <T extends { timeGainedS: number; stability: StabilityAssessment }>(opts: T[]) => {
    let best = opts[0]!
    for (const o of opts.slice(1)) {
      if (o.stability.rating === 'unstable') continue
      if (o.timeGainedS >= best.timeGainedS + MIN_WORTHWHILE_GAIN_S) best = o
    }
    return best
  }
  const front = pick(fronts)
  const rear = pick(rears)
  const chosenTimeS = pairTime(setup, baseline, front.wheel, rear.wheel)
  const timeGainedS = round1(baseline.timeS - chosenTimeS)

  const warnings: ToolWarning[] = []
  if (fronts[0]!.stability.rating === 'unstable') {
    warnings.push({
      code: 'wind-too-strong',
      message: `even the 30 mm front is rated unstable in this wind (side force ${(fronts[0]!.stability.ratio * 100).toFixed(1)} % of system weight); ride with care.`,
    })
  }
  const blocked = fronts.filter(
    (f) => f.stability.rating === 'unstable' && f.timeGainedS > front.timeGainedS,
  )
  if (blocked.length > 0) {
    warnings.push({
      code: 'front-limited-by-wind',
      message: `a deeper front (${blocked.map((b) => b.label).join(', ')}) would be faster but is rated unstable for your mass, wind and handling.`,
    })
  }
  const ascentM = segments.reduce((a, s) => a + Math.max(0, s.grade * s.lengthM), 0)
  const distanceM = segments.reduce((a, seg) => a + seg.lengthM, 0)
  const km = (distanceM / 1000).toFixed(1)
  const s = front.stability
  const explanation =
    `A ${WHEELS[front.wheel].label.replace(' (shallow baseline)', '')} front and ${rear.wheel === 'disc' ? 'a disc' : `a ${WHEELS[rear.wheel].label.replace(' (shallow baseline)', '')}`} rear ${timeGainedS >= 0 ? 'save' : 'lose'} ${Math.abs(timeGainedS).toFixed(0)} s over ${km} km against 30 mm wheels at ${Math.round(powerW)} W. ` +
    `In a ${(s.gustMps * 3.6).toFixed(0)} km/h side gust the front wheel pushes with ${s.sideForceN.toFixed(1)} N, ${(s.ratio * 100).toFixed(2)} % of your system weight (limit ${(s.threshold * 100).toFixed(2)} % for ${input.handling} handling confidence): ${s.rating}.`

  return {
    front,
    rear,
    timeGainedS,
    baselineTimeS: round1(baseline.timeS),
    timeS: round1(chosenTimeS),
    distanceM: Math.round(distanceM),
    meanAbsYawDeg: round1(baseline.meanAbsYawDeg),
    ascentM: Math.round(ascentM),
    baselineSpeedMps: Math.round(baseline.averageSpeedMps * 1000) / 1000,
    courseName: input.course?.name ?? `a typical ${input.terrain ?? 'flat'} course`,
    wind: {
      forecastMps: input.windSpeedMps,
      riderHeightMps: Math.round(windAtRider * 100) / 100,
      gustMps: Math.round(s.gustMps * 100) / 100,
    },
    candidates: { front: fronts, rear: rears },
    method: `Forward simulation of the course at constant power with each wheel pair: on every segment the drag area follows the apparent-wind yaw (mean |yaw| ${round1(baseline.meanAbsYawDeg)}°), averaged over ${baseline.directions.length === 1 ? 'the given wind direction' : `${baseline.directions.length} equally likely wind directions`}; the wheels' extra mass rides on the bike.`,
    explanation,
    assumptions: [
      `power ${Math.round(powerW)} W${input.powerW === undefined ? ' (3 W/kg)' : ''}, CdA ${setup.rider.cdaM2} m² with 30 mm wheels, Crr ${setup.rider.crr}, air density ${rho} kg/m³`,
      `forecast wind ${round1(input.windSpeedMps)} m/s at 10 m → ${windAtRider.toFixed(1)} m/s at rider height (× ${RIDER_HEIGHT_WIND_FACTOR.toFixed(3)}, docs/engine/science.md §1.1); gusts 1.5× that, side-on`,
      'drag and side-force tables are our model from published anchors (±40 % drag, ±50 % side force): see docs/decisions/0004',
      'a deeper wheel must save at least 1 s more than the next shallower one to be recommended',
    ],
    warnings,
  }
}

// An independent, slow and simple reference solver for the pacing problem, used by the tests to
// prove the fast optimizer right. It deliberately shares no code with the fast path: its own
// quasi-steady Martin (1998) model (no kinetic energy: each segment is ridden at the steady speed
// of its power), its own steady-speed solver (bisection), and dense dynamic programming over a
// one-dimensional resource state (W′ balance, spent work, or accumulated power surplus).
//
// Exact up to its grids: the value function is tabulated on `levels` states and the decision on
// a power grid of `powerStep` watts; the returned plan is then rolled out forward in the
// continuous state (no snapping), so its time is the exact time of a feasible plan. Refining the
// grids shows convergence (see the tests).

export interface ReferenceCourse {
  /** segment lengths (m) */
  length: Float64Array
  /** road grade, rise/run */
  grade: Float64Array
  /** head-wind component along the travel direction (m/s, positive = against the rider) */
  headwind: Float64Array
  /** air density per segment (kg/m³) */
  rho: Float64Array
}

export interface ReferenceRider {
  /** total system mass, rider + bike (kg) */
  massKg: number
  cdaM2: number
  crr: number
  /** drivetrain efficiency */
  eta: number
  /** wheel-rotation drag area added to CdA (Martin's Fw) */
  fwM2: number
  /** include Martin's bearing friction Vg·(91 + 8.7·Vg)·10⁻³ W */
  bearing: boolean
  cpW: number
  wPrimeJ: number
  minPowerW: number
  maxPowerW: number
}

export type ReferenceConstraint =
  | { type: 'w_prime_balance' }
  | { type: 'average_power'; powerW: number }
  | { type: 'work'; workJ: number }

export interface ReferenceGrid {
  /** number of tabulated states of the resource */
  levels: number
  /** power decision step (W) */
  powerStep: number
}

export interface ReferenceResult {
  timeS: number
  power: Float64Array
}

const G = 9.80665

/** Wheel-side resistive power at ground speed v on a segment (W). */
function resistivePower(r: ReferenceRider, grade: number, wind: number, rho: number, v: number) {
  const theta = Math.atan(grade)
  const va = v + wind
  const aero = 0.5 * rho * (r.cdaM2 + r.fwM2) * va * Math.abs(va) * v
  const roll = r.crr * r.massKg * G * Math.cos(theta) * v
  const grav = r.massKg * G * Math.sin(theta) * v
  const bearing = r.bearing ? v * (91 + 8.7 * v) * 1e-3 : 0
  return aero + roll + grav + bearing
}

/** Steady ground speed at crank power p (bisection; 0 when the rider cannot move forward). */
export function referenceSteadySpeed(
  r: ReferenceRider,
  grade: number,
  wind: number,
  rho: number,
  p: number,
): number {
  const target = r.eta * p
  let lo = 0
  let hi = 200
  // η·P − P_resist(v) is positive at v = 0⁺ and negative for large v; with one sign change on
  // (0, 200) bisection is safe. A negative value just above 0 means the rider stalls.
  if (target - resistivePower(r, grade, wind, rho, 1e-6) <= 0) return 0
  for (let k = 0; k < 200 && hi - lo > 1e-12; k++) {
    const mid = 0.5 * (lo + hi)
    if (target - resistivePower(r, grade, wind, rho, mid) > 0) lo = mid
    else hi = mid
  }
  return 0.5 * (lo + hi)
}

/** Skiba 2015 differential W′ balance over a bout of constant power p lasting t seconds. */
function skiba(w: number, p: number, t: number, cp: number, wPrime: number): number {
  if (p >= cp) return w - (p - cp) * t
  return wPrime - (wPrime - w) * Math.exp((-(cp - p) * t) / wPrime)
}

interface Resource {
  lo: number
  hi: number
  start: number
  next(s: number, p: number, t: number): number
  /** feasible terminal state */
  terminalOk(s: number): boolean
  /** states below `lo`: infeasible (true) or clamped to lo (false: more slack is never worse) */
  belowIsInfeasible: boolean
}

function resourceOf(c: ReferenceConstraint, r: ReferenceRider, totalTimeGuess: number): Resource {
  switch (c.type) {
    case 'w_prime_balance':
      return {
        lo: 0,
        hi: r.wPrimeJ,
        start: r.wPrimeJ,
        next: (s, p, t) => skiba(s, p, t, r.cpW, r.wPrimeJ),
        terminalOk: (s) => s >= 0,
        belowIsInfeasible: true,
      }
    case 'work':
      return {
        lo: 0,
        hi: c.workJ,
        start: c.workJ,
        next: (s, p, t) => s - p * t,
        terminalOk: (s) => s >= 0,
        belowIsInfeasible: true,
      }
    case 'average_power': {
      // state: slack = Σ (P̄ − P)·t; must end ≥ 0, may dip below 0 on the way (overspend now,
      // recover later). The tabulated window is ±10 % of the whole ride's work at P̄: slack above
      // it is clamped (conservative: the plan stays feasible and exactly evaluated).
      const span = 0.1 * c.powerW * totalTimeGuess
      return {
        lo: -span,
        hi: span,
        start: 0,
        next: (s, p, t) => s + (c.powerW - p) * t,
        terminalOk: (s) => s >= 0,
        belowIsInfeasible: true,
      }
    }
  }
}

/**
 * Dense backward DP over (segment, resource state) with decisions on a power grid, then a forward
 * rollout in the continuous state. Returns null when no feasible plan exists on the grids.
 */
export function referenceOptimize(
  course: ReferenceCourse,
  rider: ReferenceRider,
  constraint: ReferenceConstraint,
  grid: ReferenceGrid,
): ReferenceResult | null {
  const n = course.length.length
  const nP = Math.floor((rider.maxPowerW - rider.minPowerW) / grid.powerStep) + 1
  const powers = new Float64Array(nP)
  for (let k = 0; k < nP; k++) powers[k] = rider.minPowerW + k * grid.powerStep
  /** Steady speed on segment i at crank power p. */
  const speedAt = (i: number, p: number) =>
    referenceSteadySpeed(rider, course.grade[i]!, course.headwind[i]!, course.rho[i]!, p)
  // segment time at each power (Infinity when the rider stalls)
  const time = new Float64Array(n * nP)
  let slowest = 0
  for (let i = 0; i < n; i++) {
    let worst = 0
    for (let k = 0; k < nP; k++) {
      const v = speedAt(i, powers[k]!)
      const t = v > 1e-9 ? course.length[i]! / v : Infinity
      time[i * nP + k] = t
      if (Number.isFinite(t)) worst = Math.max(worst, t)
    }
    slowest += worst
  }
  let constTime = 0
  if (constraint.type === 'average_power') {
    for (let i = 0; i < n; i++) {
      const v = speedAt(i, constraint.powerW)
      constTime += v > 1e-9 ? course.length[i]! / v : slowest / n
    }
  }
  const res = resourceOf(constraint, rider, constTime)
  const L = grid.levels
  const ds = (res.hi - res.lo) / (L - 1)
  // value[i][l]: minimum remaining time from segment i in state lo + l·ds
  const value = new Float64Array((n + 1) * L)
  for (let l = 0; l < L; l++) {
    value[n * L + l] = res.terminalOk(res.lo + l * ds) ? 0 : Infinity
  }
  const interp = (i: number, s: number): number => {
    if (s < res.lo) {
      if (res.belowIsInfeasible) return Infinity
      s = res.lo
    }
    if (s > res.hi) s = res.hi
    const x = (s - res.lo) / ds
    const l = Math.min(L - 2, Math.floor(x))
    const f = x - l
    const a = value[i * L + l]!
    const b = value[i * L + l + 1]!
    if (f === 0) return a
    if (!Number.isFinite(a) || !Number.isFinite(b)) return Infinity
    return a + f * (b - a)
  }
  const choose = (i: number, s: number): { k: number; cost: number } => {
    let best = Infinity
    let bestK = -1
    for (let k = 0; k < nP; k++) {
      const t = time[i * nP + k]!
      if (!Number.isFinite(t)) continue
      const sn = res.next(s, powers[k]!, t)
      if (sn < res.lo && res.belowIsInfeasible && !(sn >= res.lo - 1e-9)) continue
      const c = t + interp(i + 1, sn)
      if (c < best) {
        best = c
        bestK = k
      }
    }
    return { k: bestK, cost: best }
  }
  for (let i = n - 1; i >= 0; i--) {
    for (let l = 0; l < L; l++) value[i * L + l] = choose(i, res.lo + l * ds).cost
  }
  // forward rollout in the continuous state
  const power = new Float64Array(n)
  let s = res.start
  let total = 0
  for (let i = 0; i < n; i++) {
    const { k } = choose(i, s)
    if (k < 0) return null
    const t = time[i * nP + k]!
    power[i] = powers[k]!
    total += t
    s = res.next(s, powers[k]!, t)
  }
  if (!res.terminalOk(s)) return null
  return { timeS: total, power }
}

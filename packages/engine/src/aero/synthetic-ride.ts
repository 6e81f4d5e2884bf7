// A synthetic field test with known truth, for tests and benchmarks: a rider on a closed hilly
// loop (or an out-and-back road), integrated in time with the Martin et al. (1998) terms of
// physics/martin.ts (rolling, bearings, gravity, kinetic energy with wheel inertia) and the
// engine's full-vector aero force ½ρ(CdA + Fw)·|Va|·(v + w∥) (physics/wind.ts), then sampled at
// 1 Hz like a head unit (mean power over the second, instantaneous speed) with seeded noise.
import { MARTIN } from '../physics/constants.ts'
import { bearingPower, gravityPower, rollingPower } from '../physics/martin.ts'
import { airSpeed, windComponents } from '../physics/wind.ts'
import { metresPerRadian } from '../course/geo.ts'
import type { ActivitySamples } from './types.ts'
import { createRandom } from './random.ts'

export interface SyntheticRideOptions {
  cda: number
  crr: number
  massKg: number
  rho?: number
  drivetrainEfficiency?: number
  /** Wind speed (m/s) and the direction it blows FROM (deg). */
  windMps?: number
  windFromDeg?: number
  /** 'loop': closed hilly loop; 'out_and_back': straight hilly road ridden there and back. */
  shape?: 'loop' | 'out_and_back'
  /** Loop perimeter, or the one-way length of the out-and-back road, m. */
  lengthM?: number
  /** Amplitude of the road's elevation profile, m (0 = flat, a velodrome). */
  hillM?: number
  laps?: number
  /** CdA of each lap (cycled; e.g. configurations and a drift), m²; default `cda` throughout. */
  lapCda?: number[]
  /** Crr of each lap (cycled; e.g. tyres); default `crr` throughout. */
  lapCrr?: number[]
  /** Power of each lap (cycled), W; a ±8 % pedalling wave rides on it. */
  lapPowerW?: number[]
  /** Noise: power (relative sd), speed (sd m/s), elevation (AR(1) sd m with correlation time s, plus white sd m), GPS position (sd m). */
  powerNoise?: number
  speedNoise?: number
  elevationNoiseM?: number
  elevationNoiseTauS?: number
  elevationWhiteM?: number
  gpsNoiseM?: number
  /** Record a lap marker at each loop (or leg) start. */
  recordLaps?: boolean
  /** Drop altitude and GPS from the file (velodrome). */
  noGps?: boolean
  noAltitude?: boolean
  /** Pitot: record air speed as the true along-axis air speed / √cal (raw sensor), with this noise sd. */
  pitotCalibration?: number
  airspeedNoise?: number
  /**
   * Out-and-back only: the rider stops pedalling a second before braking, brakes at
   * `brakeDecelMps2` before each turn down to this speed (m/s), and freewheels into the turn;
   * absent: the turn is ridden at speed.
   */
  turnSpeedMps?: number
  brakeDecelMps2?: number
  seed?: number
}

/**
 * The field test the aero tests and benchmark ride (give it `laps` and a `seed`): a hilly 3 km
 * loop, laps at 150/330 W in a 3 m/s wind, with power, speed, GPS and elevation noise.
 */
export const NOISY_FIELD_TEST: SyntheticRideOptions = {
  cda: 0.25,
  crr: 0.004,
  massKg: 80,
  rho: 1.2,
  windMps: 3,
  windFromDeg: 240,
  lengthM: 3000,
  hillM: 8,
  lapPowerW: [150, 330],
  powerNoise: 0.015,
  speedNoise: 0.05,
  gpsNoiseM: 1.5,
  elevationNoiseM: 0.15,
  elevationNoiseTauS: 30,
  elevationWhiteM: 0.1,
}

export interface SyntheticRide {
  samples: ActivitySamples
  /** True elevation at each sample, m. */
  trueElevation: Float64Array
  /** Sample index where each lap (loop or leg) starts. */
  lapStarts: number[]
}

function gauss(rand: () => number): number {
  let u = 0
  while (u === 0) u = rand()
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand())
}

/** Road geometry at along-road distance s: position (m), heading (rad) and elevation (m). */
function road(
  o: Required<Pick<SyntheticRideOptions, 'shape' | 'lengthM' | 'hillM'>>,
  sIn: number,
): { x: number; y: number; heading: number; z: number; grade: number; leg: number } {
  const L = o.lengthM
  if (o.shape === 'loop') {
    const s = ((sIn % L) + L) % L
    // Stadium-free smooth loop: a circle of perimeter L (heading turns through 360° per lap).
    const R = L / (2 * Math.PI)
    const a = s / R
    const z = o.hillM * (Math.sin(a) + 0.4 * Math.sin(3 * a + 1))
    const dz = (o.hillM * (Math.cos(a) + 1.2 * Math.cos(3 * a + 1))) / R
    return {
      x: R * Math.sin(a),
      y: R - R * Math.cos(a),
      heading: (Math.PI / 2 - a + 4 * Math.PI) % (2 * Math.PI),
      z,
      grade: dz,
      leg: Math.floor(sIn / L),
    }
  }
  const leg = Math.floor(sIn / L)
  const f = sIn - leg * L
  const out = leg % 2 === 0
  const u = out ? f : L - f
  const k = (2 * Math.PI) / L
  const z = o.hillM * (Math.sin(k * u) * 0.8 + 0.3 * Math.sin(3 * k * u))
  const dz = o.hillM * (0.8 * k * Math.cos(k * u) + 0.9 * k * Math.cos(3 * k * u)) * (out ? 1 : -1)
  // Road runs north-east (heading 45°); the return leg heads south-west.
  const h = Math.PI / 4
  return {
    x: u * Math.sin(h),
    y: u * Math.cos(h),
    heading: out ? h : h + Math.PI,
    z,
    grade: dz,
    leg,
  }
}

/** Whether the rider brakes at along-road distance s and speed v (before an out-and-back turn). */
function brakingAt(
  geo: { shape: 'loop' | 'out_and_back'; lengthM: number },
  opt: SyntheticRideOptions,
  s: number,
  v: number,
): boolean {
  const vt = opt.turnSpeedMps
  if (vt === undefined || geo.shape !== 'out_and_back' || v <= vt) return false
  const toTurn = geo.lengthM - (s - Math.floor(s / geo.lengthM) * geo.lengthM)
  return toTurn <= (v * v - vt * vt) / (2 * (opt.brakeDecelMps2 ?? 2.5)) + v * 0.05
}

/** Whether the rider has stopped pedalling for the turn: a second before the braking starts. */
function coastingAt(
  geo: { shape: 'loop' | 'out_and_back'; lengthM: number },
  opt: SyntheticRideOptions,
  s: number,
  v: number,
): boolean {
  return brakingAt(geo, opt, s + v, v)
}

/** The leg whose turn the rider is braking for (then freewheeling at the turn speed), or −1. */
function turnLeg(
  geo: { shape: 'loop' | 'out_and_back'; lengthM: number },
  opt: SyntheticRideOptions,
  s: number,
  v: number,
  held: number,
): number {
  const leg = Math.floor(s / geo.lengthM)
  if (held === leg) return leg
  return brakingAt(geo, opt, s, v) ? leg : -1
}

/** Simulates the ride and returns samples at 1 Hz with the truth. */
export function syntheticRide(opt: SyntheticRideOptions): SyntheticRide {
  const rand = createRandom(opt.seed ?? 1)
  const geo = { shape: opt.shape ?? 'loop', lengthM: opt.lengthM ?? 3000, hillM: opt.hillM ?? 8 }
  const laps = opt.laps ?? 6
  const lapPower = opt.lapPowerW ?? [180, 300]
  const rho = opt.rho ?? 1.2
  const eta = opt.drivetrainEfficiency ?? MARTIN.drivetrainEfficiency
  const m = opt.massKg
  const mEff = m + MARTIN.wheelInertiaKgM2 / (MARTIN.wheelRadiusM * MARTIN.wheelRadiusM)
  const windMps = opt.windMps ?? 0
  const windFrom = ((opt.windFromDeg ?? 0) * Math.PI) / 180
  const total = laps * geo.lengthM
  const sub = 20
  const h = 1 / sub
  const t: number[] = []
  const speed: number[] = []
  const power: number[] = []
  const alt: number[] = []
  const trueAlt: number[] = []
  const xs: number[] = []
  const ys: number[] = []
  const dist: number[] = []
  const lap: number[] = []
  const air: number[] = []
  const lapStarts: number[] = [0]
  let v = 7
  let s = 0
  let time = 0
  let ar = 0
  let slowLeg = -1
  const tau = opt.elevationNoiseTauS ?? 30
  const phi = Math.exp(-1 / tau)
  const sdAr = opt.elevationNoiseM ?? 0
  const cal = opt.pitotCalibration ?? 1
  const pushSample = (pMean: number, axial: number): void => {
    const r = road(geo, s)
    ar = phi * ar + Math.sqrt(1 - phi * phi) * sdAr * gauss(rand)
    t.push(time)
    speed.push(v + (opt.speedNoise ?? 0) * gauss(rand))
    power.push(Math.max(0, pMean * (1 + (opt.powerNoise ?? 0) * gauss(rand))))
    alt.push(r.z + ar + (opt.elevationWhiteM ?? 0) * gauss(rand))
    trueAlt.push(r.z)
    xs.push(r.x + (opt.gpsNoiseM ?? 0) * gauss(rand))
    ys.push(r.y + (opt.gpsNoiseM ?? 0) * gauss(rand))
    dist.push(s)
    const lp = Math.floor(s / geo.lengthM)
    if (lp > (lap[lap.length - 1] ?? 0)) lapStarts.push(lap.length)
    lap.push(lp)
    air.push(axial / Math.sqrt(cal) + (opt.airspeedNoise ?? 0) * gauss(rand))
  }
  pushSample(lapPower[0]!, v)
  while (s < total) {
    let work = 0
    let axial = v
    for (let k = 0; k < sub; k++) {
      const r = road(geo, s)
      const lp = Math.min(laps - 1, Math.floor(s / geo.lengthM))
      const base = lapPower[lp % lapPower.length]!
      slowLeg = turnLeg(geo, opt, s, v, slowLeg)
      const braking = slowLeg >= 0
      const P =
        braking || coastingAt(geo, opt, s, v)
          ? 0
          : base * (1 + 0.08 * Math.sin((2 * Math.PI * (time + k * h)) / 23))
      const wc = windComponents(windMps, windFrom, r.heading)
      const va = airSpeed(v, wc.headwind, wc.cross)
      const cda = opt.lapCda ? opt.lapCda[lp % opt.lapCda.length]! : opt.cda
      const fAero = 0.5 * rho * (cda + MARTIN.spokeDragAreaM2) * va * (v + wc.headwind)
      const fRest =
        (rollingPower(v, r.grade, opt.lapCrr ? opt.lapCrr[lp % opt.lapCrr.length]! : opt.crr, m) +
          bearingPower(v) +
          gravityPower(v, r.grade, m)) /
        v
      const acc = ((eta * P) / v - fAero - fRest) / mEff
      // Braking down to the turn speed, then freewheeling into the turn.
      v =
        braking && v > opt.turnSpeedMps!
          ? Math.max(opt.turnSpeedMps!, v - (opt.brakeDecelMps2 ?? 2.5) * h)
          : Math.max(2, v + acc * h)
      s += v * h
      work += P * h
      axial = v + wc.headwind
    }
    time += 1
    pushSample(work, axial)
  }
  const n = t.length
  const r0 = metresPerRadian(45)
  const k = 180 / Math.PI
  const lat = Float64Array.from(ys, (y) => 45 + (y / r0.north) * k)
  const lon = Float64Array.from(xs, (x) => 6 + (x / r0.east) * k)
  const samples: ActivitySamples = {
    t: Float64Array.from(t),
    startEpochS: NaN,
    speed: Float64Array.from(speed),
    power: Float64Array.from(power),
    altitude: opt.noAltitude ? null : Float64Array.from(alt),
    distance: Float64Array.from(dist),
    lap: opt.recordLaps ? Int32Array.from(lap) : new Int32Array(n),
    lat: opt.noGps ? null : lat,
    lon: opt.noGps ? null : lon,
    airspeed: opt.pitotCalibration !== undefined ? Float64Array.from(air) : null,
    yaw: null,
    temperature: null,
    pressure: null,
    airDensity: null,
    windSpeed: null,
  }
  return { samples, trueElevation: Float64Array.from(trueAlt), lapStarts }
}

export interface SyntheticSession {
  ride: SyntheticRide
  /** The runs (each an out-and-back round trip) with their configuration, in time order. */
  runs: Array<{ startT: number; endT: number; configuration: string }>
  /** The true wind: speed, m/s, and the direction it blows FROM, degrees. */
  wind: { speedMps: number; fromDeg: number }
}

/**
 * A bracketed A/B field test on an out-and-back road (the aero tests' synthetic session): 6–10
 * round trips alternating the baseline B and the configuration X (B first and last), X's CdA
 * `deltaCda` from B's 0.25 m², each pair of trips at about 170 or 310 W (the speeds that separate
 * Crr from CdA), a 1–3 m/s wind from any direction, braking to 3 m/s at the turns, and 0.5 m of
 * elevation noise (0.4 m wandering over 30 s, 0.3 m white). Seeded: the same seed, the same ride.
 */
export function syntheticSession(
  seed: number,
  deltaCda: number,
  /** X's Crr minus B's (X on other tyres); default 0. */
  deltaCrr = 0,
): SyntheticSession {
  const rand = createRandom(1000 + seed)
  const n = 6 + Math.floor(rand() * 5)
  const configs = Array.from({ length: n }, (_, k) => (k % 2 === 0 ? 'B' : 'X'))
  if (configs[configs.length - 1] !== 'B') configs.push('B')
  const lapCda = configs.flatMap((c) => {
    const cda = c === 'B' ? 0.25 : 0.25 + deltaCda
    return [cda, cda]
  })
  const lapPowerW = configs.flatMap((_, k) => {
    const p = ((k >> 1) % 2 === 0 ? 170 : 310) * (0.95 + 0.1 * rand())
    return [p, p]
  })
  const windMps = 1 + 2 * rand()
  const windFromDeg = 360 * rand()
  const ride = syntheticRide({
    cda: 0.25,
    lapCda,
    crr: 0.004,
    ...(deltaCrr !== 0
      ? {
          lapCrr: configs.flatMap((c) =>
            c === 'B' ? [0.004, 0.004] : [0.004 + deltaCrr, 0.004 + deltaCrr],
          ),
        }
      : {}),
    massKg: 80,
    rho: 1.2,
    windMps,
    windFromDeg,
    shape: 'out_and_back',
    lengthM: 1500,
    hillM: 5,
    laps: 2 * configs.length,
    lapPowerW,
    recordLaps: true,
    powerNoise: 0.015,
    speedNoise: 0.05,
    gpsNoiseM: 1.5,
    elevationNoiseM: 0.4,
    elevationNoiseTauS: 30,
    elevationWhiteM: 0.3,
    turnSpeedMps: 3,
    brakeDecelMps2: 2.5,
    seed: 2000 + seed,
  })
  const t = ride.samples.t
  const runs = configs.map((configuration, k) => ({
    startT: t[ride.lapStarts[2 * k]!]!,
    endT: t[(ride.lapStarts[2 * k + 2] ?? t.length) - 1]!,
    configuration,
  }))
  return { ride, runs, wind: { speedMps: windMps, fromDeg: windFromDeg } }
}

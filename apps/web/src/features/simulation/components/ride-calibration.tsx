// "Calibrate from a ride": the rider's effective CdA and Crr (and the day's wind) from a recorded
// ride with power, in any activity format the product reads (ride-calibration-read.ts), fitted in
// the browser by the engine. A road ride with GPS and elevation: calibrateRecordedRide (the energy
// balance over the moving parts, then the replay closure) on the course built from the ride's own
// points, in the ride's own weather when the file has GPS and times (POST /api/weather/history:
// Open-Meteo's archive wind and air of its place and hours; else the typed temperature and a
// fitted constant wind, and the panel says why). A ride without GPS or elevation (a velodrome, a
// CSV export): the virtual-elevation fit over the whole ride, on the velodrome model when the file
// has neither. Shows the values with their 95 % intervals, what was assumed, what was left out
// and why, the replay (or the virtual elevation) with them; the values go into the setup only
// when the user applies them. A file that cannot be used says why in an alert region.
import { useState } from 'react'
import { calibrateRecordedRide, type RideCalibrationReport } from '@veloptima/engine'
import { Field } from '../../../components/form.tsx'
import { humanError, MessageDetails } from '../../../components/message-details.tsx'
import {
  CALIBRATION_ACCEPT,
  CALIBRATION_FORMATS,
  calibrateByVirtualElevation,
  calibrationMessage,
  calibrationRoute,
  rideOnOwnCourse,
  type CalibrationRider,
  type VeCalibration,
} from './ride-calibration-read.ts'
import { fetchRideWeather, rideWeatherQuery } from './ride-calibration-weather.ts'
import { Button } from './ui.tsx'

export type RideCalibrationValues = { cdaM2: number; crr: number }
export type { CalibrationRider }

const REASONS: Record<string, string> = {
  stopped: 'stopped',
  no_power: 'no power',
  gps_spike: 'GPS spikes',
  braking: 'braking',
  coasting_descent: 'fast descents without pedalling',
  drafting: 'riding in a draft',
  outlier: 'other outliers',
  short_stretch: 'stretches too short to fit',
  outside_range: 'outside the range',
}

/**
 * Crr of the three road surfaces after a calibration: the fitted Crr is the normal-road value
 * and the smooth and rough values keep their ratio to it.
 */
export function crrBySurface(
  fitted: number,
  current: { smooth: number; normal: number; rough: number },
): { smooth: number; normal: number; rough: number } {
  const ok = current.normal > 0 && current.smooth > 0 && current.rough > 0
  const smooth = ok ? current.smooth / current.normal : 0.8
  const rough = ok ? current.rough / current.normal : 1.375
  return { smooth: fitted * smooth, normal: fitted, rough: fitted * rough }
}

/**
 * A calibration on the ride's own course and the weather it was made in (or why the manual air
 * was kept), or one by the virtual-elevation fit (no GPS or no elevation in the file).
 */
export type CalibrationOutcome =
  | { kind: 'course'; report: RideCalibrationReport; weatherNote: string; weatherDetail?: string }
  | { kind: 've'; fit: VeCalibration }

/** A file the calibration cannot use: what to do about it, and the reader's words as the detail. */
class CalibrationRefusal extends Error {}

async function calibrateFile(
  file: File,
  rider: CalibrationRider,
  temperatureC: number,
  useHistory: boolean,
): Promise<CalibrationOutcome> {
  const bytes = new Uint8Array(await file.arrayBuffer())
  // The readers load only when a ride is calibrated (they are not needed elsewhere on the page).
  const { readActivity, ImportError } = await import('@veloptima/formats')
  let activity
  try {
    activity = readActivity(bytes, file.name)
  } catch (e) {
    if (e instanceof ImportError) throw new CalibrationRefusal(calibrationMessage(e.message))
    throw e
  }
  if (calibrationRoute(activity.samples) === 'virtual-elevation') {
    return { kind: 've', fit: calibrateByVirtualElevation(activity, rider, temperatureC) }
  }
  const { built: imported, ride } = rideOnOwnCourse(activity)
  const input = {
    massKg: rider.massKg,
    bikeMassKg: rider.bikeMassKg,
    drivetrainEfficiency: rider.efficiency,
    environment: { temperatureC },
  }
  let why = 'not asked'
  let detail: string | undefined
  if (useHistory) {
    const q = Number.isFinite(activity.startEpochS)
      ? rideWeatherQuery(imported.track, imported.pointDistanceM)
      : ({ ok: false, reason: 'the file has no date and time' } as const)
    const got = q.ok ? await fetchRideWeather(q.query) : q
    if (got.ok) {
      try {
        const report = calibrateRecordedRide(ride, { ...input, weather: got.weather })
        return {
          kind: 'course',
          report,
          weatherNote: `Weather: ${report.weather?.label ?? got.weather.label}`,
        }
      } catch (e) {
        why = 'the archive’s weather does not cover this ride'
        detail = e instanceof Error ? e.message : String(e)
      }
    } else {
      why = got.reason
      detail = 'detail' in got ? (got.detail as string | undefined) : undefined
    }
  }
  return {
    kind: 'course',
    report: calibrateRecordedRide(ride, input),
    weatherNote: `No historical weather: ${why}; manual inputs kept (${temperatureC} °C, a constant wind fitted where the route allows).`,
    weatherDetail: detail,
  }
}

/** Measured and virtual elevation against time, and the residual under them. */
function ResidualChart({ chart }: { chart: RideCalibrationReport['chart'] }) {
  const w = 600
  const h = 160
  const t = chart.t
  const finite = (a: number[]) => a.filter((x) => Number.isFinite(x))
  const ys = [...finite(chart.elevationM), ...finite(chart.virtualM)]
  const res = finite(chart.residualM)
  if (t.length < 2 || ys.length === 0) return null
  const t0 = t[0]!
  const t1 = t[t.length - 1]!
  const lo = Math.min(...ys)
  const hi = Math.max(...ys)
  const rMax = Math.max(1, ...res.map(Math.abs))
  const x = (s: number) => ((s - t0) / (t1 - t0 || 1)) * w
  const y = (e: number) => 100 - ((e - lo) / (hi - lo || 1)) * 95
  const yr = (r: number) => 130 - (r / rMax) * 25
  const path = (vals: number[], f: (v: number) => number) => {
    let d = ''
    let pen = false
    vals.forEach((v, i) => {
      if (!Number.isFinite(v)) {
        pen = false
        return
      }
      d += `${pen ? 'L' : 'M'}${x(t[i]!).toFixed(1)},${f(v).toFixed(1)}`
      pen = true
    })
    return d
  }
  return (
    <svg
      viewBox={`0 0 ${w} ${h}`}
      className="mt-2 w-full"
      role="img"
      aria-label="Measured and virtual elevation, and the residual"
    >
      <path d={path(chart.elevationM, y)} fill="none" stroke="#94a3b8" strokeWidth="1.5" />
      <path d={path(chart.virtualM, y)} fill="none" stroke="#2563eb" strokeWidth="1" />
      <line x1="0" x2={w} y1={yr(0)} y2={yr(0)} stroke="#e2e8f0" />
      <path d={path(chart.residualM, yr)} fill="none" stroke="#dc2626" strokeWidth="0.8" />
      <text x="4" y={h - 4} fontSize="10" fill="#475569">
        grey: measured elevation · blue: virtual elevation (calibrated) · red: residual (±
        {rMax.toFixed(1)} m)
      </text>
    </svg>
  )
}

const interval = (ci: [number, number], digits: number) =>
  ci.every(Number.isFinite) && ci[1] > ci[0]
    ? `95 %: ${ci.map((v) => v.toFixed(digits)).join('–')}`
    : null

/** A calibration by the virtual-elevation fit: values, what it assumed, how well it fits. */
function VeResult({
  fit,
  onApply,
}: {
  fit: VeCalibration
  onApply(values: RideCalibrationValues): void
}) {
  const cdaCi = interval(fit.cdaM2.ci95, 3)
  const crrCi = interval(fit.crr.ci95, 4)
  return (
    <div className="space-y-2" data-testid="ride-calibration">
      <p className="text-slate-700" data-testid="ride-calibration-model">
        {fit.note}
      </p>
      <p>
        CdA <strong>{fit.cdaM2.value.toFixed(3)} m²</strong>
        {cdaCi ? ` (${cdaCi})` : ''}, Crr <strong>{fit.crr.value.toFixed(4)}</strong>
        {crrCi ? ` (${crrCi})` : ' (held: this ride cannot separate it from CdA)'}.
      </p>
      <p className="text-slate-700">
        {(fit.durationS / 60).toFixed(1)} min of ride, {fit.samplesUsed} samples used; the virtual
        elevation with these values stays within {fit.rmseM.toFixed(2)} m (RMS) of the{' '}
        {fit.model === 'elevation' ? 'recorded elevation' : 'flat ground'}.
      </p>
      <Warnings warnings={fit.warnings} />
      <Button
        variant="secondary"
        onClick={() => onApply({ cdaM2: fit.cdaM2.value, crr: fit.crr.value })}
      >
        Use this CdA (both positions) and Crr
      </Button>
    </div>
  )
}

function CourseCalibrationResult({
  outcome,
  onApply,
}: {
  outcome: Extract<CalibrationOutcome, { kind: 'course' }>
  onApply(values: RideCalibrationValues): void
}) {
  const r = outcome.report
  const excluded = Object.entries(r.excluded)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${REASONS[k] ?? k} ${n}`)
    .join(', ')
  return (
    <div className="space-y-2" data-testid="ride-calibration">
      <div className="text-slate-700" data-testid="ride-calibration-weather">
        <MessageDetails
          tone="info"
          message={
            outcome.weatherNote +
            (r.weather
              ? ` — wind ${(r.weather.windSpeedMps * 3.6).toFixed(1)} km/h at rider height from ${r.weather.windFromDeg.toFixed(0)}°, ${r.weather.temperatureC.toFixed(1)} °C, ${(r.weather.pressurePa / 100).toFixed(0)} hPa, ${(r.weather.relativeHumidity * 100).toFixed(0)} % humidity (mean over the ride).`
              : '')
          }
          detail={outcome.weatherDetail}
        />
      </div>
      <p>
        CdA <strong>{r.cdaM2.value.toFixed(3)} m²</strong> (95 %:{' '}
        {r.cdaM2.ci95.map((v) => v.toFixed(3)).join('–')}), Crr{' '}
        <strong>{r.crr.value.toFixed(4)}</strong>
        {r.crrFixed
          ? ' (held: this ride cannot separate it from CdA)'
          : ` (95 %: ${r.crr.ci95.map((v) => v.toFixed(4)).join('–')})`}
        {r.wind
          ? `, wind ${(r.wind.speedMps.value * 3.6).toFixed(1)} km/h from ${r.wind.fromDeg.toFixed(0)}°`
          : ''}
        .
      </p>
      <p className="text-slate-700">
        Replay with these values: {(r.replay.predictedTimeS / 60).toFixed(1)} min against{' '}
        {(r.replay.recordedTimeS / 60).toFixed(1)} min ridden ({r.replay.errorPct.toFixed(1)} %).
        The energy balance alone gave CdA {r.energyFit.cdaM2.toFixed(3)} m² and Crr{' '}
        {r.energyFit.crr.toFixed(4)} (×
        {r.closureFactor.toFixed(2)} to ride the recorded time). {r.samplesUsed} samples used
        {excluded ? `; left out: ${excluded}` : ''}.
      </p>
      <Warnings warnings={r.warnings} />
      <ResidualChart chart={r.chart} />
      <Button
        variant="secondary"
        onClick={() => onApply({ cdaM2: r.cdaM2.value, crr: r.crr.value })}
      >
        Use this CdA (both positions) and Crr
      </Button>
    </div>
  )
}

/** What the calibration warns about (nothing when it has no warning). */
function Warnings({ warnings }: { warnings: readonly string[] }) {
  if (warnings.length === 0) return null
  return (
    <ul className="list-disc pl-5 text-amber-800">
      {warnings.map((w) => (
        <li key={w}>{w}</li>
      ))}
    </ul>
  )
}

export function RideCalibrationPanel({
  rider,
  onApply,
}: {
  rider: CalibrationRider
  onApply(values: RideCalibrationValues): void
}) {
  const [temperature, setTemperature] = useState('20')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<{ message: string; detail?: string } | null>(null)
  const [useHistory, setUseHistory] = useState(true)
  const [result, setResult] = useState<CalibrationOutcome | null>(null)
  const temperatureC = Number(temperature)
  const ready =
    rider.massKg > 0 &&
    rider.bikeMassKg > 0 &&
    rider.efficiency > 0 &&
    temperature.trim() !== '' &&
    temperatureC >= -30 &&
    temperatureC <= 50

  async function run(file: File) {
    setBusy(true)
    setError(null)
    setResult(null)
    try {
      setResult(await calibrateFile(file, rider, temperatureC, useHistory))
    } catch (e) {
      if (e instanceof CalibrationRefusal) setError({ message: e.message })
      else if (e instanceof Error && e.name === 'EngineInputError')
        setError({ message: `This ride cannot be calibrated: ${calibrationMessage(e.message)}.` })
      else setError(humanError(e, 'The calibration failed on this file.'))
    } finally {
      setBusy(false)
    }
  }

  const ve = result?.kind === 've' ? result.fit : null
  return (
    <details className="mt-3 rounded-md bg-slate-50 p-3 ring-1 ring-slate-200">
      <summary className="cursor-pointer text-sm font-medium text-slate-800">
        Calibrate CdA and Crr from a ride
      </summary>
      <div className="mt-3 space-y-3 text-sm">
        <p className="text-slate-700">
          A ride you recorded with a power meter and the masses above: the energy balance over the
          moving parts gives your effective CdA and Crr (and the day’s wind, or the wind and air of
          its place and hours from the weather archive when the file has GPS and times), leaving out
          stops, braking, fast descents and stretches in a draft; the level is then set so that
          replaying the ride with its own power rides its recorded time. A ride without GPS or
          elevation (a velodrome) is calibrated on a flat track or road.
        </p>
        <p className="text-slate-700" id="calibration-formats">
          Accepted files: {CALIBRATION_FORMATS}.
        </p>
        <div className="flex flex-wrap items-end gap-3">
          <div className="w-40">
            <Field
              label="Air temperature"
              unit="°C"
              value={temperature}
              onChange={setTemperature}
              error={
                temperature.trim() !== '' && !(temperatureC >= -30 && temperatureC <= 50)
                  ? `From −30 to 50 °C (got ${temperature}).`
                  : undefined
              }
            />
          </div>
          <label className="flex items-center gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              checked={useHistory}
              onChange={(e) => setUseHistory(e.target.checked)}
            />
            Use the ride’s historical weather (wind, air)
          </label>
          <label className="text-sm text-slate-700">
            <span className="block font-medium">Ride file</span>
            <input
              type="file"
              accept={CALIBRATION_ACCEPT}
              disabled={!ready || busy}
              aria-label="Ride file to calibrate from"
              aria-describedby="calibration-formats"
              onChange={(e) => {
                const f = e.target.files?.[0]
                if (f) void run(f)
              }}
            />
          </label>
        </div>
        {!ready ? (
          <p className="text-slate-500">
            Enter the rider and bike masses and the efficiency first.
          </p>
        ) : null}
        {error ? <MessageDetails {...error} testId="ride-calibration-error" /> : null}
        <div aria-live="polite">
          {busy ? <p className="text-slate-600">Calibrating…</p> : null}
          {ve ? <VeResult fit={ve} onApply={onApply} /> : null}
          {result?.kind === 'course' ? (
            <CourseCalibrationResult outcome={result} onApply={onApply} />
          ) : null}
        </div>
      </div>
    </details>
  )
}

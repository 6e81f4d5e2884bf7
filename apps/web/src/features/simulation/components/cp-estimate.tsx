// "Don't know your CP and W′?": CP and W′ from two or three maximal efforts (the engine's
// Monod & Scherrer fit), or CP from an FTP with the conversion stated. The result goes into the
// setup's CP and W′ fields only when the user applies it.
import { useState } from 'react'
import { criticalPowerFromEfforts, type CriticalPowerFit } from '@veloptima/engine'
import { Field } from '../../../components/form.tsx'
import { Button } from './ui.tsx'

type Effort = { minutes: string; power: string }

/** W′ assumed with an FTP when none is entered (J): typical of trained cyclists. */
export const FTP_W_PRIME_J = 20000

export type CpEstimate = { cpW: number; wPrimeJ: number | null }

function fitOf(efforts: Effort[]): { fit: CriticalPowerFit | null; error: string | null } {
  const filled = efforts.filter((e) => e.minutes.trim() !== '' || e.power.trim() !== '')
  if (filled.length < 2) return { fit: null, error: null }
  try {
    const fit = criticalPowerFromEfforts(
      filled.map((e) => ({ powerW: Number(e.power), durationS: Number(e.minutes) * 60 })),
    )
    return { fit, error: null }
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error)
    return { fit: null, error: readable(text) }
  }
}

/** The engine's field-named message in the form's words (effort numbers from 1, minutes). */
function readable(message: string): string {
  return message
    .replace(
      /efforts\[(\d+)\]\.duration_s: expected a number ≥ 60 and ≤ 3600, got (\S+)/,
      (_m, i, s) =>
        `Effort ${Number(i) + 1}: the duration must be 1 to 60 minutes (got ${Number(s) / 60} min).`,
    )
    .replace(
      /efforts\[(\d+)\]\.power_w: expected a number > 0 and ≤ 3000, got (\S+)/,
      (_m, i, p) =>
        `Effort ${Number(i) + 1}: the power must be above 0 and at most 3000 W (got ${p}).`,
    )
    .replace(/^efforts: /, '')
}

export function CpEstimatePanel({ onApply }: { onApply(estimate: CpEstimate): void }) {
  const [efforts, setEfforts] = useState<Effort[]>([
    { minutes: '3', power: '' },
    { minutes: '12', power: '' },
    { minutes: '', power: '' },
  ])
  const [ftp, setFtp] = useState('')
  const { fit, error } = fitOf(efforts)
  const ftpW = Number(ftp)
  const ftpError =
    ftp.trim() !== '' && !(ftpW > 0 && ftpW <= 1000)
      ? `FTP must be above 0 and at most 1000 W (got ${ftp}).`
      : undefined
  const setEffort = (i: number, key: keyof Effort, value: string) =>
    setEfforts((list) => list.map((e, k) => (k === i ? { ...e, [key]: value } : e)))

  return (
    <details className="rounded-md bg-slate-50 p-3 ring-1 ring-slate-200 sm:col-span-2">
      <summary className="cursor-pointer text-sm font-medium text-slate-800">
        Don’t know your CP and W′? Estimate them
      </summary>
      <div className="mt-3 space-y-4">
        <div>
          <p className="text-sm text-slate-700">
            From two or three all-out efforts of different lengths (best between 2 and 20 minutes,
            e.g. 3 and 12 minutes, on separate days or well rested): average power and duration of
            each. Work is linear in duration (Monod &amp; Scherrer 1965): CP is the slope, W′ the
            intercept.
          </p>
          <div className="mt-2 grid grid-cols-2 gap-3 sm:grid-cols-3">
            {efforts.map((e, i) => (
              <div key={i} className="space-y-2">
                <Field
                  label={`Effort ${i + 1} duration`}
                  unit="min"
                  value={e.minutes}
                  onChange={(v) => setEffort(i, 'minutes', v)}
                />
                <Field
                  label={`Effort ${i + 1} power`}
                  unit="W"
                  value={e.power}
                  onChange={(v) => setEffort(i, 'power', v)}
                />
              </div>
            ))}
          </div>
          <div className="mt-2 flex flex-wrap items-center gap-3 text-sm" aria-live="polite">
            {fit ? (
              <>
                <span data-testid="cp-fit">
                  CP {fit.cpW.toFixed(0)} W, W′ {(fit.wPrimeJ / 1000).toFixed(1)} kJ
                  {fit.maxResidualJ > 0.5
                    ? ` (largest gap to the line ${(fit.maxResidualJ / 1000).toFixed(1)} kJ)`
                    : ''}
                </span>
                <Button
                  variant="secondary"
                  onClick={() => onApply({ cpW: fit.cpW, wPrimeJ: fit.wPrimeJ })}
                >
                  Use CP and W′
                </Button>
              </>
            ) : error ? (
              <span className="text-red-600">{error}</span>
            ) : (
              <span className="text-slate-500">Enter at least two efforts.</span>
            )}
          </div>
        </div>
        <div>
          <p className="text-sm text-slate-700">
            From an FTP (your best power for about an hour): we take CP = FTP, and W′ ={' '}
            {FTP_W_PRIME_J / 1000} kJ, typical of trained cyclists, unless you entered your own. A
            rough conversion: the efforts above are better.
          </p>
          <div className="mt-2 flex flex-wrap items-end gap-3">
            <div className="w-40">
              <Field label="FTP" unit="W" value={ftp} onChange={setFtp} error={ftpError} />
            </div>
            <Button
              variant="secondary"
              disabled={!(ftpW > 0) || ftpError !== undefined}
              onClick={() => onApply({ cpW: ftpW, wPrimeJ: null })}
            >
              Use FTP as CP
            </Button>
          </div>
        </div>
      </div>
    </details>
  )
}

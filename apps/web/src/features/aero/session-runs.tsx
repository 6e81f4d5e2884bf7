// The aero session's runs table (configuration, method, CdA ± interval, Crr, ΔCdA, W and s
// saved, verdict) and the comparison summary: the baseline, its drift, and one row per
// configuration.
import type { AeroAnalysisVersion, AeroRun, AeroRunResults } from '@veloptima/contracts'
import type { AeroComparison } from '@veloptima/engine'
import { formatQuantity, useUnits, type UnitSystem } from '../../lib/units.ts'
import { Stat, TableHead } from './session-parts.tsx'

const signed = (x: number, digits: number) =>
  `${x > 0 ? '+' : x < 0 ? '−' : '±'}${Math.abs(x).toFixed(digits)}`

function Verdict({ verdict }: { verdict: string | null | undefined }) {
  if (verdict === 'faster')
    return (
      <span className="rounded-full bg-green-100 px-2 py-0.5 text-xs font-semibold text-green-800">
        Faster
      </span>
    )
  if (verdict === 'slower')
    return (
      <span className="rounded-full bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-800">
        Slower
      </span>
    )
  if (verdict === 'no_difference')
    return <span className="text-xs whitespace-nowrap text-slate-500">Within noise</span>
  return <>—</>
}

export function RunsTable({
  runs,
  onBaseline,
  pending,
}: {
  runs: AeroRun[]
  onBaseline(id: string): void
  pending: boolean
}) {
  const { system } = useUnits()
  return (
    <div className="overflow-x-auto rounded-2xl bg-white ring-1 ring-slate-200">
      <table className="w-full text-left text-sm [&_td]:px-2 [&_th]:px-2" data-testid="runs-table">
        <TableHead
          columns={[
            'Run',
            'Configuration',
            'CdA (m²) ± 95 %',
            'Crr',
            'ΔCdA (m²)',
            'W saved',
            's / 40 km',
            'Verdict',
            'Baseline',
          ]}
          nowrap
        />
        <tbody className="divide-y divide-slate-100">
          {runs.map((r) => {
            const x = r.results as unknown as AeroRunResults | null
            const half = x ? (x.cda_ci95[1] - x.cda_ci95[0]) / 2 : 0
            return (
              <tr key={r.id}>
                <td className="px-3 py-2 font-medium whitespace-nowrap text-slate-900">{r.name}</td>
                <td className="px-3 py-2 text-slate-600">
                  {Object.entries(r.configuration)
                    .map(([k, v]) => (k === 'setup' ? v : `${k}: ${v}`))
                    .join(', ') || '—'}
                </td>
                <td
                  className="px-3 py-2 whitespace-nowrap text-slate-900 tabular-nums"
                  title={
                    x
                      ? `95 % interval ${x.cda_ci95[0].toFixed(4)}–${x.cda_ci95[1].toFixed(4)}`
                      : undefined
                  }
                >
                  {x ? (
                    <>
                      <span className="block">{`${x.cda.toFixed(3)} ± ${half.toFixed(3)}`}</span>
                      <span className="block text-xs text-slate-500">
                        {x.method === 've' ? 'virtual elevation' : 'direct (air speed)'}
                      </span>
                    </>
                  ) : (
                    'not analysed'
                  )}
                </td>
                <td className="px-3 py-2 text-slate-600 tabular-nums">
                  {x ? x.crr.toFixed(4) : '—'}
                </td>
                <td className="px-3 py-2 whitespace-nowrap tabular-nums">
                  {x?.delta_cda != null && !r.is_baseline ? (
                    <>
                      <span className="block">{signed(x.delta_cda, 3)}</span>
                      {x.delta_cda_ci95 ? (
                        <span className="block text-xs text-slate-500">
                          [{signed(x.delta_cda_ci95[0], 3)}, {signed(x.delta_cda_ci95[1], 3)}]
                        </span>
                      ) : null}
                    </>
                  ) : (
                    '—'
                  )}
                </td>
                <td className="px-3 py-2 tabular-nums">
                  {x?.watts_saved != null && !r.is_baseline ? signed(x.watts_saved, 1) : '—'}
                </td>
                <td className="px-3 py-2 tabular-nums">
                  {x?.seconds_per_40km != null && !r.is_baseline
                    ? signed(x.seconds_per_40km, 1)
                    : '—'}
                </td>
                <td className="px-3 py-2">
                  <Verdict verdict={x?.verdict} />
                </td>
                <td className="px-3 py-2">
                  {r.is_baseline ? (
                    <span className="rounded-full bg-slate-900 px-2 py-0.5 text-xs font-semibold text-white">
                      Baseline
                    </span>
                  ) : (
                    <button
                      type="button"
                      disabled={pending}
                      onClick={() => onBaseline(r.id)}
                      className="text-xs font-semibold whitespace-nowrap text-brand-700 hover:underline disabled:opacity-50"
                    >
                      Set baseline
                    </button>
                  )}
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
      <ComparisonNote system={system} />
    </div>
  )
}

function ComparisonNote({ system }: { system: UnitSystem }) {
  return (
    <p className="border-t border-slate-100 px-3 py-2 text-xs text-slate-500">
      ΔCdA against the baseline, corrected for the baseline&apos;s drift in time; positive W and s
      are savings. A verdict only when the 95 % interval of ΔCdA excludes zero. Speeds and masses in{' '}
      {system === 'metric' ? 'metric' : 'imperial'} units (Quick settings).
    </p>
  )
}

export function ComparisonSummary({ analysis }: { analysis: AeroAnalysisVersion }) {
  const { system } = useUnits()
  const c = analysis.summary?.comparison as AeroComparison | null | undefined
  if (!c) return null
  return (
    <>
      <ComparisonStats comparison={c} system={system} />
      {(c.configurations ?? []).length > 0 ? (
        <ConfigurationTable comparison={c} system={system} />
      ) : null}
    </>
  )
}

function ComparisonStats({
  comparison: c,
  system,
}: {
  comparison: AeroComparison
  system: UnitSystem
}) {
  return (
    <dl className="mt-4 grid gap-3 sm:grid-cols-4" data-testid="comparison-summary">
      <Stat label="Baseline" value={c.baseline || 'unlabelled'} />
      <Stat label="Baseline CdA" value={`${c.baselineCda.toFixed(3)} m²`} />
      <Stat
        label="Drift of the baseline"
        value={`${signed(c.driftPerHour * 1000, 1)} ×10⁻³ m²/h`}
      />
      <Stat
        label="Reference"
        value={`${formatQuantity('speed', c.referenceSpeedMps, system, 0)} · ${Math.round(c.referencePowerW)} W`}
      />
    </dl>
  )
}

/**
 * One row per configuration against the baseline (the engine's comparison: drift-corrected mean
 * CdA of its runs, ΔCdA with its 95 % interval, W saved at the reference speed, s per 40 km at
 * the reference power, a verdict only when the interval excludes zero), instead of reading the
 * configuration's ΔCdA off each of its runs.
 */
function ConfigurationTable({
  comparison: c,
  system,
}: {
  comparison: AeroComparison
  system: UnitSystem
}) {
  const speed = formatQuantity('speed', c.referenceSpeedMps, system, 0)
  const heads = [
    'Configuration',
    'Runs',
    'CdA (m²)',
    'ΔCdA (m²) [95 %]',
    'Δ %',
    `W saved at ${speed}`,
    `s / 40 km at ${Math.round(c.referencePowerW)} W`,
    'Verdict',
  ]
  return (
    <div className="mt-4 overflow-x-auto rounded-2xl bg-white ring-1 ring-slate-200">
      <table className="w-full text-left text-sm" data-testid="configuration-summary">
        <caption className="px-3 pt-3 text-left text-sm font-semibold text-slate-900">
          Each configuration against the baseline ({c.baseline || 'unlabelled'})
        </caption>
        <TableHead columns={heads} nowrap />
        <tbody className="divide-y divide-slate-100">
          {c.configurations.map((k) => (
            <tr key={k.configuration}>
              <td className="px-3 py-2 font-medium text-slate-900">
                {k.configuration || 'unlabelled'}
              </td>
              <td className="px-3 py-2 tabular-nums">{k.runs.length}</td>
              <td className="px-3 py-2 tabular-nums">{k.cda.toFixed(3)}</td>
              <td className="px-3 py-2 whitespace-nowrap tabular-nums">
                {`${signed(k.deltaCda, 3)} [${signed(k.deltaCdaCi95[0], 3)}, ${signed(k.deltaCdaCi95[1], 3)}]`}
              </td>
              <td className="px-3 py-2 tabular-nums">{signed(k.deltaPercent, 1)}</td>
              <td className="px-3 py-2 tabular-nums">{signed(k.wattsSaved, 1)}</td>
              <td className="px-3 py-2 tabular-nums">{signed(k.secondsPer40km, 1)}</td>
              <td className="px-3 py-2">
                <Verdict verdict={k.verdict} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

// The aero session's runs table (configuration, method, CdA ± interval, Crr, ΔCdA, W and s
// saved, verdict) and the comparison summary: the baseline, its drift, and one row per
// configuration.
import type {
  AeroAnalysisVersion,
  AeroRun,
  AeroRunResults,
  CrrByTyreJson,
} from '@veloptima/contracts'
import { CRR_RANGE, type AeroComparison, type AeroPlan } from '@veloptima/engine'
import { formatQuantity, useUnits, type UnitSystem } from '../../lib/units.ts'
import { Stat, TableHead } from './session-parts.tsx'
import { ScrollRegion } from '../../components/scroll-region.tsx'

const signed = (x: number, digits: number) =>
  `${x > 0 ? '+' : x < 0 ? '−' : '±'}${Math.abs(x).toFixed(digits)}`

/** A stored number: JSON turns the engine's NaN (withheld) into null. */
const isNum = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x)

type Withheld = { field: string; reason: string }

/** Why a field is withheld, from the run's or the configuration's list. */
const reasonOf = (list: Withheld[] | undefined, ...fields: string[]) =>
  list?.find((w) => fields.includes(w.field))?.reason

/** A figure that is withheld: a dash, and the reason (visible to screen readers and on hover). */
function WithheldText({ reason, label = 'withheld' }: { reason?: string; label?: string }) {
  return (
    <span className="text-xs text-slate-500" title={reason} data-testid="withheld">
      {label}
      {reason ? <span className="sr-only">: {reason}</span> : null}
    </span>
  )
}

/** The samples the fit left out of the run, by reason (nothing when none). */
function LeftOut({ x }: { x: AeroRunResults }) {
  const e = x.excluded_samples
  if (!e) return null
  const parts = [
    e.braking > 0 ? `${e.braking} braking` : '',
    e.stop > 0 ? `${e.stop} stopped or in a gap` : '',
    e.freewheel > 0 ? `${e.freewheel} freewheeling` : '',
  ].filter(Boolean)
  if (parts.length === 0) return null
  return (
    <span className="block text-xs whitespace-normal text-slate-500" data-testid="left-out">
      left out (samples): {parts.join(', ')}
    </span>
  )
}

function Verdict({ verdict, reason }: { verdict: string | null | undefined; reason?: string }) {
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
  if (verdict === 'withheld') return <WithheldText label="No verdict" reason={reason} />
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
    <ScrollRegion
      className="overflow-x-auto rounded-2xl bg-white ring-1 ring-slate-200"
      label="Runs (scrolls sideways)"
    >
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
            const ci =
              x?.cda_ci95 && isNum(x.cda_ci95[0]) && isNum(x.cda_ci95[1]) ? x.cda_ci95 : null
            const cdaReason = reasonOf(x?.withheld, 'cda')
            const ciReason = reasonOf(x?.withheld, 'cda_ci95')
            // A run without a CdA (a recovery, a turnaround, no fit) is out of the comparison:
            // greyed, never the baseline.
            const outside = x != null && !isNum(x.cda)
            return (
              <tr
                key={r.id}
                data-testid="run-row"
                data-compared={outside ? 'no' : 'yes'}
                className={outside ? 'bg-slate-50 text-slate-500' : undefined}
              >
                <td className="px-3 py-2 font-medium whitespace-nowrap text-slate-900">{r.name}</td>
                <td className="px-3 py-2 text-slate-600">
                  {Object.entries(r.configuration)
                    .map(([k, v]) => (k === 'setup' ? v : `${k}: ${v}`))
                    .join(', ') || '—'}
                </td>
                <td
                  className="px-3 py-2 whitespace-nowrap text-slate-900 tabular-nums"
                  title={ci ? `95 % interval ${ci[0].toFixed(4)}–${ci[1].toFixed(4)}` : ciReason}
                >
                  {!x ? (
                    'not analysed'
                  ) : !isNum(x.cda) ? (
                    <WithheldText label="no CdA" reason={cdaReason} />
                  ) : (
                    <>
                      <span className="block">
                        {ci
                          ? `${x.cda.toFixed(3)} ± ${((ci[1] - ci[0]) / 2).toFixed(3)}`
                          : x.cda.toFixed(3)}
                      </span>
                      {ci ? null : <WithheldText label="no interval" reason={ciReason} />}
                      <span className="block text-xs text-slate-500">
                        {x.method === 've' ? 'virtual elevation' : 'direct (air speed)'}
                      </span>
                    </>
                  )}
                  {x ? <LeftOut x={x} /> : null}
                </td>
                <td className="px-3 py-2 text-slate-600 tabular-nums">
                  {x && isNum(x.crr) ? x.crr.toFixed(4) : '—'}
                </td>
                <td className="px-3 py-2 whitespace-nowrap tabular-nums">
                  {isNum(x?.delta_cda) && !r.is_baseline ? (
                    <>
                      <span className="block">{signed(x.delta_cda, 3)}</span>
                      {x.delta_cda_ci95 && isNum(x.delta_cda_ci95[0]) ? (
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
                  {isNum(x?.watts_saved) && !r.is_baseline ? signed(x.watts_saved, 1) : '—'}
                </td>
                <td className="px-3 py-2 tabular-nums">
                  {isNum(x?.seconds_per_40km) && !r.is_baseline
                    ? signed(x.seconds_per_40km, 1)
                    : '—'}
                </td>
                <td className="px-3 py-2">
                  <Verdict
                    verdict={x?.verdict}
                    reason={reasonOf(x?.withheld, 'delta_cda', 'delta_cda_ci95', 'verdict')}
                  />
                </td>
                <td className="px-3 py-2">
                  {outside ? (
                    <WithheldText label="not compared" reason={cdaReason} />
                  ) : r.is_baseline ? (
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
    </ScrollRegion>
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

/**
 * The laps not taken as runs (recoveries, coast-downs, turnarounds), greyed, each with the
 * reason; "Add run" with the lap takes one back in.
 */
export function SkippedLaps({ analysis }: { analysis: AeroAnalysisVersion }) {
  const laps = analysis.summary?.skipped_laps ?? []
  if (laps.length === 0) return null
  return (
    <div
      className="rounded-2xl bg-slate-50 px-4 py-3 text-sm text-slate-600 ring-1 ring-slate-200"
      data-testid="skipped-laps"
    >
      <h3 className="font-semibold text-slate-700">
        Laps not taken as runs ({laps.length}): not compared
      </h3>
      <ul className="mt-1 space-y-0.5">
        {laps.map((l) => (
          <li key={`${l.file_id ?? ''}:${l.lap}`}>
            <span className="font-medium">{l.label}</span> — {l.reason}
          </li>
        ))}
      </ul>
      <p className="mt-1 text-xs text-slate-500">
        To compare one anyway, add it with Add run: choose Lap, its file and lap, and a
        configuration.
      </p>
    </div>
  )
}

export function ComparisonSummary({ analysis }: { analysis: AeroAnalysisVersion }) {
  const { system } = useUnits()
  const c = analysis.summary?.comparison as AeroComparison | null | undefined
  const plan = analysis.summary?.plan as AeroPlan | null | undefined
  if (!c) return null
  const tyres = analysis.summary?.crr_by_tyre ?? []
  return (
    <>
      <ComparisonStats comparison={c} system={system} />
      {tyres.length > 1 ? <CrrByTyre tyres={tyres} /> : null}
      {plan && plan.answers.length > 0 ? <PlanAnswers plan={plan} /> : null}
      {(c.configurations ?? []).length > 0 ? (
        <ConfigurationTable comparison={c} system={system} />
      ) : null}
    </>
  )
}

/** A tyre test: each tyre's Crr and how much harder or easier than the first tyres it rolls. */
function CrrByTyre({ tyres }: { tyres: CrrByTyreJson[] }) {
  const shown = (x: number) => Number.isFinite(x) && x >= CRR_RANGE[0] && x <= CRR_RANGE[1]
  const ci = (p: [number, number] | null) =>
    p && shown(p[0]) && shown(p[1])
      ? ` (95 %: ${p[0].toFixed(4)}–${p[1].toFixed(4)})`
      : ' (no interval)'
  const delta = (t: CrrByTyreJson) => {
    const p = t.delta_crr_ci95
    if (!p || !(Math.abs(p[0]) < 0.01 && Math.abs(p[1]) < 0.01)) return ''
    const sign = (x: number) => (x >= 0 ? '+' : '−') + Math.abs(x).toFixed(4)
    const verdict =
      p[0] > 0 ? 'rolls harder' : p[1] < 0 ? 'rolls easier' : 'no difference within the noise'
    return `; ${sign(t.delta_crr)} (95 %: ${sign(p[0])} to ${sign(p[1])}): ${verdict}`
  }
  return (
    <div
      className="mt-4 rounded-2xl bg-white px-4 py-3 ring-1 ring-slate-200"
      data-testid="crr-by-tyre"
    >
      <h3 className="text-sm font-semibold text-slate-900">Rolling resistance by tyre</h3>
      <ul className="mt-1 space-y-1 text-sm text-slate-700">
        {tyres.map((t, k) =>
          !shown(t.crr) ? (
            <li key={t.tyre}>{t.tyre}: no Crr (outside 0.0015–0.02)</li>
          ) : (
            <li key={t.tyre}>
              <span className="font-semibold">{t.tyre}</span>: Crr {t.crr.toFixed(4)}
              {ci(t.crr_ci95)}
              {k === 0 ? ' (the reference)' : delta(t)}
            </li>
          ),
        )}
      </ul>
    </div>
  )
}

/**
 * The test planner after this upload: per configuration "resolved: B is 0.006 ± 0.002 m² faster"
 * or how many more bracketed runs of both resolve the chosen ΔCdA.
 */
function PlanAnswers({ plan }: { plan: AeroPlan }) {
  return (
    <div
      className="mt-4 rounded-2xl bg-white px-4 py-3 ring-1 ring-slate-200"
      data-testid="plan-answer"
    >
      <h3 className="text-sm font-semibold text-slate-900">
        Test planner: resolving {plan.delta.toFixed(3)} m² with {Math.round(plan.power * 100)} %
        power
      </h3>
      <ul className="mt-1 space-y-1 text-sm text-slate-700">
        {plan.answers.map((a) => (
          <li key={a.configuration}>
            <span
              className={
                a.status === 'resolved'
                  ? 'font-semibold text-green-800'
                  : 'font-semibold text-amber-800'
              }
            >
              {a.configuration || 'unlabelled'}:
            </span>{' '}
            {a.text}
          </li>
        ))}
      </ul>
      <p className="mt-1 text-xs text-slate-500">
        Runs per configuration n = 2·(z₀.₉₇₅ + z₀.₈₀)²·σ²/Δ² with σ = {plan.runSd.toFixed(3)} m²,
        the run-to-run scatter{' '}
        {plan.runSdSource === 'session_fit'
          ? 'as this session’s joint fit gives it'
          : plan.runSdSource === 'session'
            ? 'of this session’s repeats'
            : 'assumed (no repeats yet)'}
        : {plan.runsPerConfiguration} each.
      </p>
    </div>
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
      <Stat
        label="Baseline CdA"
        value={isNum(c.baselineCda) ? `${c.baselineCda.toFixed(3)} m²` : <WithheldText />}
      />
      <Stat
        label="Drift of the baseline"
        value={
          isNum(c.driftPerHour) ? (
            `${signed(c.driftPerHour * 1000, 1)} ×10⁻³ m²/h`
          ) : (
            <WithheldText label="not estimated" reason={c.driftNote ?? undefined} />
          )
        }
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
    <ScrollRegion
      className="mt-4 overflow-x-auto rounded-2xl bg-white ring-1 ring-slate-200"
      label="Configurations against the baseline (scrolls sideways)"
    >
      <table className="w-full text-left text-sm" data-testid="configuration-summary">
        <caption className="px-3 pt-3 text-left text-sm font-semibold text-slate-900">
          Each configuration against the baseline ({c.baseline || 'unlabelled'})
        </caption>
        <TableHead columns={heads} nowrap />
        <tbody className="divide-y divide-slate-100">
          {c.configurations.map((k) => {
            const why = (...f: string[]) => reasonOf(k.withheld, ...f)
            const ci = isNum(k.deltaCdaCi95?.[0]) && isNum(k.deltaCdaCi95?.[1])
            return (
              <tr key={k.configuration} data-testid="configuration-row">
                <td className="px-3 py-2 font-medium text-slate-900">
                  {k.configuration || 'unlabelled'}
                  {(k.notes ?? []).map((n) => (
                    <span key={n} className="block text-xs font-normal text-amber-800">
                      {n}
                    </span>
                  ))}
                </td>
                <td className="px-3 py-2 tabular-nums">{k.runs.length}</td>
                <td className="px-3 py-2 tabular-nums">
                  {isNum(k.cda) ? k.cda.toFixed(3) : <WithheldText reason={why('cda')} />}
                </td>
                <td className="px-3 py-2 whitespace-nowrap tabular-nums">
                  {!isNum(k.deltaCda) ? (
                    <WithheldText reason={why('delta_cda')} />
                  ) : ci ? (
                    `${signed(k.deltaCda, 3)} [${signed(k.deltaCdaCi95[0], 3)}, ${signed(k.deltaCdaCi95[1], 3)}]`
                  ) : (
                    <>
                      {signed(k.deltaCda, 3)}{' '}
                      <WithheldText label="no interval" reason={why('delta_cda_ci95')} />
                    </>
                  )}
                </td>
                <td className="px-3 py-2 tabular-nums">
                  {isNum(k.deltaPercent) ? signed(k.deltaPercent, 1) : '—'}
                </td>
                <td className="px-3 py-2 tabular-nums">
                  {isNum(k.wattsSaved) ? (
                    signed(k.wattsSaved, 1)
                  ) : (
                    <WithheldText reason={why('watts_saved')} />
                  )}
                </td>
                <td className="px-3 py-2 tabular-nums">
                  {isNum(k.secondsPer40km) ? (
                    signed(k.secondsPer40km, 1)
                  ) : (
                    <WithheldText reason={why('seconds_per_40km')} />
                  )}
                </td>
                <td className="px-3 py-2">
                  <Verdict
                    verdict={k.verdict}
                    reason={why('delta_cda', 'delta_cda_ci95', 'verdict')}
                  />
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
      <BasisNote comparison={c} />
    </ScrollRegion>
  )
}

/** Where the rows' ΔCdA and interval come from: the session fitted as a whole, or each run. */
function BasisNote({ comparison: c }: { comparison: AeroComparison }) {
  const joint = c.configurations.find((k) => k.basis === 'session_fit')
  const interval =
    joint?.interval === 'repeats'
      ? 'the interval from how the repeats scatter about it'
      : 'the interval a jackknife over the whole session'
  return (
    <p className="border-t border-slate-100 px-3 py-2 text-xs text-slate-500" data-testid="basis">
      {joint
        ? `From the session fit: every run fitted together, one CdA per configuration with one Crr and wind, ${interval}. Each run’s own CdA in the runs table is a diagnostic.`
        : 'From each run’s own CdA against the baseline at its time.'}
    </p>
  )
}

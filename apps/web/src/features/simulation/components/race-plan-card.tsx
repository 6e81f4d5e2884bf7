// The race plan of a pacing optimization (pages/optimization-page.tsx): how the ride lowers CP
// (heat, altitude), what the gut takes, and the rules the plan rides by (an easy start, coasting
// on steep descents and into braking points, a power cap on descents). Texts in the user's words;
// lib/race-plan-form.ts reads them into the stored inputs.
import { CheckboxField, Field, Select } from '../../../components/form.tsx'
import { unitLabel, type UnitSystem } from '../../../lib/units.ts'
import { Button, Card } from './ui.tsx'
import { GUT_TOLERANCES } from '../lib/race-plan-form.ts'
import { STRETCH_KINDS, type StretchRow } from '../lib/rule-stretch-form.ts'
import type { Bind, SetField } from './optimization-editor-cards.tsx'
import type { OptimizationForm } from '../lib/optimization-form.ts'

/** The gut tolerance's options: the engine's default, the usual rates, and a stored other one. */
function gutOptions(current: string) {
  const values: string[] = [...GUT_TOLERANCES]
  if (current && !values.includes(current)) values.push(current)
  return [
    { value: '', label: 'Default (the engine’s)' },
    ...values.map((v) => ({ value: v, label: `${v} g/h` })),
  ]
}

export function RacePlanCard({
  form,
  set,
  bind,
  errors,
  system,
}: {
  form: OptimizationForm
  set: SetField
  bind: Bind
  errors: Record<string, string>
  system: UnitSystem
}) {
  return (
    <Card title="Race plan">
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <CheckboxField
          label="Heat lowers CP"
          name="heatEffect"
          checked={form.heatEffect}
          onChange={(v) => set('heatEffect', v)}
        />
        <CheckboxField
          label="Altitude lowers CP"
          name="altitudeEffect"
          checked={form.altitudeEffect}
          onChange={(v) => set('altitudeEffect', v)}
        />
        <div className="sm:col-span-2">
          <Select
            label="Gut tolerance"
            name="gutTolerance"
            value={form.gutTolerance}
            onChange={(v) => set('gutTolerance', v)}
            options={gutOptions(form.gutTolerance)}
            hint="Carbohydrate you can take per hour (trained gut: 90–120 g/h)."
          />
        </div>
        <Field
          label="Easy start"
          unit="min"
          {...bind('easyStartMin')}
          hint="Ride the first minutes below a ceiling. Empty: no easy start."
        />
        <Field label="Easy start ceiling" unit="% of CP" {...bind('easyStartPct')} />
        <Field
          label="Coast on descents steeper than"
          unit="%"
          {...bind('coastSteeperPct')}
          hint="No pedalling where the road falls more steeply. Empty: pedal everywhere."
        />
        <CheckboxField
          label="Coast into braking points"
          name="coastBraking"
          checked={form.coastBraking}
          onChange={(v) => set('coastBraking', v)}
        />
        <Field
          label="Cap power on descents steeper than"
          unit="%"
          {...bind('descentCapPct')}
          hint="With the cap: at most that power there. Empty: no cap."
        />
        <Field label="Descent power cap" unit="W" {...bind('descentCapW')} />
      </div>
      <StretchRows
        rows={form.stretchRows}
        onChange={(rows) => set('stretchRows', rows)}
        errors={errors}
        system={system}
      />
    </Card>
  )
}

/** Stretches with a rule of their own: a feed zone, a neutral start, a climb at a set power. */
function StretchRows({
  rows,
  onChange,
  errors,
  system,
}: {
  rows: StretchRow[]
  onChange(rows: StretchRow[]): void
  errors: Record<string, string>
  system: UnitSystem
}) {
  const dist = unitLabel('distance', system)
  const setRow = (i: number, change: Partial<StretchRow>) =>
    onChange(rows.map((r, j) => (j === i ? { ...r, ...change } : r)))
  const valueUnit = (r: StretchRow) => (r.kind === 'max_speed' ? unitLabel('speed', system) : 'W')
  return (
    <fieldset className="mt-4 space-y-2" aria-label="Rule stretches">
      <legend className="text-sm font-medium text-slate-700">Stretches with their own rule</legend>
      <p className="text-xs text-slate-500">
        A feed zone ridden slowly, a neutral start, a climb at a set power: the plan rides the rest
        of the course around them.
      </p>
      {rows.map((r, i) => (
        <div key={i} className="rounded-md p-3 ring-1 ring-slate-200" data-testid="rule-stretch">
          <div className="mb-2 flex items-center justify-between">
            <p className="text-sm font-medium text-slate-700">Rule stretch {i + 1}</p>
            <button
              type="button"
              className="rounded-md px-2 py-1 text-xs font-semibold text-red-700 ring-1 ring-red-200 hover:bg-red-50"
              aria-label={`Remove rule stretch ${i + 1}`}
              onClick={() => onChange(rows.filter((_, j) => j !== i))}
            >
              Remove
            </button>
          </div>
          <div className="grid grid-cols-2 gap-2">
            <Field
              label={`Rule stretch ${i + 1} start`}
              unit={dist}
              value={r.start}
              onChange={(v) => setRow(i, { start: v })}
              error={errors[`stretch${i}.start`]}
            />
            <Field
              label={`Rule stretch ${i + 1} end`}
              unit={dist}
              value={r.end}
              onChange={(v) => setRow(i, { end: v })}
              error={errors[`stretch${i}.end`]}
            />
            <Select
              label={`Rule stretch ${i + 1} rule`}
              value={r.kind}
              onChange={(v) => setRow(i, { kind: v })}
              options={STRETCH_KINDS}
            />
            <Field
              label={`Rule stretch ${i + 1} value`}
              unit={valueUnit(r)}
              value={r.value}
              onChange={(v) => setRow(i, { value: v })}
              error={errors[`stretch${i}.value`]}
            />
            <div className="col-span-2">
              <Field
                label={`Rule stretch ${i + 1} name`}
                value={r.label}
                onChange={(v) => setRow(i, { label: v })}
              />
            </div>
          </div>
        </div>
      ))}
      <Button
        variant="secondary"
        onClick={() =>
          onChange([
            ...rows,
            { start: rows.at(-1)?.end ?? '0', end: '', kind: 'max_power', value: '', label: '' },
          ])
        }
      >
        Add a rule stretch
      </Button>
    </fieldset>
  )
}

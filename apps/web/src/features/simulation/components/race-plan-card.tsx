// The race plan of a pacing optimization (pages/optimization-page.tsx): how the ride lowers CP
// (heat, altitude), what the gut takes, and the rules the plan rides by (an easy start, coasting
// on steep descents and into braking points, a power cap on descents). Texts in the user's words;
// lib/race-plan-form.ts reads them into the stored inputs.
import { CheckboxField, Field, Select } from '../../../components/form.tsx'
import { Card } from './ui.tsx'
import { GUT_TOLERANCES } from '../lib/race-plan-form.ts'
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
}: {
  form: OptimizationForm
  set: SetField
  bind: Bind
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
    </Card>
  )
}

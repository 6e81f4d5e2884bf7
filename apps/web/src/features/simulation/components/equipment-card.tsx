// The equipment option groups of an optimization: per option a name, its drag (a constant ΔCdA or
// a wheel preset whose ΔCdA follows the yaw angle), Δ mass, Crr and the power the rider can hold
// with it (positions); the first option of a group is its baseline.
import { unitLabel, type UnitSystem } from '../../../lib/units.ts'
import {
  defaultWheelGroup,
  newOption,
  withWheelPreset,
  type GroupForm,
  type OptionForm,
} from '../lib/optimization-form.ts'
import { WHEEL_PRESETS, type WheelPreset } from '../lib/wheel-presets.ts'
import { Field, Select } from '../../../components/form.tsx'
import { Button, Card, ErrorBox } from './ui.tsx'

type Props = {
  groups: GroupForm[]
  errors: Record<string, string | undefined>
  system: UnitSystem
  onChange(update: (groups: GroupForm[]) => GroupForm[]): void
}

const CONSTANT = 'constant'
type DragChoice = { value: string; label: string }
const DRAG_CHOICES: DragChoice[] = [
  { value: CONSTANT, label: 'Constant Δ CdA' },
  ...WHEEL_PRESETS.map((p) => ({ value: p.value, label: `${p.label} (by yaw)` })),
]

export function EquipmentCard({ groups, errors, system, onChange }: Props) {
  const setGroup = (gi: number, change: (g: GroupForm) => GroupForm) =>
    onChange((list) => list.map((g, i) => (i === gi ? change(g) : g)))
  const setOption = (gi: number, oi: number, change: (o: OptionForm) => OptionForm) =>
    setGroup(gi, (g) => ({ ...g, options: g.options.map((o, j) => (j === oi ? change(o) : o)) }))

  return (
    <Card title="Equipment options">
      <p className="mb-3 text-xs text-slate-600">
        Each group is one choice (wheels, helmet, position…); every combination is ridden with its
        own optimal pacing. The first option of a group is its baseline. Wheel presets use our drag
        model by yaw angle against a 30 mm wheel (the setup’s CdA is taken with 30 mm wheels) and
        the wheels’ typical masses.
      </p>
      {errors.groups ? <ErrorBox>{errors.groups}</ErrorBox> : null}
      {groups.map((g, gi) => (
        <fieldset key={gi} className="mb-3 space-y-3 rounded-md p-3 ring-1 ring-slate-200">
          <legend className="px-1 text-sm font-medium">Group {gi + 1}</legend>
          <div className="flex flex-wrap items-end gap-3">
            <div className="min-w-48 flex-1">
              <Field
                label={`Group ${gi + 1} name`}
                inputMode="text"
                value={g.name}
                onChange={(v) => setGroup(gi, (x) => ({ ...x, name: v }))}
                error={errors[`g${gi}.name`]}
              />
            </div>
            <Button
              variant="danger"
              onClick={() => onChange((list) => list.filter((_, i) => i !== gi))}
            >
              Remove group {gi + 1}
            </Button>
          </div>
          {errors[`g${gi}`] ? <p className="text-xs text-red-600">{errors[`g${gi}`]}</p> : null}
          {g.options.map((o, oi) => (
            <div key={oi} className="grid grid-cols-2 gap-2 border-t border-slate-100 pt-2">
              <Field
                label={oi === 0 ? `Option ${oi + 1} (baseline)` : `Option ${oi + 1}`}
                inputMode="text"
                value={o.name}
                onChange={(v) => setOption(gi, oi, (x) => ({ ...x, name: v }))}
                error={errors[`g${gi}.o${oi}.name`]}
              />
              <Select
                label={`Option ${oi + 1} drag`}
                value={(o.wheel || (o.yawTable ? 'own' : CONSTANT)) as string}
                onChange={(v) =>
                  setOption(gi, oi, (x) =>
                    withWheelPreset(x, v === CONSTANT ? '' : (v as WheelPreset), system),
                  )
                }
                options={
                  o.yawTable
                    ? [...DRAG_CHOICES, { value: 'own', label: 'Own table by yaw' }]
                    : DRAG_CHOICES
                }
              />
              {o.wheel || o.yawTable ? (
                <p className="self-end pb-2 text-xs text-slate-600">Δ CdA from the yaw table</p>
              ) : (
                <Field
                  label={`Option ${oi + 1} Δ CdA`}
                  unit="m²"
                  value={o.cdaDelta}
                  onChange={(v) => setOption(gi, oi, (x) => ({ ...x, cdaDelta: v }))}
                  error={errors[`g${gi}.o${oi}.cda`]}
                />
              )}
              <Field
                label={`Option ${oi + 1} Δ mass`}
                unit={unitLabel('mass', system)}
                value={o.massDelta}
                onChange={(v) => setOption(gi, oi, (x) => ({ ...x, massDelta: v }))}
                error={errors[`g${gi}.o${oi}.mass`]}
              />
              <Field
                label={`Option ${oi + 1} Crr`}
                value={o.crr}
                hint={oi === 0 ? 'Empty: the setup’s tyres.' : undefined}
                onChange={(v) => setOption(gi, oi, (x) => ({ ...x, crr: v }))}
                error={errors[`g${gi}.o${oi}.crr`]}
              />
              <Field
                label={`Option ${oi + 1} power`}
                unit="%"
                value={o.powerPct}
                hint={oi === 0 ? 'Empty: 100 % (a position may cost power).' : undefined}
                onChange={(v) => setOption(gi, oi, (x) => ({ ...x, powerPct: v }))}
                error={errors[`g${gi}.o${oi}.power`]}
              />
              <div className="col-span-full flex gap-2">
                {oi > 0 ? (
                  <Button
                    variant="secondary"
                    onClick={() =>
                      setGroup(gi, (x) => ({
                        ...x,
                        options: [x.options[oi]!, ...x.options.filter((_, j) => j !== oi)],
                      }))
                    }
                  >
                    Make option {oi + 1} the baseline
                  </Button>
                ) : null}
                <Button
                  variant="danger"
                  onClick={() =>
                    setGroup(gi, (x) => ({ ...x, options: x.options.filter((_, j) => j !== oi) }))
                  }
                >
                  Remove option {oi + 1}
                </Button>
              </div>
            </div>
          ))}
          <Button
            variant="secondary"
            onClick={() => setGroup(gi, (x) => ({ ...x, options: [...x.options, newOption()] }))}
          >
            Add option
          </Button>
        </fieldset>
      ))}
      <Button
        variant="secondary"
        onClick={() => onChange((list) => [...list, { ...defaultWheelGroup(), name: '' }])}
      >
        Add option group
      </Button>
    </Card>
  )
}

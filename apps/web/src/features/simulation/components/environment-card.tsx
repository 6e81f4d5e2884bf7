// The optimization's conditions: temperature, air, the course-wide wind, wind per stretch of the
// course (replacing the course-wide wind there) and the event's date and start time.
import { unitLabel, type UnitSystem } from '../../../lib/units.ts'
import { compassPoint } from '../lib/format.ts'
import {
  temperatureUnit,
  windRowsFromSections,
  type OptimizationForm,
  type WindRowForm,
} from '../lib/optimization-form.ts'
import { Field, fieldBinder, Select } from '../../../components/form.tsx'
import { Button, Card } from './ui.tsx'

type SetForm = (change: (f: OptimizationForm) => OptimizationForm) => void

/** "from the NE" under a direction in degrees (empty while it is not a number). */
function compassHint(text: string): string | undefined {
  const v = Number(text.trim().replace(',', '.'))
  if (text.trim() === '' || !Number.isFinite(v) || v < 0 || v > 360) return undefined
  return `From the ${compassPoint(v)}.`
}

/** What the card and its wind stretches are given. */
type EnvironmentProps = {
  form: OptimizationForm
  setForm: SetForm
  errors: Record<string, string>
  system: UnitSystem
  /** The selected course's sections (to fill the wind rows from), null without a course. */
  sections: readonly { start_m: number; end_m: number }[] | null
}

export function EnvironmentCard({ form, setForm, errors, system, sections }: EnvironmentProps) {
  const set = <K extends keyof OptimizationForm>(k: K, v: OptimizationForm[K]) =>
    setForm((f) => ({ ...f, [k]: v }))
  const bind = fieldBinder(form, set, errors)
  const speed = unitLabel('speed', system)
  return (
    <Card title="Environment">
      <div className="grid grid-cols-2 gap-3">
        <div className="col-span-2">
          <Field
            label="Event date and start time"
            type="datetime-local"
            {...bind('eventStart')}
            hint="Local time at the course: the plan shows the clock time at each section."
          />
        </div>
        <Field label="Temperature" unit={temperatureUnit(system)} {...bind('temperature')} />
        <Select
          label="Air given by"
          value={form.airMode}
          onChange={(v) => set('airMode', v)}
          options={[
            { value: 'altitude', label: 'Altitude (standard pressure)' },
            { value: 'pressure', label: 'Station pressure' },
          ]}
        />
        {form.airMode === 'pressure' ? (
          <Field label="Air pressure" unit="hPa" {...bind('pressureHpa')} />
        ) : (
          <Field
            label="Altitude"
            unit={unitLabel('elevation', system)}
            {...bind('altitude')}
            hint="Empty: the course's own altitude."
          />
        )}
        <div />
        <Field
          label="Wind speed"
          unit={speed}
          {...bind('windSpeed')}
          hint={form.windRows.length > 0 ? 'Outside the stretches below.' : undefined}
        />
        <Field
          label="Wind from"
          unit="° from north"
          {...bind('windFrom')}
          hint={compassHint(form.windFrom)}
        />
      </div>
      <WindStretches
        form={form}
        setForm={setForm}
        errors={errors}
        system={system}
        sections={sections}
      />
    </Card>
  )
}

function WindStretches({ form, setForm, errors, system, sections }: EnvironmentProps) {
  const dist = unitLabel('distance', system)
  const speed = unitLabel('speed', system)
  const rows = form.windRows
  /** A stretch's fields: its key in the row, its name in the label, its unit. */
  const rowFields: { key: keyof WindRowForm; name: string; unit: string }[] = [
    { key: 'start', name: 'start', unit: dist },
    { key: 'end', name: 'end', unit: dist },
    { key: 'speed', name: 'wind speed', unit: speed },
    { key: 'from', name: 'wind from', unit: '°' },
  ]
  const setRow = (i: number, key: keyof WindRowForm, v: string) =>
    setForm((f) => ({
      ...f,
      windRows: f.windRows.map((r, j) => (j === i ? { ...r, [key]: v } : r)),
    }))
  function add() {
    setForm((f) => {
      const last = f.windRows.at(-1)
      return {
        ...f,
        windRows: [
          ...f.windRows,
          { start: last?.end ?? '0', end: '', speed: f.windSpeed, from: f.windFrom },
        ],
      }
    })
  }
  function fill() {
    if (!sections) return
    if (rows.length > 0 && !window.confirm('Replace the wind stretches with one per section?'))
      return
    setForm((f) => ({
      ...f,
      windRows: windRowsFromSections(sections, f.windSpeed, f.windFrom, system),
    }))
  }
  return (
    <fieldset className="mt-4 space-y-2" aria-label="Wind per stretch">
      <legend className="text-sm font-medium text-slate-700">Wind per stretch</legend>
      <p className="text-xs text-slate-500">
        Different wind on parts of the course (a valley, an exposed ridge). Outside the stretches
        the course-wide wind above applies.
      </p>
      {rows.map((r, i) => (
        <div key={i} className="rounded-md p-3 ring-1 ring-slate-200" data-testid="wind-row">
          <div className="mb-2 flex items-center justify-between">
            <p className="text-sm font-medium text-slate-700">Wind stretch {i + 1}</p>
            <button
              type="button"
              className="rounded-md px-2 py-1 text-xs font-semibold text-red-700 ring-1 ring-red-200 hover:bg-red-50"
              aria-label={`Remove wind stretch ${i + 1}`}
              onClick={() =>
                setForm((f) => ({ ...f, windRows: f.windRows.filter((_, j) => j !== i) }))
              }
            >
              Remove
            </button>
          </div>
          <div className="grid grid-cols-2 gap-2">
            {rowFields.map(({ key, name, unit }) => (
              <Field
                key={key}
                label={`Stretch ${i + 1} ${name}`}
                unit={unit}
                value={r[key]}
                onChange={(v) => setRow(i, key, v)}
                error={errors[`wind${i}.${key}`]}
                hint={key === 'from' ? compassHint(r.from) : undefined}
              />
            ))}
          </div>
        </div>
      ))}
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" onClick={add}>
          Add wind stretch
        </Button>
        <Button variant="secondary" onClick={fill} disabled={!sections}>
          One stretch per course section
        </Button>
      </div>
    </fieldset>
  )
}

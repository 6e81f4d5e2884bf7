import { useUnits, type UnitSystem } from '../lib/units.ts'

const options: { value: UnitSystem; label: string; hint: string }[] = [
  { value: 'metric', label: 'Metric', hint: 'kg, km, m' },
  { value: 'imperial', label: 'Imperial', hint: 'lb, mi, ft' },
]

/** The metric/imperial switch of Quick settings (a two-option radio group). */
export function UnitToggle({ compact = false }: { compact?: boolean }) {
  const { system, setSystem } = useUnits()
  return (
    <fieldset>
      <legend
        className={
          compact ? 'sr-only' : 'text-xs font-semibold tracking-wide text-slate-500 uppercase'
        }
      >
        Units
      </legend>
      <div
        className={`${compact ? '' : 'mt-2'} grid grid-cols-2 gap-1 rounded-lg bg-slate-100 p-1`}
      >
        {options.map((o) => (
          <label
            key={o.value}
            title={o.hint}
            className={`cursor-pointer rounded-md px-2 py-1.5 text-center text-xs font-semibold transition has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600 ${
              system === o.value
                ? 'bg-white text-slate-900 shadow-sm'
                : 'text-slate-600 hover:text-slate-900'
            }`}
          >
            <input
              type="radio"
              name="unit-system"
              value={o.value}
              checked={system === o.value}
              onChange={() => setSystem(o.value)}
              className="sr-only"
            />
            {o.label}
          </label>
        ))}
      </div>
    </fieldset>
  )
}

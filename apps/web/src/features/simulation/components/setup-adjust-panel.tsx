// "Adjust setup for this optimization": the selected rider setup's main values, editable for this
// optimization only (stored as inputs.rider_override), each change marked against the saved
// setup, and promoted back on demand: into the saved setup, or as a new setup.
import { useState } from 'react'
import type { UnitSystem } from '../../../lib/units.ts'
import { copyRiderSetup, errorMessage, patchRiderSetup, type RiderSetup } from '../lib/api.ts'
import {
  OVERRIDE_FIELDS,
  fieldUnit,
  readOverride,
  showValue,
  valueOf,
  type OverrideKey,
  type OverrideTexts,
  type SetupOverride,
} from '../lib/setup-override.ts'
import { Field } from '../../../components/form.tsx'
import { Button, OutcomeLine, type Outcome } from './ui.tsx'

export function SetupAdjustPanel({
  setup,
  texts,
  stored,
  system,
  onChange,
  onPromoted,
}: {
  setup: RiderSetup
  texts: OverrideTexts
  stored: SetupOverride | undefined
  system: UnitSystem
  onChange(texts: OverrideTexts): void
  /** The setup now holds the values (saved into it, or a new copy): select it, clear the override. */
  onPromoted(setup: RiderSetup, created: boolean): void
}) {
  const read = readOverride(texts, setup, stored, system)
  const [newName, setNewName] = useState('')
  const [busy, setBusy] = useState(false)
  const [message, setMessage] = useState<Outcome | null>(null)
  const changed = new Set(read.changed)
  const invalid = Object.keys(read.errors).length > 0
  const fields = OVERRIDE_FIELDS.filter((f) => f.key !== 'cda1' || setup.positions.length > 1)

  const label = (key: OverrideKey, base: string) =>
    key === 'cda0' || key === 'cda1'
      ? `${base} (${setup.positions[key === 'cda0' ? 0 : 1]?.name ?? ''})`
      : base
  const reset = (key: OverrideKey) => {
    const next = { ...texts }
    delete next[key]
    onChange(next)
  }

  async function promote(asNew: boolean) {
    setMessage(null)
    if (!read.override || invalid) return
    const name = newName.trim() || `${setup.name} (adjusted)`
    setBusy(true)
    try {
      // the override was built from this setup's rows: its positions carry names and speeds
      const changes = read.override as Partial<RiderSetup>
      const saved = asNew
        ? await copyRiderSetup(setup, name, changes)
        : await patchRiderSetup(setup.id, changes)
      setMessage({
        ok: true,
        text: asNew
          ? `Created the rider setup “${saved.name}” and chose it for this optimization.`
          : `Saved the changes into “${saved.name}”.`,
      })
      setNewName('')
      onPromoted(saved, asNew)
    } catch (e) {
      setMessage({ ok: false, text: errorMessage(e) })
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="space-y-3" data-testid="setup-adjust">
      <p className="text-xs text-slate-500">
        Values used by this optimization only; the saved setup “{setup.name}” stays as it is until
        you save the changes into it.
      </p>
      <div className="grid grid-cols-2 gap-x-3 gap-y-2">
        {fields.map((f) => {
          const base = valueOf(setup, f.key)
          const isChanged = changed.has(f.key)
          const saved = showValue(f.key, base, system)
          const unit = fieldUnit(f, system)
          return (
            <div
              key={f.key}
              className={isChanged ? 'rounded-md bg-amber-50 p-1 ring-1 ring-amber-300' : 'p-1'}
            >
              <Field
                label={label(f.key, f.label)}
                unit={unit || undefined}
                value={texts[f.key] ?? saved}
                onChange={(v) => onChange({ ...texts, [f.key]: v })}
                error={read.errors[`ov.${f.key}`]}
                hint={
                  isChanged
                    ? `Changed from the saved setup (${saved || 'none'}${saved && unit ? ` ${unit}` : ''}).`
                    : undefined
                }
              />
              {isChanged ? (
                <button
                  type="button"
                  className="mt-1 text-xs font-semibold text-brand-700 underline"
                  aria-label={`Reset ${label(f.key, f.label)} to the saved setup`}
                  onClick={() => reset(f.key)}
                >
                  Reset
                </button>
              ) : null}
            </div>
          )
        })}
      </div>
      {read.changed.length > 0 ? (
        <div className="space-y-2 rounded-md bg-slate-50 p-3 ring-1 ring-slate-200">
          <p className="text-sm text-amber-900" role="status" data-testid="override-summary">
            {read.changed.length} {read.changed.length === 1 ? 'value' : 'values'} changed from the
            saved setup.
          </p>
          <div className="flex flex-wrap items-end gap-2">
            <Button variant="secondary" onClick={() => onChange({})} disabled={busy}>
              Reset all
            </Button>
            <Button
              variant="secondary"
              onClick={() => void promote(false)}
              disabled={busy || invalid}
            >
              Save to setup
            </Button>
            <div className="w-56">
              <Field
                label="New setup name"
                inputMode="text"
                value={newName}
                onChange={setNewName}
                hint={`Empty: “${setup.name} (adjusted)”.`}
              />
            </div>
            <Button
              variant="secondary"
              onClick={() => void promote(true)}
              disabled={busy || invalid}
            >
              Save as new setup
            </Button>
          </div>
        </div>
      ) : null}
      <OutcomeLine outcome={message} />
    </div>
  )
}

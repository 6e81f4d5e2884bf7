// The rider: who it is, the rider's weight and height, and the power the plan may ask for.
import type { ReactNode } from 'react'
import { useWatch } from 'react-hook-form'
import { unitLabel, useUnits } from '../../../../lib/units.ts'
import { Card } from '../ui.tsx'
import { CpEstimatePanel } from '../cp-estimate.tsx'
import { formDurabilityHint, type SetupForm } from '../../lib/setup-form.ts'
import { FormCheckbox, FormField } from './form-field.tsx'
import type { RiderFormState } from './use-rider-form.ts'

export function RiderCard({ state, children }: { state: RiderFormState; children?: ReactNode }) {
  const mass = unitLabel('mass', state.system)
  return (
    <Card title="Rider">
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <FormField label="Setup name" inputMode="text" name="name" />
        <FormField label="Rider name" inputMode="text" name="riderName" />
        <FormField label="Rider weight" unit={mass} name="riderMass" />
        <FormField
          label="Rider height"
          unit={unitLabel('height', state.system)}
          name="riderHeight"
          hint="Used to estimate the CdA when you do not know it."
        />
        <PowerFields state={state} />
        <DurabilityField />
        <FormCheckbox label="Heat-acclimatised" name="heatAcclimatised" />
        {children}
      </div>
    </Card>
  )
}

/** CP and W′ (typed or estimated from efforts or an FTP) and the max power they default. */
function PowerFields({ state }: { state: RiderFormState }) {
  const maxPower = useWatch<SetupForm, 'maxPower'>({ name: 'maxPower' })
  return (
    <>
      <FormField
        label="CP"
        unit="W"
        name="cp"
        hint="Critical power; with W′ it bounds the effort."
      />
      <FormField
        label="W′"
        unit="kJ"
        name="wPrimeKj"
        hint="The work you can do above CP (a typical trained cyclist: 15–25 kJ)."
      />
      <CpEstimatePanel onApply={state.applyCp} />
      <FormField
        label="Max power"
        unit="W"
        name="maxPower"
        onInput={state.own.maxPower}
        hint={
          state.derived.maxPower && maxPower
            ? `Default: CP + W′/60 s = ${maxPower} W, the power the critical-power model gives for one minute. Type your own (e.g. your best 1-minute power) to replace it.`
            : 'The highest power a plan may ask for (e.g. your best 1-minute power). Empty: CP + W′/60 s.'
        }
      />
    </>
  )
}

/** Durability, with the value typical of the rider's CP per kg as its hint. */
function DurabilityField() {
  const { system } = useUnits()
  const [cp, riderMass] = useWatch<SetupForm, ['cp', 'riderMass']>({ name: ['cp', 'riderMass'] })
  const typical = formDurabilityHint({ cp, riderMass }, system)
  const level = typical
    ? ` At ${typical.cpPerKg.toFixed(1)} W/kg of CP, ${typical.pct} % is typical (${typical.level}).`
    : ''
  return (
    <FormField
      label="Durability"
      unit="% per 1,000 kJ"
      name="durabilityPct"
      hint={`CP and W′ lost per 1,000 kJ of work: well-trained riders 2–5 %, amateurs about 10 %.${level} Empty: no fade.`}
    />
  )
}

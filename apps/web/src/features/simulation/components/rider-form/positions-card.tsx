// The positions: two positions with their CdA and the speed range where each is ridden, the CdA
// estimate from height and weight, and the calibration from a ride.
import { useWatch } from 'react-hook-form'
import { fromDisplay, unitLabel } from '../../../../lib/units.ts'
import { Button, Card } from '../ui.tsx'
import { RideCalibrationPanel } from '../ride-calibration.tsx'
import { formCdaEstimate, type SetupForm } from '../../lib/setup-form.ts'
import { FormField } from './form-field.tsx'
import type { RiderFormState } from './use-rider-form.ts'

export function PositionsCard({ state }: { state: RiderFormState }) {
  const { system } = state
  const [bikeType, riderHeight, riderMass, bikeMass, extraMass, efficiency] = useWatch<
    SetupForm,
    ['bikeType', 'riderHeight', 'riderMass', 'bikeMass', 'extraMass', 'efficiency']
  >({ name: ['bikeType', 'riderHeight', 'riderMass', 'bikeMass', 'extraMass', 'efficiency'] })
  const estimate = formCdaEstimate({ bikeType, riderHeight, riderMass }, system)
  const canEstimate = estimate.every((p) => Number.isFinite(p.cda))
  const massOf = (text: string) =>
    Number(text) > 0 ? fromDisplay('mass', Number(text), system) : NaN
  const calibrationRider = {
    massKg: massOf(riderMass) + (Number(extraMass) >= 0 ? massOf(extraMass) || 0 : 0),
    bikeMassKg: massOf(bikeMass),
    efficiency: Number(efficiency) / 100,
  }
  return (
    <Card title="Positions" className="lg:col-span-2">
      <p className="mb-3 text-xs text-slate-500">
        Two positions with the speed range where each is ridden (the switch is usually between 10
        and 30 km/h).
      </p>
      <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
        <PositionFields i={0} state={state} />
        <PositionFields i={1} state={state} />
      </div>
      <div className="mt-3 flex flex-wrap items-center gap-3 text-sm">
        <Button variant="secondary" onClick={state.applyEstimate} disabled={!canEstimate}>
          Estimate CdA from height and weight
        </Button>
        <span className="text-xs text-slate-500">
          {canEstimate
            ? `Estimate: ${estimate.map((p) => `${p.name} ${p.cda.toFixed(3)} m²`).join(', ')} (frontal area from height and weight, scheibo/calc coefficients).`
            : 'Enter the rider’s height and weight to get an estimate.'}
        </span>
      </div>
      <RideCalibrationPanel rider={calibrationRider} onApply={state.applyRideCalibration} />
    </Card>
  )
}

function PositionFields({ i, state }: { i: 0 | 1; state: RiderFormState }) {
  const cda = useWatch<SetupForm, `positions.${0 | 1}.cda`>({ name: `positions.${i}.cda` })
  const speed = unitLabel('speed', state.system)
  const n = i + 1
  return (
    <fieldset className="grid grid-cols-2 gap-3 rounded-md p-3 ring-1 ring-slate-200">
      <legend className="px-1 text-sm font-medium text-slate-700">Position {n}</legend>
      <FormField label={`Position ${n} name`} inputMode="text" name={`positions.${i}.name`} />
      <FormField
        label={`Position ${n} CdA`}
        unit="m²"
        name={`positions.${i}.cda`}
        onInput={() => state.own.cda(i)}
        hint={
          state.derived.cda[i] && cda
            ? 'Estimate from height and weight: type your measured CdA to replace it.'
            : undefined
        }
      />
      <FormField label={`Position ${n} from`} unit={speed} name={`positions.${i}.minSpeed`} />
      <FormField label={`Position ${n} to`} unit={speed} name={`positions.${i}.maxSpeed`} />
    </fieldset>
  )
}

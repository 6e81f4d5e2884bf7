// The bike: its type (which sets the positions' estimate), its mass, the kit and the drivetrain.
import { unitLabel } from '../../../../lib/units.ts'
import { Card } from '../ui.tsx'
import { BIKE_TYPES } from '../../lib/setup-form.ts'
import { FormField, FormSelect } from './form-field.tsx'
import type { RiderFormState } from './use-rider-form.ts'

export function BikeCard({ state }: { state: RiderFormState }) {
  const mass = unitLabel('mass', state.system)
  return (
    <Card title="Bike">
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <FormSelect label="Bike type" name="bikeType" options={BIKE_TYPES} />
        <FormField label="Bike mass" unit={mass} name="bikeMass" />
        <FormField label="Kit and bottles mass" unit={mass} name="extraMass" />
        <FormField
          label="Drivetrain efficiency"
          unit="%"
          name="efficiency"
          hint="97.6 % for a clean, lubricated chain (Martin 1998)."
        />
      </div>
    </Card>
  )
}

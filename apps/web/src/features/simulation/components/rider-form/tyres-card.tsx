// The tyres: a preset fills the rolling resistance by surface; typing a value makes it custom.
import { useFormContext } from 'react-hook-form'
import { Card } from '../ui.tsx'
import { TYRES, type SetupForm } from '../../lib/setup-form.ts'
import { FormField, FormSelect } from './form-field.tsx'
import type { RiderFormState } from './use-rider-form.ts'

const TYRE_OPTIONS = TYRES.map((t) => ({ value: t.value, label: t.label }))

export function TyresCard({ state }: { state: RiderFormState }) {
  const { setValue } = useFormContext<SetupForm>()
  const custom = () => setValue('tyre', 'custom')
  return (
    <Card title="Tyres" className="lg:col-span-2">
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-4">
        <FormSelect label="Tyres" name="tyre" options={TYRE_OPTIONS} onInput={state.chooseTyre} />
        <FormField label="Crr on smooth roads" name="crrSmooth" onInput={custom} />
        <FormField label="Crr on normal roads" name="crrNormal" onInput={custom} />
        <FormField label="Crr on rough roads" name="crrRough" onInput={custom} />
      </div>
    </Card>
  )
}

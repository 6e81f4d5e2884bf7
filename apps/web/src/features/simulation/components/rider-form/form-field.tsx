// The form kit's Field and Select bound to the rider setup form (react-hook-form): the value, the
// change and the field's message come from the form; `onInput` runs after the user's own change.
import type { ComponentProps } from 'react'
import {
  useController,
  type FieldPath,
  type FieldPathByValue,
  type FieldPathValue,
} from 'react-hook-form'
import { CheckboxField, Field, Select } from '../../../../components/form.tsx'
import type { SetupForm } from '../../lib/setup-form.ts'

type TextPath = FieldPathByValue<SetupForm, string>

/** The form's field `name` as a control's value, change (then `onInput`) and message. */
function useBound<P extends FieldPath<SetupForm>>(
  name: P,
  onInput?: (value: FieldPathValue<SetupForm, P>) => void,
) {
  const { field, fieldState } = useController<SetupForm, P>({ name })
  const onChange = (value: FieldPathValue<SetupForm, P>) => {
    field.onChange(value)
    onInput?.(value)
  }
  return { value: field.value, onChange, error: fieldState.error?.message }
}

export function FormField({
  name,
  onInput,
  ...props
}: { name: TextPath; onInput?(value: string): void } & Omit<
  ComponentProps<typeof Field>,
  'value' | 'onChange' | 'error' | 'name'
>) {
  const { value, onChange, error } = useBound(name, onInput)
  return <Field {...props} name={name} value={value} onChange={onChange} error={error} />
}

export function FormSelect<K extends 'bikeType' | 'tyre'>({
  name,
  onInput,
  ...props
}: { name: K; onInput?(value: SetupForm[K]): void } & Omit<
  ComponentProps<typeof Select<SetupForm[K]>>,
  'value' | 'onChange' | 'name'
>) {
  const { value, onChange } = useBound(name, onInput)
  return <Select<SetupForm[K]> {...props} name={name} value={value} onChange={onChange} />
}

/** A switch of the form (a labelled checkbox bound to a boolean field). */
export function FormCheckbox({
  name,
  label,
}: {
  name: FieldPathByValue<SetupForm, boolean>
  label: string
}) {
  const { value, onChange } = useBound(name)
  return <CheckboxField label={label} name={name} checked={value} onChange={onChange} />
}

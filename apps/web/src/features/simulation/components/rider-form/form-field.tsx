// The form kit's Field and Select bound to the rider setup form (react-hook-form): the value, the
// change and the field's message come from the form; `onInput` runs after the user's own change.
import type { ComponentProps } from 'react'
import { useController, type FieldPathByValue } from 'react-hook-form'
import { Field, Select } from '../../../../components/form.tsx'
import type { SetupForm } from '../../lib/setup-form.ts'

type TextPath = FieldPathByValue<SetupForm, string>

export function FormField({
  name,
  onInput,
  ...props
}: { name: TextPath; onInput?(value: string): void } & Omit<
  ComponentProps<typeof Field>,
  'value' | 'onChange' | 'error' | 'name'
>) {
  const { field, fieldState } = useController<SetupForm, TextPath>({ name })
  return (
    <Field
      {...props}
      name={name}
      value={field.value}
      onChange={(value) => {
        field.onChange(value)
        onInput?.(value)
      }}
      error={fieldState.error?.message}
    />
  )
}

export function FormSelect<K extends 'bikeType' | 'tyre'>({
  name,
  onInput,
  ...props
}: { name: K; onInput?(value: SetupForm[K]): void } & Omit<
  ComponentProps<typeof Select<SetupForm[K]>>,
  'value' | 'onChange' | 'name'
>) {
  const { field } = useController<SetupForm, K>({ name })
  return (
    <Select<SetupForm[K]>
      {...props}
      name={name}
      value={field.value}
      onChange={(value) => {
        field.onChange(value)
        onInput?.(value)
      }}
    />
  )
}

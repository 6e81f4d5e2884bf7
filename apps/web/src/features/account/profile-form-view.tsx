import { zodResolver } from '@hookform/resolvers/zod'
import { useMutation } from '@tanstack/react-query'
import { useEffect } from 'react'
import { useForm } from 'react-hook-form'
import type { RiderProfile } from '@veloptima/contracts'
import { buttonClass } from '../../components/button.ts'
import { api, ApiError } from '../../lib/api-client.ts'
import { useUnits } from '../../lib/units.ts'
import {
  profileFormSchema,
  profileLabels,
  toFormValues,
  toProfilePut,
  type ProfileFormValues,
} from './profile-form.ts'

const inputClass =
  'mt-1 block w-full rounded-lg border-0 px-3 py-2 text-sm text-slate-900 ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-brand-600 aria-[invalid=true]:ring-red-500'

/** The rider profile form in the chosen units (rider_name, height, weight, CP, W′). */
export function ProfileForm({
  uid,
  profile,
  onSaved,
}: {
  uid: string
  profile: RiderProfile | null
  onSaved: (p: RiderProfile) => void
}) {
  const { system } = useUnits()
  const labels = profileLabels(system)
  const form = useForm<ProfileFormValues>({
    resolver: zodResolver(profileFormSchema(system)),
    defaultValues: toFormValues(profile, system),
  })
  const { reset } = form
  // Units changed (or the stored profile did): show the stored values in the new units.
  useEffect(() => {
    reset(toFormValues(profile, system))
  }, [profile, system, reset])

  const save = useMutation({
    mutationFn: (values: ProfileFormValues) =>
      api<RiderProfile>(`/api/rider-profiles/${encodeURIComponent(uid)}`, {
        method: 'PUT',
        body: toProfilePut(values, system),
      }),
    onSuccess: onSaved,
  })
  const errors = form.formState.errors
  const field = (
    name: keyof ProfileFormValues,
    label: string,
    hint?: string,
    inputMode: 'decimal' | 'text' = 'decimal',
  ) => (
    <div>
      <label htmlFor={`profile-${name}`} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      <input
        id={`profile-${name}`}
        inputMode={inputMode}
        autoComplete="off"
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={errors[name] ? `profile-${name}-error` : undefined}
        className={inputClass}
        {...form.register(name)}
      />
      {errors[name] ? (
        <p id={`profile-${name}-error`} className="mt-1 text-sm text-red-700">
          {errors[name]?.message}
        </p>
      ) : (
        hint && <p className="mt-1 text-xs text-slate-500">{hint}</p>
      )}
    </div>
  )

  return (
    <form
      noValidate
      onSubmit={form.handleSubmit((values) => save.mutate(values))}
      className="space-y-5"
    >
      <div className="grid gap-5 sm:grid-cols-2">
        {field('rider_name', 'Rider name', 'Empty: your account name.', 'text')}
        <div className="hidden sm:block" />
        {field('rider_height', `Rider height (${labels.height})`)}
        {field('rider_weight', `Rider weight (${labels.mass})`)}
        {field('cp', 'CP (W)', 'Critical power: the power you can hold for about 30–60 min.')}
        {field('w_prime', 'W′ (kJ)', 'The work you can do above CP before you blow up.')}
      </div>
      <div className="flex items-center gap-4">
        <button type="submit" disabled={save.isPending} className={buttonClass.primary}>
          {save.isPending ? 'Saving…' : 'Save profile'}
        </button>
        <p role="status" className="text-sm text-slate-600">
          {save.isError
            ? save.error instanceof ApiError
              ? save.error.message
              : 'Saving failed; try again.'
            : save.isSuccess && !form.formState.isDirty
              ? 'Saved.'
              : ''}
        </p>
      </div>
    </form>
  )
}

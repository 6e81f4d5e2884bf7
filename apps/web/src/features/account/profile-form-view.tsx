import { zodResolver } from '@hookform/resolvers/zod'
import { useMutation } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { useForm } from 'react-hook-form'
import type { Page, RiderProfile, RiderSetup } from '@veloptima/contracts'
import { buttonClass } from '../../components/button.ts'
import { FieldLabel } from '../../components/form.tsx'
import { api, ApiError } from '../../lib/api-client.ts'
import { useUnits } from '../../lib/units.ts'
import {
  profileFormSchema,
  profileLabels,
  setupUpdatesFor,
  toFormValues,
  toProfilePut,
  type ProfileFormValues,
  type SetupUpdate,
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

  const [offer, setOffer] = useState<SetupUpdate[]>([])
  const save = useMutation({
    mutationFn: async (values: ProfileFormValues) => {
      const saved = await api<RiderProfile>(`/api/rider-profiles/${encodeURIComponent(uid)}`, {
        method: 'PUT',
        body: toProfilePut(values, system),
      })
      // The caller's own setups that held the previous values: offered, never changed unasked.
      const setups = await api<Page<RiderSetup>>(
        `/api/rider-setups?owner=${encodeURIComponent(uid)}&limit=200`,
      ).catch(() => null)
      return { saved, updates: setups ? setupUpdatesFor(setups.items, profile, saved, system) : [] }
    },
    onSuccess: ({ saved, updates }) => {
      setOffer(updates)
      onSaved(saved)
    },
  })
  const errors = form.formState.errors
  const field = (
    name: keyof ProfileFormValues,
    label: string,
    hint?: string,
    inputMode: 'decimal' | 'text' = 'decimal',
  ) => (
    <div>
      <FieldLabel htmlFor={`profile-${name}`}>{label}</FieldLabel>
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
      {offer.length > 0 ? <SetupUpdateOffer updates={offer} onDone={() => setOffer([])} /> : null}
    </form>
  )
}

/**
 * "Update your rider setups too?": the setups that used the previous profile values, each with
 * what would change; applied only when the user confirms.
 */
function SetupUpdateOffer({ updates, onDone }: { updates: SetupUpdate[]; onDone(): void }) {
  const apply = useMutation({
    mutationFn: async () => {
      for (const u of updates) {
        await api(`/api/rider-setups/${u.id}`, { method: 'PATCH', body: u.patch })
      }
    },
  })
  const n = updates.length
  const noun = n === 1 ? 'rider setup' : 'rider setups'
  if (apply.isSuccess) {
    return (
      <p role="status" className="text-sm text-emerald-700">
        Updated {n} {noun}.
      </p>
    )
  }
  return (
    <section
      aria-labelledby="setup-update-title"
      data-testid="setup-update-offer"
      className="rounded-lg bg-brand-50 p-4 ring-1 ring-brand-200"
    >
      <h3 id="setup-update-title" className="text-sm font-semibold text-slate-900">
        Update your {noun} too?
      </h3>
      <p className="mt-1 text-sm text-slate-700">
        {n === 1 ? 'This setup uses' : 'These setups use'} your previous profile values:
      </p>
      <ul className="mt-2 space-y-2 text-sm text-slate-800">
        {updates.map((u) => (
          <li key={u.id}>
            <span className="font-medium">{u.name}</span>:{' '}
            {u.changes.map((c) => `${c.label} ${c.from} → ${c.to}`).join(', ')}
          </li>
        ))}
      </ul>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <button
          type="button"
          className={buttonClass.primary}
          disabled={apply.isPending}
          onClick={() => apply.mutate()}
        >
          {apply.isPending ? 'Updating…' : `Update ${n} ${noun}`}
        </button>
        <button type="button" className={buttonClass.secondary} onClick={onDone}>
          {n === 1 ? 'Keep it as it is' : 'Keep them as they are'}
        </button>
        {apply.isError ? (
          <p role="alert" className="text-sm text-red-700">
            {apply.error instanceof ApiError ? apply.error.message : 'Updating failed; try again.'}
          </p>
        ) : null}
      </div>
    </section>
  )
}

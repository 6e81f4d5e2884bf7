// The box above a new rider setup's form: what it took from the rider profile, what is an
// estimate or a stated default, and what the form still needs.
import { Link } from 'react-router'
import { useFormContext, useWatch } from 'react-hook-form'
import { unitLabel, useUnits } from '../../../lib/units.ts'
import {
  missingFields,
  type Derived,
  type ProfileValues,
  type SetupForm,
} from '../lib/setup-form.ts'

/**
 * What a new setup took from the rider profile, what is an estimate or a stated default, and what
 * the form still needs: the user types only the missing values. Inside the setup form's provider.
 */
export function PrefillSummary({
  profile,
  derived,
}: {
  profile: ProfileValues | null
  derived: Derived
}) {
  const { system } = useUnits()
  const { control, getValues } = useFormContext<SetupForm>()
  useWatch({ control }) // shown again on every change of the form
  const form = getValues()
  const fromProfile = profile
    ? [
        profile.rider_weight !== null && `weight ${form.riderMass} ${unitLabel('mass', system)}`,
        profile.rider_height !== null &&
          `height ${form.riderHeight} ${unitLabel('height', system)}`,
        profile.cp !== null && `CP ${form.cp} W`,
        profile.w_prime !== null && `W′ ${form.wPrimeKj} kJ`,
      ].filter((x): x is string => Boolean(x))
    : []
  const estimated = form.positions
    .filter((p, i) => derived.cda[i] && p.cda)
    .map((p) => `${p.name} ${p.cda} m²`)
  const missing = missingFields(form)
  return (
    <section
      aria-label="What this setup starts from"
      data-testid="setup-prefill"
      className="mt-4 rounded-lg bg-slate-50 p-4 text-sm text-slate-700 ring-1 ring-slate-200"
    >
      <ul className="space-y-1">
        <li>
          {fromProfile.length > 0 ? (
            <>
              From your{' '}
              <Link to="/account" className="underline">
                rider profile
              </Link>
              : {fromProfile.join(', ')}.
            </>
          ) : (
            <>
              Your{' '}
              <Link to="/account" className="underline">
                rider profile
              </Link>{' '}
              has no height, weight, CP or W′ yet: fill them in there once and every new setup
              starts from them.
            </>
          )}
        </li>
        {estimated.length > 0 ? (
          <li>Estimated CdA (frontal area from height and weight): {estimated.join(', ')}.</li>
        ) : null}
        {derived.maxPower && form.maxPower ? (
          <li>Default max power: {form.maxPower} W (CP + W′/60 s).</li>
        ) : null}
        <li data-testid="setup-missing" className="font-medium text-slate-900">
          {missing.length > 0
            ? `Still needed: ${missing.join(', ')}.`
            : 'Nothing else is needed: change any value, or create the setup.'}
        </li>
      </ul>
    </section>
  )
}

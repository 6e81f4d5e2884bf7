// The rider setup form's state: react-hook-form over the texts in the user's units, the fields
// that still follow their stated default (max power, the CdA estimate), and the actions that fill
// fields from the estimate panels.
import { zodResolver } from '@hookform/resolvers/zod'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { useForm } from 'react-hook-form'
import type { RiderSetupForm } from '@veloptima/contracts'
import { useUnits } from '../../../../lib/units.ts'
import type { RiderSetup } from '../../lib/api.ts'
import {
  NEW_SETUP_DERIVED,
  TYRES,
  convertForm,
  formCdaEstimate,
  formOf,
  newSetupForm,
  storedDerived,
  withDerived,
  type Derived,
  type ProfileValues,
  type SetupForm,
  type TyreKey,
} from '../../lib/setup-form.ts'
import { crrBySurface, type RideCalibrationValues } from '../ride-calibration.tsx'
import { FTP_W_PRIME_J, type CpEstimate } from '../cp-estimate.tsx'
import { setupFormSchema } from './schema.ts'

/** The fields a stated default is computed from. */
const SOURCES = ['cp', 'wPrimeKj', 'riderHeight', 'riderMass', 'bikeType'] as const

export function useRiderForm(setup: RiderSetup | undefined, profile: ProfileValues | null) {
  const { system } = useUnits()
  const [derived, setDerived] = useState<Derived>(() =>
    setup ? storedDerived(setup) : NEW_SETUP_DERIVED,
  )
  const [defaults] = useState(() =>
    withDerived(setup ? formOf(setup, system) : newSetupForm(system, profile), system, derived),
  )
  const resolver = useMemo(() => zodResolver(setupFormSchema(system)), [system])
  const form = useForm<SetupForm, unknown, RiderSetupForm>({
    resolver,
    defaultValues: defaults,
    shouldFocusError: false,
  })
  const { getValues, setValue, subscribe, reset } = form

  /** The fields still following their default get the default's value. */
  const follow = useCallback(
    (d: Derived) => {
      const values = getValues()
      const shown = withDerived(values, system, d)
      if (shown.maxPower !== values.maxPower) setValue('maxPower', shown.maxPower)
      for (const i of [0, 1] as const) {
        for (const key of ['name', 'cda'] as const) {
          const text = shown.positions[i][key]
          if (text !== values.positions[i][key]) setValue(`positions.${i}.${key}`, text)
        }
      }
    },
    [getValues, setValue, system],
  )
  useEffect(
    () =>
      subscribe({
        name: SOURCES,
        formState: { values: true },
        callback: () => follow(derived),
      }),
    [subscribe, follow, derived],
  )

  // The texts are in display units: convert them when the unit system changes (every field
  // holding a number; text that is not one is kept as typed).
  const shownIn = useRef(system)
  useEffect(() => {
    if (shownIn.current === system) return
    reset(convertForm(getValues(), shownIn.current, system))
    shownIn.current = system
  }, [system, reset, getValues])

  /** Typing a max power or a CdA makes it the user's: the default no longer follows. */
  const own = {
    maxPower: () => setDerived((d) => ({ ...d, maxPower: false })),
    cda: (i: 0 | 1) =>
      setDerived((d) => ({ ...d, cda: i === 0 ? [false, d.cda[1]] : [d.cda[0], false] })),
  }

  function chooseTyre(tyre: TyreKey) {
    if (tyre === 'custom') return
    const [smooth, normal, rough] = TYRES.find((t) => t.value === tyre)!.crr
    setValue('crrSmooth', String(smooth))
    setValue('crrNormal', String(normal))
    setValue('crrRough', String(rough))
  }

  /** The positions follow the estimate again (names and CdA), as they do in a new setup. */
  function applyEstimate() {
    const d: Derived = { ...derived, cda: [true, true] }
    setDerived(d)
    const [first, second] = formCdaEstimate(getValues(), system)
    setValue('positions.0.name', first!.name)
    setValue('positions.1.name', second!.name)
    follow(d)
  }

  function applyCp({ cpW, wPrimeJ }: CpEstimate) {
    const typedWPrime = getValues('wPrimeKj').trim()
    setValue('cp', cpW.toFixed(0))
    setValue(
      'wPrimeKj',
      wPrimeJ !== null ? (wPrimeJ / 1000).toFixed(1) : typedWPrime || String(FTP_W_PRIME_J / 1000),
    )
  }

  function applyRideCalibration({ cdaM2, crr }: RideCalibrationValues) {
    setDerived((d) => ({ ...d, cda: [false, false] }))
    const f = getValues()
    const by = crrBySurface(crr, {
      smooth: Number(f.crrSmooth),
      normal: Number(f.crrNormal),
      rough: Number(f.crrRough),
    })
    setValue('positions.0.cda', cdaM2.toFixed(3))
    setValue('positions.1.cda', cdaM2.toFixed(3))
    setValue('tyre', 'custom')
    setValue('crrSmooth', by.smooth.toFixed(4))
    setValue('crrNormal', by.normal.toFixed(4))
    setValue('crrRough', by.rough.toFixed(4))
  }

  return { form, system, derived, own, chooseTyre, applyEstimate, applyCp, applyRideCalibration }
}

export type RiderFormState = ReturnType<typeof useRiderForm>

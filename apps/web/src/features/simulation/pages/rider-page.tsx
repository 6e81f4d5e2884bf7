// New / edit rider setup. All quantities in the user's units; the API gets SI.
import { useState } from 'react'
import { Link, useNavigate, useParams } from 'react-router'
import { pacingGaps } from '@veloptima/contracts'
import { api } from '../../../lib/api-client.ts'
import { useLive } from '../../../lib/live.tsx'
import { fromDisplay, unitLabel, useUnits } from '../../../lib/units.ts'
import { Field, fieldBinder, Select } from '../../../components/form.tsx'
import { OwnerSelect, useNewItemOwner } from '../../../components/owner-control.tsx'
import { Button, Card, Loading, Page, PageHeader } from '../components/ui.tsx'
import { errorMessage, useApiData, type RiderSetup } from '../lib/api.ts'
import { CpEstimatePanel, FTP_W_PRIME_J, type CpEstimate } from '../components/cp-estimate.tsx'
import {
  crrBySurface,
  RideCalibrationPanel,
  type RideCalibrationValues,
} from '../components/ride-calibration.tsx'
import {
  BIKE_TYPES,
  NEW_SETUP_DERIVED,
  TYRES,
  convertForm,
  formCdaEstimate,
  formOf,
  newSetupForm,
  readForm,
  storedDerived,
  withDerived,
  type Derived,
  type FormErrors,
  type ProfileValues,
  type SetupForm,
  type TyreKey,
} from '../lib/setup-form.ts'
import { NotYours } from './course-page.tsx'
import { PrefillSummary } from '../components/setup-prefill.tsx'

export function RiderPage() {
  const { id } = useParams()
  const existing = useApiData<RiderSetup>(id ? `/api/rider-setups/${id}` : null)
  const { riderProfile } = useLive()
  if (id && existing.error) {
    return (
      <Page>
        <NotYours what="rider setup" message={existing.error.message} />
      </Page>
    )
  }
  if (id && !existing.data) {
    return (
      <Page>
        <Loading what="the rider setup" />
      </Page>
    )
  }
  if (!id && riderProfile === undefined) {
    return (
      <Page>
        <Loading what="your rider profile" />
      </Page>
    )
  }
  return <RiderForm key={id ?? 'new'} setup={existing.data} profile={riderProfile ?? null} />
}

function RiderForm({
  setup,
  profile,
}: {
  setup: RiderSetup | undefined
  /** The rider profile a new setup starts from (null: none). */
  profile: ProfileValues | null
}) {
  const { system } = useUnits()
  const navigate = useNavigate()
  // A new setup is the team's the user works in, unless "Save in" says otherwise.
  const [owner, setOwner, teams] = useNewItemOwner()
  // `typed` holds what the user typed; `form` is what the form shows and saves: the fields still
  // following their stated default (max power, the CdA estimate) get the default's value.
  const [typed, setForm] = useState<SetupForm>(() =>
    setup ? formOf(setup, system) : newSetupForm(system, profile),
  )
  const [derived, setDerived] = useState<Derived>(() =>
    setup ? storedDerived(setup) : NEW_SETUP_DERIVED,
  )
  const form = withDerived(typed, system, derived)
  const [prefilled] = useState(() => (setup ? null : profile))
  const [errors, setErrors] = useState<FormErrors>({})
  const [saving, setSaving] = useState(false)
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null)

  // The form holds text in display units: convert it when the unit system changes (every field
  // holding a number; text that is not one is kept with its message). Adjusting state while
  // rendering, as React recommends for state derived from a changed value.
  const [shownIn, setShownIn] = useState(system)
  if (shownIn !== system) {
    setShownIn(system)
    setForm(convertForm(typed, shownIn, system))
  }

  const set = <K extends keyof SetupForm>(key: K, value: SetupForm[K]) => {
    if (key === 'maxPower') setDerived((d) => ({ ...d, maxPower: false }))
    setForm((f) => ({ ...f, [key]: value }))
  }
  const bind = fieldBinder(form, set, errors)
  const setPos = (i: 0 | 1, key: keyof SetupForm['positions'][0], value: string) => {
    // Typing a CdA makes it the user's: the estimate no longer follows (a name of one's own is
    // kept either way: only the estimate's own names follow the bike type).
    if (key === 'cda') {
      setDerived((d) => {
        const cda = [...d.cda] as Derived['cda']
        cda[i] = false
        return { ...d, cda }
      })
    }
    setForm((f) => {
      const positions = withDerived(f, system, derived).positions
      positions[i] = { ...positions[i], [key]: value }
      return { ...f, positions }
    })
  }

  function chooseTyre(tyre: TyreKey) {
    const preset = TYRES.find((t) => t.value === tyre)!
    setForm((f) => ({
      ...f,
      tyre,
      ...(tyre === 'custom'
        ? {}
        : {
            crrSmooth: String(preset.crr[0]),
            crrNormal: String(preset.crr[1]),
            crrRough: String(preset.crr[2]),
          }),
    }))
  }

  const massKg =
    Number(form.riderMass) > 0 ? fromDisplay('mass', Number(form.riderMass), system) : NaN
  const estimate = formCdaEstimate(form, system)
  const canEstimate = estimate.every((p) => Number.isFinite(p.cda))

  /** The positions follow the estimate again (names and CdA), as they do in a new setup. */
  function applyEstimate() {
    setForm((f) => {
      const positions = f.positions.map((p, i) => ({
        ...p,
        name: estimate[i]!.name,
      })) as SetupForm['positions']
      return { ...f, positions }
    })
    setDerived((d) => ({ ...d, cda: [true, true] }))
  }

  function applyCp({ cpW, wPrimeJ }: CpEstimate) {
    setForm((f) => ({
      ...f,
      cp: cpW.toFixed(0),
      wPrimeKj:
        wPrimeJ !== null
          ? (wPrimeJ / 1000).toFixed(1)
          : f.wPrimeKj.trim() !== ''
            ? f.wPrimeKj
            : String(FTP_W_PRIME_J / 1000),
    }))
  }

  const massOf = (text: string) =>
    Number(text) > 0 ? fromDisplay('mass', Number(text), system) : NaN
  const calibrationRider = {
    massKg: massKg + (Number(form.extraMass) >= 0 ? massOf(form.extraMass) || 0 : 0),
    bikeMassKg: massOf(form.bikeMass),
    efficiency: Number(form.efficiency) / 100,
  }

  function applyRideCalibration({ cdaM2, crr }: RideCalibrationValues) {
    setDerived((d) => ({ ...d, cda: [false, false] }))
    setForm((f) => {
      const by = crrBySurface(crr, {
        smooth: Number(f.crrSmooth),
        normal: Number(f.crrNormal),
        rough: Number(f.crrRough),
      })
      const positions = withDerived(f, system, derived).positions.map((p) => ({
        ...p,
        cda: cdaM2.toFixed(3),
      })) as SetupForm['positions']
      return {
        ...f,
        positions,
        tyre: 'custom',
        crrSmooth: by.smooth.toFixed(4),
        crrNormal: by.normal.toFixed(4),
        crrRough: by.rough.toFixed(4),
      }
    })
  }

  async function save() {
    setStatus(null)
    const { body, errors } = readForm(form, system)
    setErrors(errors)
    if (!body) {
      setStatus({ ok: false, text: Object.values(errors)[0] ?? 'Check the fields.' })
      return
    }
    setSaving(true)
    try {
      if (setup) {
        await api<RiderSetup>(`/api/rider-setups/${setup.id}`, { method: 'PATCH', body })
        setStatus({ ok: true, text: 'Saved.' })
      } else {
        const created = await api<RiderSetup>('/api/rider-setups', {
          method: 'POST',
          body: { ...body, ...(owner ? { owner } : {}) },
        })
        navigate(`/simulation/riders/${created.id}`, { replace: true })
      }
    } catch (e) {
      setStatus({ ok: false, text: errorMessage(e) })
    } finally {
      setSaving(false)
    }
  }

  async function remove() {
    if (!setup || !window.confirm(`Delete the rider setup “${setup.name}”?`)) return
    try {
      await api(`/api/rider-setups/${setup.id}`, { method: 'DELETE' })
      navigate('/simulation/riders')
    } catch (e) {
      setStatus({ ok: false, text: errorMessage(e) })
    }
  }

  const speed = unitLabel('speed', system)
  return (
    <Page>
      <PageHeader title={setup ? setup.name : 'New rider setup'}>
        {setup ? (
          <Button variant="danger" onClick={remove}>
            Delete
          </Button>
        ) : null}
      </PageHeader>
      {!setup ? (
        <PrefillSummary profile={prefilled} form={form} derived={derived} />
      ) : pacingGaps(setup).length > 0 ? (
        <p
          className="mt-4 rounded-lg bg-amber-50 p-4 text-sm text-amber-900 ring-1 ring-amber-200"
          data-testid="setup-gaps"
        >
          A pacing plan needs{' '}
          {pacingGaps(setup)
            .map((g) => g.label)
            .join(' and ')}
          , which this setup does not have yet: enter {pacingGaps(setup).length > 1 ? 'them' : 'it'}{' '}
          below and save.
        </p>
      ) : null}
      <form
        noValidate
        className="mt-4 grid grid-cols-1 gap-4 lg:grid-cols-2"
        onSubmit={(e) => {
          e.preventDefault()
          void save()
        }}
      >
        <Card title="Rider">
          <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
            <Field label="Setup name" inputMode="text" {...bind('name')} />
            <Field
              label="Rider name"
              inputMode="text"
              value={form.riderName}
              onChange={(v) => set('riderName', v)}
            />
            <Field label="Rider weight" unit={unitLabel('mass', system)} {...bind('riderMass')} />
            <Field
              label="Rider height"
              unit={unitLabel('height', system)}
              {...bind('riderHeight')}
              hint="Used to estimate the CdA when you do not know it."
            />
            <Field
              label="CP"
              unit="W"
              {...bind('cp')}
              hint="Critical power; with W′ it bounds the effort."
            />
            <Field
              label="W′"
              unit="kJ"
              {...bind('wPrimeKj')}
              hint="The work you can do above CP (a typical trained cyclist: 15–25 kJ)."
            />
            <CpEstimatePanel onApply={applyCp} />
            <Field
              label="Max power"
              unit="W"
              {...bind('maxPower')}
              hint={
                derived.maxPower && form.maxPower
                  ? `Default: CP + W′/60 s = ${form.maxPower} W, the power the critical-power model gives for one minute. Type your own (e.g. your best 1-minute power) to replace it.`
                  : 'The highest power a plan may ask for (e.g. your best 1-minute power). Empty: CP + W′/60 s.'
              }
            />
            {!setup ? <OwnerSelect value={owner} onChange={setOwner} teams={teams} /> : null}
          </div>
        </Card>
        <Card title="Bike">
          <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
            <Select
              label="Bike type"
              value={form.bikeType}
              onChange={(v) => set('bikeType', v)}
              options={BIKE_TYPES}
            />
            <Field label="Bike mass" unit={unitLabel('mass', system)} {...bind('bikeMass')} />
            <Field
              label="Kit and bottles mass"
              unit={unitLabel('mass', system)}
              {...bind('extraMass')}
            />
            <Field
              label="Drivetrain efficiency"
              unit="%"
              {...bind('efficiency')}
              hint="97.6 % for a clean, lubricated chain (Martin 1998)."
            />
          </div>
        </Card>
        <Card title="Positions" className="lg:col-span-2">
          <p className="mb-3 text-xs text-slate-500">
            Two positions with the speed range where each is ridden (the switch is usually between
            10 and 30 km/h).
          </p>
          <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
            {([0, 1] as const).map((i) => (
              <fieldset
                key={i}
                className="grid grid-cols-2 gap-3 rounded-md p-3 ring-1 ring-slate-200"
              >
                <legend className="px-1 text-sm font-medium text-slate-700">
                  Position {i + 1}
                </legend>
                <Field
                  label={`Position ${i + 1} name`}
                  inputMode="text"
                  value={form.positions[i].name}
                  onChange={(v) => setPos(i, 'name', v)}
                  error={errors[`pos${i}.name`]}
                />
                <Field
                  label={`Position ${i + 1} CdA`}
                  unit="m²"
                  value={form.positions[i].cda}
                  onChange={(v) => setPos(i, 'cda', v)}
                  error={errors[`pos${i}.cda`]}
                  hint={
                    derived.cda[i] && form.positions[i].cda
                      ? 'Estimate from height and weight: type your measured CdA to replace it.'
                      : undefined
                  }
                />
                <Field
                  label={`Position ${i + 1} from`}
                  unit={speed}
                  value={form.positions[i].minSpeed}
                  onChange={(v) => setPos(i, 'minSpeed', v)}
                  error={errors[`pos${i}.minSpeed`]}
                />
                <Field
                  label={`Position ${i + 1} to`}
                  unit={speed}
                  value={form.positions[i].maxSpeed}
                  onChange={(v) => setPos(i, 'maxSpeed', v)}
                  error={errors[`pos${i}.maxSpeed`]}
                />
              </fieldset>
            ))}
          </div>
          <div className="mt-3 flex flex-wrap items-center gap-3 text-sm">
            <Button variant="secondary" onClick={applyEstimate} disabled={!canEstimate}>
              Estimate CdA from height and weight
            </Button>
            <span className="text-xs text-slate-500">
              {canEstimate
                ? `Estimate: ${estimate.map((p) => `${p.name} ${p.cda.toFixed(3)} m²`).join(', ')} (frontal area from height and weight, scheibo/calc coefficients).`
                : 'Enter the rider’s height and weight to get an estimate.'}
            </span>
          </div>
          <RideCalibrationPanel rider={calibrationRider} onApply={applyRideCalibration} />
        </Card>
        <Card title="Tyres" className="lg:col-span-2">
          <div className="grid grid-cols-1 gap-3 sm:grid-cols-4">
            <Select
              label="Tyres"
              value={form.tyre}
              onChange={chooseTyre}
              options={TYRES.map((t) => ({ value: t.value, label: t.label }))}
            />
            <Field
              label="Crr on smooth roads"
              value={form.crrSmooth}
              onChange={(v) => setForm((f) => ({ ...f, tyre: 'custom', crrSmooth: v }))}
              error={errors.crrSmooth}
            />
            <Field
              label="Crr on normal roads"
              value={form.crrNormal}
              onChange={(v) => setForm((f) => ({ ...f, tyre: 'custom', crrNormal: v }))}
              error={errors.crrNormal}
            />
            <Field
              label="Crr on rough roads"
              value={form.crrRough}
              onChange={(v) => setForm((f) => ({ ...f, tyre: 'custom', crrRough: v }))}
              error={errors.crrRough}
            />
          </div>
        </Card>
        <div className="flex items-center gap-3 lg:col-span-2">
          <Button type="submit" disabled={saving}>
            {saving ? 'Saving…' : setup ? 'Save' : 'Create rider setup'}
          </Button>
          <Link to="/simulation/riders" className="text-sm text-slate-600 underline">
            Back to rider setups
          </Link>
          {status ? (
            <p
              role={status.ok ? 'status' : 'alert'}
              className={`text-sm ${status.ok ? 'text-green-700' : 'text-red-700'}`}
            >
              {status.text}
            </p>
          ) : null}
        </div>
      </form>
    </Page>
  )
}

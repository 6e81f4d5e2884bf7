// The aero session's analysis inputs (mass, Crr, η, air, the stated wind, reference speed and
// power) in the user's units, saved as the session's environment.
import { zodResolver } from '@hookform/resolvers/zod'
import { useMemo, useState } from 'react'
import { useForm, useWatch, type PathValue } from 'react-hook-form'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'
import type { AeroAnalysisSettings, AeroSession } from '@veloptima/contracts'
import { api } from '../../lib/api-client.ts'
import {
  formatQuantity,
  fromDisplay,
  toDisplay,
  unitLabel,
  useUnits,
  type UnitSystem,
} from '../../lib/units.ts'
import { Field, fieldBinder, optionsOf, Select } from '../../components/form.tsx'
import { Button, Card } from './ui.tsx'
import { aeroApi, errorText } from './api.ts'
import { Alert } from './session-parts.tsx'
import { sessionQuery } from './lib/queries.ts'

type SettingsForm = {
  mass: string
  crrMode: 'fit' | 'fixed'
  crr: string
  eta: string
  airMode: 'file' | 'density' | 'weather'
  density: string
  temperature: string
  pressureHpa: string
  humidityPct: string
  refSpeed: string
  refPower: string
  calibration: string
  method: 'auto' | 've' | 'direct'
  /** The stated wind (both empty: none). */
  windSpeed: string
  windFrom: string
}

/** The form's choices and the options of each. */
const CHOICES = {
  crrMode: optionsOf({ fit: 'Fit Crr from the data', fixed: 'Fixed Crr' }),
  airMode: optionsOf({
    file: 'From the file (sensor, else altitude)',
    density: 'Given density',
    weather: 'From temperature, pressure, humidity',
  }),
  method: optionsOf({
    auto: 'Direct where air speed exists, else VE',
    ve: 'Virtual elevation (Chung)',
    direct: 'Direct (air speed)',
  }),
}

const fToC = (f: number) => ((f - 32) * 5) / 9
const cToF = (c: number) => (c * 9) / 5 + 32
const text = (x: number | null | undefined, digits: number) =>
  x == null ? '' : String(Number(x.toFixed(digits)))

function formOf(env: Record<string, unknown>, system: UnitSystem): SettingsForm {
  const s = env as AeroAnalysisSettings
  return {
    mass: text(s.mass_kg != null ? toDisplay('mass', s.mass_kg, system) : null, 1),
    crrMode: s.crr != null ? 'fixed' : 'fit',
    crr: text(s.crr, 5) || '0.004',
    eta: text(s.drivetrain_efficiency != null ? s.drivetrain_efficiency * 100 : 97.6, 1),
    airMode: s.air_density_kg_m3 != null ? 'density' : s.temperature_c != null ? 'weather' : 'file',
    density: text(s.air_density_kg_m3, 4) || '1.2',
    temperature: text(
      s.temperature_c != null
        ? system === 'metric'
          ? s.temperature_c
          : cToF(s.temperature_c)
        : null,
      1,
    ),
    pressureHpa: text(s.pressure_pa != null ? s.pressure_pa / 100 : null, 1),
    humidityPct: text(s.humidity != null ? s.humidity * 100 : null, 0),
    refSpeed: text(toDisplay('speed', s.reference_speed_mps ?? 40 / 3.6, system), 1),
    refPower: text(s.reference_power_w ?? 300, 0),
    calibration: text(s.calibration_factor, 3),
    method: s.method ?? 'auto',
    windSpeed: text(
      s.wind_speed_mps != null ? toDisplay('speed', s.wind_speed_mps, system) : null,
      1,
    ),
    windFrom: text(s.wind_from_deg, 0),
  }
}

function settingsOf(
  f: SettingsForm,
  system: UnitSystem,
): { settings: AeroAnalysisSettings; errors: Partial<Record<keyof SettingsForm, string>> } {
  const errors: Partial<Record<keyof SettingsForm, string>> = {}
  const num = (key: keyof SettingsForm, label: string, lo: number, hi: number, unit: string) => {
    const raw = f[key]
    const v = Number(raw.replace(',', '.'))
    if (raw.trim() === '' || !Number.isFinite(v)) {
      errors[key] = `${label}: enter a number.`
      return NaN
    }
    if (v < lo || v > hi) errors[key] = `${label} must be between ${lo} and ${hi} ${unit}.`
    return v
  }
  const massUnit = unitLabel('mass', system)
  const [mLo, mHi] = [30, 250].map((m) => Math.round(toDisplay('mass', m, system)))
  const settings: AeroAnalysisSettings = {
    mass_kg: fromDisplay('mass', num('mass', 'System mass', mLo!, mHi!, massUnit), system),
    crr: f.crrMode === 'fixed' ? num('crr', 'Crr', 0.0005, 0.03, '') : null,
    drivetrain_efficiency: num('eta', 'Drivetrain efficiency', 80, 100, '%') / 100,
    air_density_kg_m3:
      f.airMode === 'density' ? num('density', 'Air density', 0.6, 1.5, 'kg/m³') : null,
    temperature_c: null,
    pressure_pa: null,
    humidity: null,
    reference_speed_mps: fromDisplay(
      'speed',
      num(
        'refSpeed',
        'Reference speed',
        Math.round(toDisplay('speed', 2, system)),
        Math.round(toDisplay('speed', 30, system)),
        unitLabel('speed', system),
      ),
      system,
    ),
    reference_power_w: num('refPower', 'Reference power', 20, 2000, 'W'),
    method: f.method,
    calibration_factor:
      f.calibration.trim() === '' ? null : num('calibration', 'Calibration factor', 0.5, 3, ''),
  }
  settings.wind_speed_mps = null
  settings.wind_from_deg = null
  if (f.windSpeed.trim() !== '' || f.windFrom.trim() !== '') {
    const speedUnit = unitLabel('speed', system)
    settings.wind_speed_mps = fromDisplay(
      'speed',
      num('windSpeed', 'Wind speed', 0, Math.round(toDisplay('speed', 30, system)), speedUnit),
      system,
    )
    settings.wind_from_deg = num('windFrom', 'Wind direction', 0, 360, '°')
  }
  if (f.airMode === 'weather') {
    const t = num(
      'temperature',
      'Temperature',
      system === 'metric' ? -30 : -22,
      system === 'metric' ? 50 : 122,
      system === 'metric' ? '°C' : '°F',
    )
    settings.temperature_c = system === 'metric' ? t : fToC(t)
    settings.pressure_pa = num('pressureHpa', 'Station pressure', 500, 1100, 'hPa') * 100
    settings.humidity =
      f.humidityPct.trim() === ''
        ? null
        : num('humidityPct', 'Relative humidity', 0, 100, '%') / 100
  }
  return { settings, errors }
}

/** The form's texts checked and turned into the session's analysis settings, with its messages. */
function settingsFormSchema(system: UnitSystem) {
  return z.custom<SettingsForm>().transform((f, ctx): AeroAnalysisSettings => {
    const { settings, errors } = settingsOf(f, system)
    for (const [key, message] of Object.entries(errors)) {
      ctx.addIssue({ code: 'custom', path: [key], message })
    }
    return settings
  })
}

export function SettingsCard({
  session,
  onQueued,
  hasData,
}: {
  session: AeroSession
  onQueued(): void
  hasData: boolean
}) {
  const { system } = useUnits()
  const client = useQueryClient()
  const resolver = useMemo(() => zodResolver(settingsFormSchema(system)), [system])
  const { handleSubmit, setValue, reset, control, getValues } = useForm<
    SettingsForm,
    unknown,
    AeroAnalysisSettings
  >({ resolver, defaultValues: formOf(session.environment, system) })
  const form = { ...getValues(), ...useWatch({ control }) }
  const [shown, setShown] = useState(false)
  const { errors } = settingsOf(form, system)
  const set = <K extends keyof SettingsForm>(k: K, v: SettingsForm[K]) =>
    setValue(k, v as PathValue<SettingsForm, K>)
  const bind = fieldBinder(form, set, errors)
  /** A choice's Select props: its value, its onChange and its options. */
  const choose = <K extends keyof typeof CHOICES>(k: K) => ({
    value: form[k],
    onChange: (v: SettingsForm[K]) => set(k, v),
    options: CHOICES[k],
  })
  const save = useMutation({
    mutationFn: async (settings: AeroAnalysisSettings) => {
      const environment = { ...session.environment, ...settings }
      const s = await api<AeroSession>(`/api/aero-sessions/${session.id}`, {
        method: 'PATCH',
        body: { environment },
      })
      client.setQueryData(sessionQuery(session.id).queryKey, s)
      if (hasData) await aeroApi.analyse(session.id, { label: 'New settings' })
    },
    onSuccess: () => {
      setShown(false)
      onQueued()
    },
  })
  const invalid = Object.keys(errors).length > 0
  const mass = (session.environment as AeroAnalysisSettings).mass_kg
  return (
    <Card title="Analysis inputs">
      <div className="flex flex-wrap items-center justify-between gap-3 text-sm text-slate-600">
        <span>
          {mass != null
            ? `System mass ${formatQuantity('mass', mass, system)}`
            : 'No system mass yet (80 kg assumed)'}{' '}
          · {form.crrMode === 'fit' ? 'Crr fitted' : `Crr ${form.crr}`} · η {form.eta} % ·{' '}
          {form.airMode === 'density'
            ? `ρ ${form.density} kg/m³`
            : form.airMode === 'weather'
              ? 'air from T, p, RH'
              : 'air from the file'}
          {form.windSpeed.trim() !== '' && form.windFrom.trim() !== ''
            ? ` · wind ${form.windSpeed} ${unitLabel('speed', system)} from ${form.windFrom}°`
            : ''}
        </span>
        <Button
          variant="secondary"
          onClick={() => {
            reset(formOf(session.environment, system))
            setShown((s) => !s)
          }}
        >
          {shown ? 'Close' : 'Edit inputs'}
        </Button>
      </div>
      {shown ? (
        <form
          className="mt-4 space-y-4"
          onSubmit={handleSubmit((settings) => save.mutate(settings))}
        >
          <div className="grid gap-4 sm:grid-cols-3">
            <Field
              label="System mass (rider, bike, kit)"
              unit={unitLabel('mass', system)}
              {...bind('mass')}
            />
            <Select label="Rolling resistance" {...choose('crrMode')} />
            {form.crrMode === 'fixed' ? <Field label="Crr" {...bind('crr')} /> : <div />}
            <Field
              label="Drivetrain efficiency"
              unit="%"
              {...bind('eta')}
              hint="97.6 % for crank power; 100 % for a hub"
            />
            <Select label="Air density" {...choose('airMode')} />
            <Select label="Method" {...choose('method')} />
            {form.airMode === 'density' ? (
              <Field label="Air density" unit="kg/m³" {...bind('density')} />
            ) : null}
            {form.airMode === 'weather' ? (
              <>
                <Field
                  label="Temperature"
                  unit={system === 'metric' ? '°C' : '°F'}
                  {...bind('temperature')}
                />
                <Field label="Station pressure" unit="hPa" {...bind('pressureHpa')} />
                <Field label="Relative humidity" unit="%" {...bind('humidityPct')} />
              </>
            ) : null}
            <Field
              label="Reference speed (watts saved)"
              unit={unitLabel('speed', system)}
              {...bind('refSpeed')}
            />
            <Field label="Reference power (time per 40 km)" unit="W" {...bind('refPower')} />
            <Field
              label="Wind speed (stated)"
              unit={unitLabel('speed', system)}
              {...bind('windSpeed')}
              hint="At rider height; empty: not stated"
            />
            <Field
              label="Wind from"
              unit="°"
              {...bind('windFrom')}
              hint="On an out-and-back it separates the crosswind from Crr"
            />
            <Field
              label="Calibration factor (direct method)"
              {...bind('calibration')}
              hint="Empty: the session device's, else 1.400"
            />
          </div>
          {save.isError ? <Alert>{errorText(save.error)}</Alert> : null}
          <Button type="submit" disabled={invalid || save.isPending}>
            {hasData ? 'Save and analyse again' : 'Save'}
          </Button>
        </form>
      ) : null}
    </Card>
  )
}

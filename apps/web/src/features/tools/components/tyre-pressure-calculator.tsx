import { useMemo, useState } from 'react'
import {
  HOOKLESS_MAX_PA,
  recommendTyrePressure,
  type BikeType,
  type Surface,
  type TyrePressureInput,
  type TyrePressureResult,
  type TyreType,
  type WidthKind,
} from '@veloptima/engine'
import { formatQuantity, PA_PER_PSI, useUnits, type UnitSystem } from '../../../lib/units.ts'
import { CheckboxField, NumberField, optionsOf, Select } from '../../../components/form.tsx'
import { millimetres, percent, pressure, quantity } from '../../../components/quantity.ts'
import { useQuantityField } from '../../../components/use-quantity-field.ts'
import { formatPressure, formatPressureOther } from '../lib/display.ts'
import type { QuantityField } from '../../../components/use-quantity-field.ts'
import { Calculator, ResultTile, solveInput, ToolDetails, useChoices } from './fields.tsx'
import { PressureChart } from './pressure-chart.tsx'

const LABELS: Record<string, string> = {
  riderMassKg: 'Rider mass',
  bikeMassKg: 'Bike and kit',
  frontShare: 'Weight on the front',
  tyreWidthMm: 'Tyre width',
  rimInternalWidthMm: 'Rim internal width',
  speedMps: 'Speed',
  tyreMinPressurePa: 'Tyre minimum',
  tyreMaxPressurePa: 'Tyre maximum',
}

/** The engine's warnings in the user's units (the engine speaks kg and psi). */
function localWarnings(r: TyrePressureResult, system: UnitSystem) {
  return r.warnings.map((w) => {
    const wheel = w.message.startsWith('front') ? r.front : r.rear
    const name = w.message.startsWith('front') ? 'Front' : 'Rear'
    const asked = formatPressure(wheel.uncappedPsi * PA_PER_PSI, system)
    switch (w.code) {
      case 'hookless-cap':
        return {
          ...w,
          message: `${name}: the model asks for ${asked}, but hookless rims are limited to ${formatPressure(HOOKLESS_MAX_PA, system)}; a wider tyre would bring the pressure under the limit.`,
        }
      case 'hookless-cap-near':
        return {
          ...w,
          message: `Rear: this setup reaches the ${formatPressure(HOOKLESS_MAX_PA, system)} hookless limit at a rider mass of ${formatQuantity('mass', r.capReachedAtRiderMassKg?.rear ?? 0, system)}.`,
        }
      case 'above-tyre-max':
        return {
          ...w,
          message: `${name}: the model asks for ${asked}, above the tyre's printed maximum; capped there. A wider tyre suits this load better.`,
        }
      case 'below-tyre-min':
        return {
          ...w,
          message: `${name}: the model asks for ${asked}, below the tyre's printed minimum; raised to it.`,
        }
      case 'below-floor':
        return {
          ...w,
          message: `${name}: the model asks for ${asked}, below ${formatPressure(100_000, system)} where rim strikes are likely; raised to it. A narrower tyre suits this load better.`,
        }
      default:
        return w
    }
  })
}

const surfaceText: Record<Surface, string> = {
  smooth: 'smooth tarmac',
  normal: 'normal roads',
  rough: 'rough roads',
  gravel: 'gravel',
}

const tyreText: Record<TyreType, string> = {
  tube: 'tube',
  tubeless: 'tubeless tyre',
  hookless: 'hookless rim',
}

/** The calculator's choices and the options of each. */
const TYRE_CHOICES = {
  bikeType: optionsOf<BikeType>({ road: 'Road', tt: 'Time trial', gravel: 'Gravel' }),
  widthKind: optionsOf<WidthKind>({
    labelled: 'As printed on the tyre',
    measured: 'Measured on the rim',
  }),
  tyreType: optionsOf<TyreType>({
    tube: 'Inner tube',
    tubeless: 'Tubeless, hooked rim',
    hookless: 'Tubeless, hookless rim',
  }),
  surface: optionsOf<Surface>({
    smooth: 'Smooth tarmac',
    normal: 'Normal roads',
    rough: 'Rough roads',
    gravel: 'Gravel',
  }),
}

/** The typical share on the front wheel of each bike type, in per cent. */
const FRONT_SHARE: Record<BikeType, string> = { road: '40', tt: '42', gravel: '38' }

type TyreFields = Record<
  'rider' | 'bike' | 'share' | 'width' | 'rim' | 'speed' | 'tyreMin' | 'tyreMax',
  QuantityField
>
type TyreChoices = Pick<
  TyrePressureInput,
  'bikeType' | 'widthKind' | 'tyreType' | 'surface' | 'wet'
>

/** The engine's pressures for the fields' values, or why there are none. */
function useTyrePressure(fields: TyreFields, choices: TyreChoices) {
  const invalid = Object.values(fields).some((f) => f.invalid)
  const { rider, bike, share, width, rim, speed, tyreMin, tyreMax } = fields
  const [riderKg, bikeKg, shareSi, widthMm, rimMm, speedSi, minPa, maxPa] = [
    rider.si,
    bike.si,
    share.si,
    width.si,
    rim.si,
    speed.si,
    tyreMin.si,
    tyreMax.si,
  ]
  const { bikeType, widthKind, tyreType, surface, wet } = choices
  return useMemo(() => {
    const tyreInput = (): TyrePressureInput | null => {
      if (invalid || riderKg === undefined || bikeKg === undefined) return null
      const input: TyrePressureInput = {
        riderMassKg: riderKg,
        bikeMassKg: bikeKg,
        bikeType,
        tyreWidthMm: widthMm ?? Number.NaN,
        widthKind,
        tyreType,
        surface,
        wet,
      }
      if (shareSi !== undefined) input.frontShare = shareSi
      if (widthKind === 'labelled' && rimMm !== undefined) input.rimInternalWidthMm = rimMm
      if (speedSi !== undefined) input.speedMps = speedSi
      if (minPa !== undefined) input.tyreMinPressurePa = minPa
      if (maxPa !== undefined) input.tyreMaxPressurePa = maxPa
      return input
    }
    return solveInput(tyreInput, recommendTyrePressure, LABELS)
  }, [
    invalid,
    riderKg,
    bikeKg,
    bikeType,
    shareSi,
    widthMm,
    widthKind,
    rimMm,
    tyreType,
    surface,
    wet,
    speedSi,
    minPa,
    maxPa,
  ])
}

function TyreAnswer({
  r,
  system,
  choices,
}: {
  r: TyrePressureResult
  system: UnitSystem
  choices: TyreChoices
}) {
  const { tyreType, surface, wet } = choices
  return (
    <>
      <dl className="grid grid-cols-2 gap-4">
        {(['front', 'rear'] as const).map((w) => (
          <ResultTile key={w} label={w} labelClassName="capitalize">
            <span
              data-testid={`tyre-${w}`}
              className="text-xl font-bold sm:text-2xl tracking-tight text-brand-700"
            >
              {formatPressure(r[w].pressurePa, system)}
            </span>
            <span className="ml-2 text-sm text-slate-600">
              {formatPressureOther(r[w].pressurePa, system)}
            </span>
          </ResultTile>
        ))}
      </dl>
      <p className="mt-3 text-sm text-slate-700" data-testid="tyre-explanation">
        With {formatQuantity('mass', r.systemMassKg, system)} on the bike and{' '}
        {Math.round((1 - r.frontShare) * 100)} % of it on the rear, the rear tyre carries{' '}
        {formatQuantity('mass', r.rear.loadKg, system)}. Our model starts from Berto&apos;s 15 %
        tyre drop at the mean wheel load for a {r.effectiveWidthMm} mm tyre, lifts it ×
        {r.factors.calibration} to the level of SILCA, Zipp and ENVE, puts the rear{' '}
        {Math.round((r.rearToFrontRatio - 1) * 100)} % above the front and scales it by{' '}
        {(r.factors.total / r.factors.calibration).toFixed(2)} for {surfaceText[surface]}
        {wet ? ' in the wet' : ''} and a {tyreText[tyreType]}.
      </p>
      {tyreType === 'hookless' &&
      r.capReachedAtRiderMassKg &&
      !r.warnings.some((w) => w.code.startsWith('hookless-cap')) ? (
        <p className="mt-2 text-sm text-slate-700">
          The rear reaches the 5 bar hookless limit at a rider mass of{' '}
          {formatQuantity('mass', r.capReachedAtRiderMassKg.rear, system)}.
        </p>
      ) : null}
      <ToolDetails warnings={localWarnings(r, system)} assumptions={[r.basis, ...r.assumptions]}>
        <PressureChart
          result={r}
          system={system}
          capPa={tyreType === 'hookless' ? HOOKLESS_MAX_PA : null}
        />
      </ToolDetails>
    </>
  )
}

export function TyrePressureCalculator() {
  const { system } = useUnits()
  const fields: TyreFields = {
    rider: useQuantityField(quantity('mass'), 75),
    bike: useQuantityField(quantity('mass'), 9),
    share: useQuantityField(percent, undefined, true),
    width: useQuantityField(millimetres, 28),
    rim: useQuantityField(millimetres, 21),
    speed: useQuantityField(quantity('speed', 1), undefined, true),
    tyreMin: useQuantityField(pressure, undefined, true),
    tyreMax: useQuantityField(pressure, undefined, true),
  }
  const [selected, choose] = useChoices(TYRE_CHOICES, {
    bikeType: 'road',
    widthKind: 'labelled',
    tyreType: 'tubeless',
    surface: 'normal',
  })
  const [wet, setWet] = useState(false)
  const choices: TyreChoices = { ...selected, wet }
  const outcome = useTyrePressure(fields, choices)
  const sidewall = 'Optional: printed on the sidewall.'

  return (
    <Calculator
      title="Tyre pressure"
      labelledBy="tyre-pressure-title"
      intro="Front and rear pressures from the load on each wheel, the tyre's real width and the road."
      outcome={outcome}
      result={(r) => <TyreAnswer r={r} system={system} choices={choices} />}
    >
      <NumberField name="rider_mass" label="Rider mass" field={fields.rider} />
      <NumberField name="bike_mass" label="Bike and kit" field={fields.bike} />
      <Select name="bike_type" label="Bike type" {...choose('bikeType')} />
      <NumberField
        name="front_share"
        label="Weight on the front"
        field={fields.share}
        placeholder={FRONT_SHARE[selected.bikeType]}
        hint="Empty: typical for the bike type."
      />
      <NumberField name="tyre_width" label="Tyre width" field={fields.width} />
      <Select name="width_kind" label="Width is" {...choose('widthKind')} />
      {selected.widthKind === 'labelled' ? (
        <NumberField
          name="rim_internal_width"
          label="Rim internal width"
          field={fields.rim}
          hint="Wider rims spread the tyre."
        />
      ) : null}
      <Select name="tyre_type" label="Tyre and rim" {...choose('tyreType')} />
      <Select name="surface" label="Surface" {...choose('surface')} />
      <CheckboxField name="wet" label="Wet roads" checked={wet} onChange={setWet} />
      <NumberField name="speed" label="Typical speed" field={fields.speed} hint="Optional." />
      <div aria-hidden="true" />
      <NumberField name="tyre_min" label="Tyre minimum" field={fields.tyreMin} hint={sidewall} />
      <NumberField name="tyre_max" label="Tyre maximum" field={fields.tyreMax} hint={sidewall} />
    </Calculator>
  )
}

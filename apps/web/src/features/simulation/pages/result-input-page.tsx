// The exact inputs that produced a result: the snapshot stored with the version, not the
// current state of the course, setup or optimization.
import { Link, useParams } from 'react-router'
import { formatQuantity, useUnits } from '../../../lib/units.ts'
import { Card, Page, PageHeader, Stat } from '../components/ui.tsx'
import { compassPoint, formatDate, formatEventStart } from '../lib/format.ts'
import { OVERRIDE_FIELDS, fieldUnit, showValue, valueOf } from '../lib/setup-override.ts'
import type { OptimizationInputs } from '../lib/engine-input.ts'
import { setupOfSnapshot, type Snapshot } from '../lib/snapshot.ts'
import { clockOf } from '../lib/race-plan-form.ts'
import { useResultOf } from '../components/item-unavailable.tsx'

export function ResultInputPage() {
  const { simId, id } = useParams()
  const { loaded: result, unavailable } = useResultOf(simId, id, 'the inputs')
  const r = result.data
  if (unavailable || !r) return unavailable
  const s = r.inputs as unknown as Snapshot
  const setup = setupOfSnapshot(s.rider_setup)
  const inputs = s.optimization.inputs ?? {}
  return (
    <Page>
      <PageHeader
        title={`Inputs of version ${r.version}`}
        description={`As they were when the run started (${formatDate(r.created_at)}), even if the course or setup changed since.`}
      >
        <Link
          className="rounded-md px-3 py-2 text-sm font-semibold text-slate-700 ring-1 ring-slate-300"
          to={`/simulation/optimizations/${s.optimization.type}/${simId}/results/${r.id}`}
        >
          Back to the result
        </Link>
      </PageHeader>
      <div className="mt-4 grid grid-cols-1 gap-4 lg:grid-cols-3">
        <CourseCard course={s.course} />
        <SetupCard setup={setup} override={inputs.rider_override} />
        <ConditionsCard inputs={inputs} />
      </div>
    </Page>
  )
}

type Inputs = NonNullable<OptimizationInputs>

function CourseCard({ course }: { course: Snapshot['course'] }) {
  const { system } = useUnits()
  return (
    <Card title={`Course: ${course.name}`}>
      <dl className="grid grid-cols-2 gap-2">
        <Stat
          label="Distance"
          value={course.stats ? formatQuantity('distance', course.stats.distance, system, 2) : '—'}
        />
        <Stat
          label="Ascent"
          value={course.stats ? formatQuantity('elevation', course.stats.ascent, system, 0) : '—'}
        />
        <Stat label="Segments" value={course.segments.length} />
        <Stat label="Surface" value={course.settings?.surface ?? 'normal'} />
      </dl>
    </Card>
  )
}

function SetupCard({
  setup,
  override,
}: {
  setup: ReturnType<typeof setupOfSnapshot>
  override: Inputs['rider_override']
}) {
  const { system } = useUnits()
  return (
    <Card title={`Rider setup: ${setup.name}`}>
      <dl className="grid grid-cols-2 gap-2" data-testid="snapshot-setup">
        <Stat label="Rider weight" value={formatQuantity('mass', setup.rider_mass, system)} />
        <Stat
          label="Bike + kit"
          value={formatQuantity('mass', setup.bike_mass + setup.extra_mass, system)}
        />
        {setup.positions.map((p, i) => (
          <Stat key={i} label={`CdA position ${i + 1}`} value={`${p.cda.toFixed(3)} m²`} />
        ))}
        <Stat label="Crr (normal road)" value={setup.crr?.normal ?? '—'} />
        <Stat label="Drivetrain" value={`${(setup.drivetrain_efficiency * 100).toFixed(1)} %`} />
        <Stat
          label="CP / W′"
          value={setup.cp ? `${setup.cp} W / ${((setup.w_prime ?? 0) / 1000).toFixed(1)} kJ` : '—'}
        />
      </dl>
      {override ? (
        <div className="mt-3 text-sm" data-testid="snapshot-override">
          <p className="font-medium text-amber-900">Adjusted for this optimization:</p>
          <ul>
            {OVERRIDE_FIELDS.filter((f) => valueOf(override, f.key) !== undefined).map((f) => (
              <li key={f.key}>
                {f.label}: {showValue(f.key, valueOf(override, f.key), system) || 'none'}{' '}
                {fieldUnit(f, system)}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </Card>
  )
}

function ConditionsCard({ inputs }: { inputs: Inputs }) {
  const { system } = useUnits()
  const env = inputs.environment ?? {}
  const c = inputs.constraint ?? { type: 'w_prime_balance' as const }
  return (
    <Card title="Conditions and limit">
      <dl className="grid grid-cols-2 gap-2">
        <Stat
          label="Temperature"
          value={env.temperature_c !== undefined ? `${env.temperature_c.toFixed(1)} °C` : '—'}
        />
        <Stat
          label="Air"
          value={
            env.pressure_pa !== undefined
              ? `${(env.pressure_pa / 100).toFixed(0)} hPa`
              : env.pressure_altitude_m !== undefined
                ? formatQuantity('elevation', env.pressure_altitude_m, system, 0)
                : 'course altitude'
          }
        />
        <Stat
          label="Wind"
          value={`${formatQuantity('speed', env.wind_speed_mps ?? 0, system)} from ${env.wind_from_deg ?? 0}°`}
        />
        <Stat
          label="Constraint"
          value={
            c.type === 'w_prime_balance'
              ? 'W′ balance ≥ 0'
              : c.type === 'target_time'
                ? `Target time ${clockOf(c.time_s)}`
                : `${c.type === 'normalized_power' ? 'NP' : 'Average'} ${c.power_w} W`
          }
        />
        <Stat label="Targets" value={inputs.max_targets ?? 12} />
        {env.event_start ? (
          <Stat label="Event start" value={formatEventStart(env.event_start)} />
        ) : null}
      </dl>
      {env.wind_segments?.length ? (
        <ul className="mt-3 text-sm" data-testid="snapshot-wind-segments">
          {env.wind_segments.map((w, i) => (
            <li key={i}>
              Wind {formatQuantity('distance', w.start_m, system, 2)} –{' '}
              {formatQuantity('distance', w.end_m, system, 2)}:{' '}
              {formatQuantity('speed', w.wind_speed_mps, system)} from {w.wind_from_deg}° (
              {compassPoint(w.wind_from_deg)})
            </li>
          ))}
        </ul>
      ) : null}
      {inputs.equipment ? (
        <ul className="mt-3 text-sm">
          {Object.entries(inputs.equipment.groups).map(([name, options]) => (
            <li key={name}>
              <strong>{name}</strong>:{' '}
              {options
                .map(
                  (o) =>
                    `${o.name}${inputs.equipment?.baseline?.[name] === o.name ? ' (baseline)' : ''}`,
                )
                .join(', ')}
            </li>
          ))}
        </ul>
      ) : null}
    </Card>
  )
}

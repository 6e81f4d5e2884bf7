import { useQuery } from '@tanstack/react-query'
import { Link } from 'react-router'
import { pacingGaps } from '@veloptima/contracts'
import { formatQuantity, useUnits } from '../../../lib/units.ts'
import { ItemLink, OwnedList } from '../components/owned-list.tsx'
import { ButtonLink, Page, PageHeader } from '../components/ui.tsx'
import { riderSetupListQuery } from '../lib/queries.ts'
import { BIKE_TYPES } from '../lib/setup-form.ts'

export function RidersPage() {
  const { system } = useUnits()
  const setups = useQuery(riderSetupListQuery())
  return (
    <Page>
      <PageHeader
        title="Rider setups"
        description="A rider with a bike: masses, positions with their CdA, tyres, drivetrain, CP and W′."
      >
        <ButtonLink to="/simulation/riders/new">New rider setup</ButtonLink>
      </PageHeader>
      <div className="mt-6">
        <OwnedList
          list={setups}
          what="rider setups"
          collection="rider-setups"
          empty={
            <>
              No rider setups yet.{' '}
              <Link className="text-brand-700 underline" to="/simulation/riders/new">
                Create your first
              </Link>
              .
            </>
          }
          name={(s) => (
            <>
              <ItemLink to={`/simulation/riders/${s.id}`}>{s.name}</ItemLink>
              <p className="text-xs text-slate-500">
                {BIKE_TYPES.find((b) => b.value === s.bike_type)?.label}
              </p>
              {pacingGaps(s).length > 0 ? (
                <p className="text-xs font-medium text-amber-800" data-testid="setup-gaps">
                  A pacing plan needs{' '}
                  {pacingGaps(s)
                    .map((g) => g.label)
                    .join(' and ')}
                  : open the setup to add {pacingGaps(s).length > 1 ? 'them' : 'it'}.
                </p>
              ) : null}
            </>
          )}
          facts={(s) => (
            <p className="text-sm text-slate-700 tabular-nums">
              {formatQuantity('mass', s.rider_mass, system)} · CdA{' '}
              {s.positions.map((p) => p.cda.toFixed(3)).join(' / ')} m²
              {s.cp ? ` · CP ${s.cp} W` : ''}
            </p>
          )}
        />
      </div>
    </Page>
  )
}

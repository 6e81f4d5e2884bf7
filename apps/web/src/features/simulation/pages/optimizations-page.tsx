import { useQuery } from '@tanstack/react-query'
import { Link, useSearchParams } from 'react-router'
import { ItemLink, OwnedList } from '../components/owned-list.tsx'
import { ButtonLink, Page, PageHeader } from '../components/ui.tsx'
import { optimizationListQuery } from '../lib/queries.ts'
import { formatDate } from '../lib/format.ts'

const TITLES = { pacing: 'Pacing optimizations', equipment: 'Equipment optimizations' } as const

export function OptimizationsPage() {
  const [params] = useSearchParams()
  const raw = params.get('type')
  const type = raw === 'pacing' || raw === 'equipment' ? raw : null
  const list = useQuery(optimizationListQuery(type))
  const tab = (t: 'pacing' | 'equipment' | null, label: string) => (
    <Link
      to={t ? `?type=${t}` : '.'}
      aria-current={type === t ? 'page' : undefined}
      className={`rounded-md px-3 py-1.5 text-sm font-medium ${type === t ? 'bg-slate-900 text-white' : 'text-slate-700 hover:bg-slate-100'}`}
    >
      {label}
    </Link>
  )
  return (
    <Page>
      <PageHeader
        title={type ? TITLES[type] : 'Optimizations'}
        description="Pacing finds the power plan that finishes fastest within your limits; equipment ranks options by the time they save."
      >
        <ButtonLink to="/simulation/optimizations/new?type=pacing">
          New pacing optimization
        </ButtonLink>
        <ButtonLink to="/simulation/optimizations/new?type=equipment">
          New equipment optimization
        </ButtonLink>
      </PageHeader>
      <nav className="mt-4 flex gap-2" aria-label="Optimization type">
        {tab(null, 'All')}
        {tab('pacing', 'Pacing')}
        {tab('equipment', 'Equipment')}
      </nav>
      <div className="mt-4">
        <OwnedList
          list={list}
          what="optimizations"
          collection="optimizations"
          empty="No optimizations yet."
          name={(o) => (
            <ItemLink to={`/simulation/optimizations/${o.type}/${o.id}`}>{o.name}</ItemLink>
          )}
          facts={(o) => (
            <span className="text-xs text-slate-500">
              {o.type} · updated {formatDate(o.updated_at)}
            </span>
          )}
        />
      </div>
    </Page>
  )
}

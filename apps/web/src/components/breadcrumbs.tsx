import { Link, useMatches, type UIMatch } from 'react-router'
import { ChevronRight, HomeIcon } from './icons.tsx'

/** A route's breadcrumb flag: a fixed label, or one made from the route's loader data. */
export type Crumb = string | ((loaderData: unknown) => string)
export type CrumbHandle = { crumb?: Crumb }

/** The trail of the routes flagged with `handle.crumb`, after a home icon. */
export function Breadcrumbs() {
  const matches = useMatches() as UIMatch<unknown, CrumbHandle | undefined>[]
  const crumbs = matches
    .filter((m) => m.handle?.crumb)
    .map((m) => {
      const crumb = m.handle!.crumb!
      return { path: m.pathname, label: typeof crumb === 'string' ? crumb : crumb(m.loaderData) }
    })
  if (crumbs.length === 0) return null
  return (
    <nav aria-label="Breadcrumb" className="mb-6">
      <ol className="flex flex-wrap items-center gap-1.5 text-sm text-slate-500">
        <li>
          <Link to="/" className="flex items-center rounded p-0.5 hover:text-brand-700">
            <HomeIcon className="h-4 w-4" />
            <span className="sr-only">Home</span>
          </Link>
        </li>
        {crumbs.map((c, i) => (
          <li key={c.path} className="flex items-center gap-1.5">
            <ChevronRight className="h-3.5 w-3.5 text-slate-400" />
            {i === crumbs.length - 1 ? (
              <span aria-current="page" className="font-medium text-slate-900">
                {c.label}
              </span>
            ) : (
              <Link to={c.path} className="hover:text-brand-700">
                {c.label}
              </Link>
            )}
          </li>
        ))}
      </ol>
    </nav>
  )
}

// A list page's items (courses, rider setups, optimizations): loading, error and empty states,
// then one row per item with its name and facts, and who owns it with the move control.
import { useQueryClient, type UseQueryResult } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { OwnerControl, type OwnedItem } from '../../../components/owner-control.tsx'
import { EmptyState, ErrorBox, Loading } from './ui.tsx'

/** An item's name in a list, linking to its page. */
export function ItemLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link to={to} className="font-medium text-slate-900 hover:text-brand-700">
      {children}
    </Link>
  )
}

export function OwnedList<T extends OwnedItem>({
  list,
  what,
  collection,
  empty,
  name,
  facts,
}: {
  list: UseQueryResult<T[]>
  /** What is loading, e.g. "courses". */
  what: string
  /** The API path segment, also the key of the list's queries. */
  collection: 'courses' | 'rider-setups' | 'optimizations'
  empty: ReactNode
  /** The item's link and what describes it, on the left. */
  name(item: T): ReactNode
  /** Its figures, on the right before the owner. */
  facts(item: T): ReactNode
}) {
  const client = useQueryClient()
  return (
    <>
      {list.error ? <ErrorBox>{list.error.message}</ErrorBox> : null}
      {list.isPending ? <Loading what={what} /> : null}
      {list.data?.length === 0 ? <EmptyState>{empty}</EmptyState> : null}
      {list.data && list.data.length > 0 ? (
        <ul className="divide-y divide-slate-200 rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
          {list.data.map((item) => (
            <li
              key={item.id}
              className="flex flex-wrap items-center justify-between gap-2 px-4 py-3"
            >
              <div>{name(item)}</div>
              <div className="flex flex-wrap items-center gap-3">
                {facts(item)}
                <OwnerControl
                  collection={collection}
                  item={item}
                  onMoved={() => void client.invalidateQueries({ queryKey: [collection] })}
                />
              </div>
            </li>
          ))}
        </ul>
      ) : null}
    </>
  )
}

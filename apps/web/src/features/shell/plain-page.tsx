import type { ReactNode } from 'react'
import { Breadcrumbs } from '../../components/breadcrumbs.tsx'
import { UnitToggle } from '../../components/unit-toggle.tsx'

/** A page without side menu: breadcrumbs, optional unit toggle, content. */
export function PlainPage({
  children,
  unitToggle = false,
}: {
  children: ReactNode
  unitToggle?: boolean
}) {
  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-8 sm:px-6 lg:px-8">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <Breadcrumbs />
        {unitToggle && (
          <div className="w-48">
            <UnitToggle compact />
          </div>
        )}
      </div>
      {children}
    </div>
  )
}

import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Link, useNavigate } from 'react-router'
import { formatQuantity, useUnits } from '../../../lib/units.ts'
import { CourseUpload } from '../components/course-upload.tsx'
import { OwnerControl } from '../../../components/owner-control.tsx'
import { EmptyState, ErrorBox, Loading, Page, PageHeader } from '../components/ui.tsx'
import { courseListQuery } from '../lib/queries.ts'
import { formatDate } from '../lib/format.ts'

export function CoursesPage() {
  const { system } = useUnits()
  const navigate = useNavigate()
  const client = useQueryClient()
  const courses = useQuery(courseListQuery())
  return (
    <Page>
      <PageHeader
        title="Courses"
        description="Upload the course of your event. Its segments, grades and bends drive every simulation."
      />
      <div className="mt-4">
        <CourseUpload onImported={(c) => navigate(`/simulation/courses/${c.id}`)} />
      </div>
      <div className="mt-6">
        {courses.error ? <ErrorBox>{courses.error.message}</ErrorBox> : null}
        {courses.isPending ? <Loading what="courses" /> : null}
        {courses.data?.length === 0 ? (
          <EmptyState>No courses yet: upload one above.</EmptyState>
        ) : null}
        {courses.data && courses.data.length > 0 ? (
          <ul className="divide-y divide-slate-200 rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
            {courses.data.map((c) => (
              <li
                key={c.id}
                className="flex flex-wrap items-center justify-between gap-2 px-4 py-3"
              >
                <div>
                  <Link
                    to={`/simulation/courses/${c.id}`}
                    className="font-medium text-slate-900 hover:text-brand-700"
                  >
                    {c.name}
                  </Link>
                  {c.sample ? (
                    <span className="ml-2 rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-600">
                      sample
                    </span>
                  ) : null}
                  <p className="text-xs text-slate-500">
                    {c.source_format?.toUpperCase() ?? 'course'} · updated{' '}
                    {formatDate(c.updated_at)}
                  </p>
                </div>
                <div className="flex flex-wrap items-center gap-3">
                  {c.stats ? (
                    <p className="text-sm text-slate-700 tabular-nums">
                      {formatQuantity('distance', c.stats.distance, system)} · ↑{' '}
                      {formatQuantity('elevation', c.stats.ascent, system, 0)} · ↓{' '}
                      {formatQuantity('elevation', c.stats.descent, system, 0)}
                    </p>
                  ) : null}
                  <OwnerControl
                    collection="courses"
                    item={c}
                    onMoved={() => void client.invalidateQueries({ queryKey: ['courses'] })}
                  />
                </div>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </Page>
  )
}

import { useQuery } from '@tanstack/react-query'
import { useNavigate } from 'react-router'
import { formatQuantity, useUnits } from '../../../lib/units.ts'
import { CourseUpload } from '../components/course-upload.tsx'
import { ItemLink, OwnedList } from '../components/owned-list.tsx'
import { Page, PageHeader } from '../components/ui.tsx'
import { courseListQuery } from '../lib/queries.ts'
import { formatDate } from '../lib/format.ts'

export function CoursesPage() {
  const { system } = useUnits()
  const navigate = useNavigate()
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
        <OwnedList
          list={courses}
          what="courses"
          collection="courses"
          empty="No courses yet: upload one above."
          name={(c) => (
            <>
              <ItemLink to={`/simulation/courses/${c.id}`}>{c.name}</ItemLink>
              {c.sample ? (
                <span className="ml-2 rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-600">
                  sample
                </span>
              ) : null}
              <p className="text-xs text-slate-500">
                {c.source_format?.toUpperCase() ?? 'course'} · updated {formatDate(c.updated_at)}
              </p>
            </>
          )}
          facts={(c) =>
            c.stats ? (
              <p className="text-sm text-slate-700 tabular-nums">
                {formatQuantity('distance', c.stats.distance, system)} · ↑{' '}
                {formatQuantity('elevation', c.stats.ascent, system, 0)} · ↓{' '}
                {formatQuantity('elevation', c.stats.descent, system, 0)}
              </p>
            ) : null
          }
        />
      </div>
    </Page>
  )
}

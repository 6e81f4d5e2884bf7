// Exports of a result's plan, written in the browser by @veloptima/formats: CSV, FIT course with
// power targets, GPX with the plan in extensions, each carrying the plan's targets as the race
// sheet lists them; the race sheet is this page printed (race-sheet.tsx).
import { useState } from 'react'
import type * as Formats from '@veloptima/formats'
import {
  downloadFile,
  errorMessage,
  useApiData,
  type Course,
  type OptimizationResult,
} from '../lib/api.ts'
import type { PacingOutput } from '../lib/run-output.ts'
import type { Snapshot } from '../lib/snapshot.ts'
import { Button, ErrorBox } from './ui.tsx'

function save(data: BlobPart, type: string, name: string) {
  const url = URL.createObjectURL(new Blob([data], { type }))
  const a = document.createElement('a')
  a.href = url
  a.download = name
  document.body.appendChild(a)
  a.click()
  a.remove()
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000)
}

const fileBase = (s: string) => s.replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '') || 'plan'

export function ExportButtons({
  output,
  snapshot,
  result,
}: {
  output: PacingOutput
  snapshot: Snapshot
  result: OptimizationResult
}) {
  const course = useApiData<Course>(`/api/courses/${snapshot.course.id}`)
  const [error, setError] = useState<string | null>(null)
  const track = course.data?.track
  const name = `${snapshot.optimization.name} v${result.version}`
  const points: Formats.ExportPoint[] | undefined = track?.lat.map((lat, i) => ({
    lat,
    lon: track.lon[i]!,
    ele: track.ele[i]!,
    distanceM: track.distance[i]!,
  }))
  const base = fileBase(name)
  // The writers (and Garmin's FIT SDK) load on the first export, not with the page; the plan's
  // sections and targets are converted by the same function the API's stored export uses.
  const run = (f: (w: typeof Formats, plan: Formats.PlanExport) => void) => {
    setError(null)
    import('@veloptima/formats')
      .then((w) =>
        f(w, {
          name,
          sections: w.exportSections(output.plan, output.targets),
          ...(points ? { points } : {}),
        }),
      )
      .catch((e: unknown) => setError(errorMessage(e)))
  }
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap gap-2">
        <Button
          variant="secondary"
          onClick={() => run((w, plan) => save(w.writePlanCsv(plan), 'text/csv', `${base}.csv`))}
        >
          Download CSV
        </Button>
        <Button
          variant="secondary"
          disabled={!track}
          onClick={() =>
            run((w, plan) =>
              save(
                w.writePlanFitCourse(plan) as BlobPart,
                'application/vnd.ant.fit',
                `${base}.fit`,
              ),
            )
          }
        >
          Download FIT course
        </Button>
        <Button
          variant="secondary"
          disabled={!track}
          onClick={() =>
            run((w, plan) => save(w.writePlanGpx(plan), 'application/gpx+xml', `${base}.gpx`))
          }
        >
          Download GPX
        </Button>
        <Button variant="secondary" onClick={() => window.print()}>
          Print race sheet
        </Button>
        {result.export_file_id ? (
          <Button
            variant="secondary"
            onClick={() =>
              void downloadFile(result.export_file_id!).catch((e) => setError(errorMessage(e)))
            }
          >
            Server export of the run
          </Button>
        ) : null}
      </div>
      {!track && !course.loading ? (
        <p className="text-xs text-slate-500">
          FIT and GPX need the course's positions
          {course.error ? `: ${course.error.message}` : ' (this course has none)'}.
        </p>
      ) : null}
      {error ? <ErrorBox>{error}</ErrorBox> : null}
    </div>
  )
}

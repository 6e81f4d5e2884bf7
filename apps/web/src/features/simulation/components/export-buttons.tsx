// Exports of a result's plan, written in the browser by @veloptima/formats from the table of plan
// formats the command line uses too: FIT course with power targets and the fuel plan's feeds, GPX
// with the plan in extensions, CSV, and the trainer files (ERG, MRC, Zwift workout, FIT workout),
// each carrying the plan's targets as the race sheet lists them; the race sheet is this page
// printed (race-sheet.tsx).
import { Suspense, use, useState } from 'react'
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

/** The file name of a format's download: the fit workout apart from the fit course. */
const fileName = (base: string, name: Formats.PlanFormatName, extension: string) =>
  `${base}${name === 'fit-workout' ? '-workout' : ''}.${extension}`

type Loaded = { formats: typeof Formats } | { error: string }
let loading: Promise<Loaded> | null = null
/**
 * The writers (and Garmin's FIT SDK) are a chunk of their own, fetched when the export card is
 * first shown, not with the page; a failed fetch is tried again on the next showing.
 */
function loadFormats(): Promise<Loaded> {
  loading ??= import('@veloptima/formats').then(
    (formats) => ({ formats }),
    (e: unknown) => {
      loading = null
      return { error: errorMessage(e) }
    },
  )
  return loading
}

export function ExportButtons(props: {
  output: PacingOutput
  snapshot: Snapshot
  result: OptimizationResult
  /** the rider's CP the run used (MRC and ZWO set their targets relative to it) */
  cpW: number | null
}) {
  return (
    <Suspense
      fallback={
        <p role="status" className="text-sm text-slate-500">
          Loading the export formats…
        </p>
      }
    >
      <FormatButtons {...props} />
    </Suspense>
  )
}

function FormatButtons({
  output,
  snapshot,
  result,
  cpW,
}: {
  output: PacingOutput
  snapshot: Snapshot
  result: OptimizationResult
  cpW: number | null
}) {
  const loaded = use(loadFormats())
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
  const cp = cpW !== null && cpW > 0 ? cpW : undefined
  // The plan's sections, targets and feeds are converted by the same functions the command line
  // uses, and each file written by the same table of formats (packages/formats/src/export).
  const download = (w: typeof Formats, format: Formats.PlanFormatName) => {
    setError(null)
    try {
      const sections = w.exportSections(output.plan, output.targets)
      const feeds = w.exportFeeds(output.fuel, sections.at(-1)?.endM ?? 0)
      const f = w.PLAN_FORMATS[format]
      const file = fileName(base, format, f.extension)
      const plan: Formats.PlanExport = {
        name,
        sections,
        ...(points ? { points } : {}),
        ...(feeds.length > 0 ? { feeds } : {}),
      }
      save(f.write(plan, { cpW: cp, fileName: file }) as BlobPart, f.mediaType, file)
    } catch (e) {
      setError(errorMessage(e))
    }
  }
  if ('error' in loaded) return <ErrorBox>The export formats did not load: {loaded.error}</ErrorBox>
  const w = loaded.formats
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap gap-2">
        {w.PLAN_FORMAT_NAMES.map((format) => {
          const f = w.PLAN_FORMATS[format]
          return (
            <Button
              key={format}
              variant="secondary"
              disabled={(f.route === true && !track) || (f.cp === true && cp === undefined)}
              onClick={() => download(w, format)}
            >
              Download {f.title}
            </Button>
          )
        })}
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
      <p className="text-xs text-slate-500">
        FIT course and GPX follow the route on a head unit (the FIT course marks each target and
        each feed); ERG, MRC, Zwift and FIT workouts ride the plan on a trainer
        {cp === undefined ? ' (MRC and Zwift need the rider’s CP, which this run has none of)' : ''}
        .
      </p>
      {!track && !course.loading ? (
        <p className="text-xs text-slate-500">
          FIT course and GPX need the course's positions
          {course.error ? `: ${course.error.message}` : ' (this course has none)'}.
        </p>
      ) : null}
      {error ? <ErrorBox>{error}</ErrorBox> : null}
    </div>
  )
}

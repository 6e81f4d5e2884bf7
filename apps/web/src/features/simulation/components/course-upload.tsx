// Drag-and-drop (or pick) a GPX/TCX/FIT file; the upload shows its progress and the API's
// message when the file is not a course (which names the problem). The course goes to the team
// the user works in unless "Save in" says otherwise (Personal or another of their teams).
import { useId, useRef, useState, type DragEvent } from 'react'
import { humanError, MessageDetails } from '../../../components/message-details.tsx'
import { OwnerSelect, useNewItemOwner } from '../../../components/owner-control.tsx'
import { toast } from '../../../lib/toast.tsx'
import { errorMessage, uploadCourse, type ImportedCourse } from '../lib/api.ts'

const ACCEPT = '.gpx,.tcx,.fit,application/gpx+xml,application/vnd.garmin.tcx+xml'

export function CourseUpload({ onImported }: { onImported(course: ImportedCourse): void }) {
  const inputId = useId()
  const input = useRef<HTMLInputElement>(null)
  const [over, setOver] = useState(false)
  const [progress, setProgress] = useState<number | null>(null)
  const [error, setError] = useState<{ message: string; detail?: string } | null>(null)
  const [owner, setOwner, teams] = useNewItemOwner()

  async function upload(file: File) {
    setError(null)
    setProgress(0)
    try {
      const course = await uploadCourse(file, setProgress, owner)
      // What the import repaired (a point off the route's line left out) outlives the navigation.
      for (const warning of course.warnings ?? []) toast.warning(`${file.name}: ${warning}`)
      onImported(course)
    } catch (e) {
      const { message, detail } = humanError(
        e instanceof Error ? e : new Error(errorMessage(e)),
        'The upload failed; try again in a moment.',
      )
      setError({ message: `${file.name}: ${message}`, detail })
    } finally {
      setProgress(null)
      if (input.current) input.current.value = ''
    }
  }

  function onDrop(e: DragEvent) {
    e.preventDefault()
    setOver(false)
    const file = e.dataTransfer.files[0]
    if (file) void upload(file)
  }

  return (
    <div>
      <div
        onDragOver={(e) => {
          e.preventDefault()
          setOver(true)
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        data-testid="course-dropzone"
        className={`rounded-lg border-2 border-dashed p-6 text-center text-sm ${over ? 'border-brand-600 bg-brand-50' : 'border-slate-300 bg-white'}`}
      >
        <p className="text-slate-700">Drop a GPX, TCX or FIT file here, or</p>
        <label
          htmlFor={inputId}
          className="mt-2 inline-block cursor-pointer rounded-md bg-brand-600 px-3 py-2 font-semibold text-white hover:bg-brand-700"
        >
          Choose a course file
        </label>
        <input
          id={inputId}
          ref={input}
          type="file"
          accept={ACCEPT}
          className="sr-only"
          aria-label="Course file"
          onChange={(e) => {
            const file = e.target.files?.[0]
            if (file) void upload(file)
          }}
        />
        <p className="mt-2 text-xs text-slate-600">
          Routes and recorded rides both work; the elevation is cleaned of spikes on import.
        </p>
        <OwnerSelect value={owner} onChange={setOwner} teams={teams} className="mt-3" />
        {progress !== null ? (
          <div className="mx-auto mt-3 max-w-sm">
            <progress className="w-full" max={1} value={progress} aria-label="Upload progress" />
            <p className="text-xs text-slate-500">
              {progress < 1 ? `Uploading… ${Math.round(progress * 100)} %` : 'Reading the course…'}
            </p>
          </div>
        ) : null}
      </div>
      {error ? <MessageDetails {...error} className="mt-2" /> : null}
    </div>
  )
}

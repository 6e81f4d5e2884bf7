// `veloptima wheels INPUT.json`: front/rear wheel recommendation as JSON. Besides `course`
// (segments), the input may name a course file (`course_file`: GPX, TCX, FIT or our JSON,
// relative to the input file), imported and segmented like every course.
import { readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { recommendWheels, ToolInputError } from '@veloptima/engine'
import { importCourse } from '@veloptima/formats'
import { runToolCommand } from './tyre-pressure.ts'

export function wheelsCommand(args: string[]): Promise<number> {
  const base = args[0] && args[0] !== '-' ? dirname(resolve(args[0])) : process.cwd()
  return runToolCommand('wheels', args, (raw) => {
    const input = raw as Record<string, unknown> | null
    if (!input || typeof input !== 'object' || input.courseFile === undefined) {
      return recommendWheels(raw)
    }
    if (typeof input.courseFile !== 'string') {
      throw new ToolInputError('courseFile', 'courseFile: expected a file path')
    }
    const path = resolve(base, input.courseFile)
    let bytes: Uint8Array
    try {
      bytes = new Uint8Array(readFileSync(path))
    } catch (e) {
      throw new ToolInputError(
        'courseFile',
        `courseFile: cannot read ${path} (${(e as Error).message})`,
      )
    }
    const { course } = importCourse(bytes, path)
    const segments = Array.from({ length: course.n }, (_, i) => ({
      lengthM: course.length[i]!,
      grade: course.grade[i]!,
      headingDeg: (course.heading[i]! * 180) / Math.PI,
    }))
    const { courseFile: _file, ...rest } = input
    const name = path.split('/').pop() ?? path
    return recommendWheels({ ...rest, course: { name, segments } })
  })
}

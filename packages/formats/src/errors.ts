// One error class for everything that stops a file from becoming a course. `code` is stable
// (API and CLI map it), the message names the file and what is wrong with it.
import type { CourseErrorCode } from '@veloptima/engine'

export type ImportErrorCode =
  | 'empty_file'
  | 'unknown_format'
  | 'invalid_xml'
  | 'invalid_json'
  | 'invalid_fit'
  | 'no_track_points'
  // Activity files (aero analysis): a ride the analysis cannot use.
  | 'not_an_activity'
  | 'missing_power'
  | 'missing_speed'
  | 'invalid_csv'
  | CourseErrorCode

export class ImportError extends Error {
  constructor(
    readonly code: ImportErrorCode,
    message: string,
    readonly fileName: string | null = null,
  ) {
    super(fileName ? `${fileName}: ${message}` : message)
    this.name = 'ImportError'
  }
}

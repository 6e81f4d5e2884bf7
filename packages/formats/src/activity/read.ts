// A recorded activity (field test or ride) from bytes, by content: FIT, TCX, GPX, GoldenCheetah
// JSON, iBike CSV or a generic CSV → ImportedActivity. Throws ImportError with a stable code
// and the file name: empty_file, not_an_activity, missing_power, missing_speed, invalid_csv,
// invalid_xml, invalid_json, invalid_fit.
import { ImportError } from '../errors.ts'
import { isFitFile } from '../fit.ts'
import { parseXml } from '../xml.ts'
import { readGenericCsv } from './csv.ts'
import { readIbikeCsv } from './csv-ibike.ts'
import { readFitActivity } from './fit.ts'
import { isGcJson, readGcJson } from './gc-json.ts'
import { finishActivity } from './types.ts'
import type { ImportedActivity, RawActivity, ReadActivityOptions } from './types.ts'
import { readGpxActivity, readTcxActivity } from './xml.ts'

export function readActivity(
  bytes: Uint8Array,
  fileName: string | null,
  opts: ReadActivityOptions = {},
): ImportedActivity {
  return finishActivity(readRaw(bytes, fileName, opts), fileName)
}

function readRaw(
  bytes: Uint8Array,
  fileName: string | null,
  opts: ReadActivityOptions,
): RawActivity {
  if (bytes.length === 0) throw new ImportError('empty_file', 'the file is empty', fileName)
  if (isFitFile(bytes)) return readFitActivity(bytes, fileName, opts)
  let text = new TextDecoder('utf-8').decode(bytes)
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1)
  const head = text.trimStart()
  if (head === '')
    throw new ImportError('empty_file', 'the file contains only white space', fileName)
  // Binary that is not FIT: NUL bytes or undecodable sequences early on.
  const sample = head.slice(0, 4096)
  let bad = 0
  for (let i = 0; i < sample.length; i++) {
    const c = sample.charCodeAt(i)
    if (c < 9 || (c > 13 && c < 32) || c === 0xfffd) bad++
  }
  if (bad > 0 && bad >= sample.length / 100) {
    throw new ImportError(
      'not_an_activity',
      'not an activity file (expected FIT, TCX, GPX, GoldenCheetah JSON or CSV; got binary data)',
      fileName,
    )
  }
  if (head.startsWith('{') || head.startsWith('[')) {
    let data: unknown
    try {
      data = JSON.parse(head)
    } catch (e) {
      throw new ImportError('invalid_json', `not valid JSON (${(e as Error).message})`, fileName)
    }
    if (isGcJson(data)) return readGcJson(data, fileName)
    throw new ImportError(
      'not_an_activity',
      'JSON without a "RIDE" object: only GoldenCheetah ride files are read as activities',
      fileName,
    )
  }
  if (head.startsWith('<')) {
    const doc = parseXml(head, fileName)
    const root = doc.documentElement!.localName
    if (root === 'gpx') return readGpxActivity(doc)
    if (root === 'TrainingCenterDatabase') return readTcxActivity(doc)
    throw new ImportError('not_an_activity', `XML root <${root}> is neither GPX nor TCX`, fileName)
  }
  if (/^iBike,\s*\d+\s*,/i.test(head)) return readIbikeCsv(head, fileName)
  return readGenericCsv(head, fileName)
}

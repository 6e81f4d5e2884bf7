// Content sniffing: the type of an upload comes from its bytes, never from the name or the
// Content-Type the browser sent (both are easy to get wrong or to forge).

export type SniffedType = {
  kind: 'gpx' | 'tcx' | 'fit' | 'csv' | 'json' | 'png' | 'jpeg' | 'pdf'
  contentType: string
  extension: string
}

const types: Record<SniffedType['kind'], Omit<SniffedType, 'kind'>> = {
  gpx: { contentType: 'application/gpx+xml', extension: 'gpx' },
  tcx: { contentType: 'application/vnd.garmin.tcx+xml', extension: 'tcx' },
  fit: { contentType: 'application/vnd.ant.fit', extension: 'fit' },
  csv: { contentType: 'text/csv; charset=utf-8', extension: 'csv' },
  json: { contentType: 'application/json', extension: 'json' },
  png: { contentType: 'image/png', extension: 'png' },
  jpeg: { contentType: 'image/jpeg', extension: 'jpg' },
  pdf: { contentType: 'application/pdf', extension: 'pdf' },
}

const of = (kind: SniffedType['kind']): SniffedType => ({ kind, ...types[kind] })

const startsWith = (bytes: Uint8Array, prefix: number[]) => prefix.every((b, i) => bytes[i] === b)

/** A FIT file: header of 12 or 14 bytes with ".FIT" at offset 8 (FIT protocol, file header). */
export function isFit(bytes: Uint8Array): boolean {
  const headerSize = bytes[0]
  return (
    bytes.length >= 12 &&
    (headerSize === 12 || headerSize === 14) &&
    String.fromCharCode(...bytes.subarray(8, 12)) === '.FIT'
  )
}

/** The name of the first element of an XML document, skipping the prolog, comments and a BOM. */
export function xmlRootName(text: string): string | undefined {
  const body = text.replace(/^\uFEFF/, '')
  const re = /<(\?[^>]*\?|!--[\s\S]*?--|!DOCTYPE[^>]*|([A-Za-z_][\w.:-]*))/g
  let match: RegExpExecArray | null
  while ((match = re.exec(body))) {
    if (match[2]) return match[2].replace(/^.*:/, '')
  }
  return undefined
}

function isText(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, 8192)
  if (head.includes(0)) return false
  try {
    // stream: a character cut at the 8 KiB boundary is not an error.
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: head.length < bytes.length })
    return true
  } catch {
    return false
  }
}

/** Recognizes the file types the product stores; undefined for anything else. */
export function sniff(bytes: Uint8Array): SniffedType | undefined {
  if (bytes.length === 0) return undefined
  if (isFit(bytes)) return of('fit')
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return of('png')
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return of('jpeg')
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d])) return of('pdf')
  if (!isText(bytes)) return undefined
  const head = new TextDecoder().decode(bytes.subarray(0, 65536)).replace(/^\uFEFF/, '')
  const trimmed = head.trimStart()
  if (trimmed.startsWith('<')) {
    const root = xmlRootName(trimmed)
    if (root === 'gpx') return of('gpx')
    if (root === 'TrainingCenterDatabase') return of('tcx')
    return undefined
  }
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      JSON.parse(new TextDecoder().decode(bytes))
      return of('json')
    } catch {
      return undefined
    }
  }
  // The Velocomp iBike export: a line "iBike,<version>,<units>", then lines of other lengths.
  if (/^iBike,\d+,/i.test(trimmed)) return of('csv')
  // CSV: at least a header line and one more line with the same number of comma/semicolon fields.
  const lines = trimmed
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '')
    .slice(0, 5)
  if (lines.length >= 2) {
    const sep = lines[0]!.includes(';') && !lines[0]!.includes(',') ? ';' : ','
    const n = lines[0]!.split(sep).length
    if (n >= 2 && lines.slice(1).every((l) => l.split(sep).length === n)) return of('csv')
  }
  return undefined
}

/** What a user sees when a file is refused: what we found, and what we accept. */
export function describeUnknown(bytes: Uint8Array, filename: string): string {
  if (bytes.length === 0) return `${filename} is empty.`
  return `${filename} is not a file type we accept (GPX, TCX, FIT, CSV, JSON, PNG, JPEG or PDF): its contents match none of them.`
}

import { createHash, createHmac } from 'node:crypto'

// AWS Signature Version 4 for S3-compatible servers (header form, single-chunk payload), as
// described in "Authenticating Requests: Using the Authorization Header (AWS Signature Version 4)".
// Written out here rather than pulling in the whole AWS SDK: the storage driver needs only
// PUT, GET and DELETE of one object.

export type SigV4Credentials = { accessKeyId: string; secretAccessKey: string; region: string }

export type SigV4Request = {
  method: string
  url: URL
  /** Extra headers to sign (lower- or mixed-case names). */
  headers?: Record<string, string>
  /** Hex SHA-256 of the body (`sha256Hex(body)`), or 'UNSIGNED-PAYLOAD'. */
  payloadHash: string
  /** The request time. */
  date: Date
}

export const sha256Hex = (data: Uint8Array | string) =>
  createHash('sha256').update(data).digest('hex')

const hmac = (key: Uint8Array | string, data: string) =>
  createHmac('sha256', key).update(data).digest()

/** RFC 3986 encoding as S3 wants it: everything but unreserved characters; keep '/' in paths. */
export function uriEncode(value: string, keepSlash: boolean): string {
  return Array.from(new TextEncoder().encode(value), (byte) => {
    const c = String.fromCharCode(byte)
    if (/[A-Za-z0-9\-._~]/.test(c) || (keepSlash && c === '/')) return c
    return `%${byte.toString(16).toUpperCase().padStart(2, '0')}`
  }).join('')
}

const amzDate = (date: Date) =>
  date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '')

/** Returns the headers to send: the given ones plus host, x-amz-date, x-amz-content-sha256, authorization. */
export function signRequest(
  credentials: SigV4Credentials,
  request: SigV4Request,
): Record<string, string> {
  const time = amzDate(request.date)
  const day = time.slice(0, 8)
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(request.headers ?? {})) {
    headers[name.toLowerCase()] = value.trim().replace(/\s+/g, ' ')
  }
  headers.host = request.url.host
  headers['x-amz-date'] = time
  headers['x-amz-content-sha256'] = request.payloadHash
  const names = Object.keys(headers).sort()
  const query = [...request.url.searchParams.entries()]
    .map(([k, v]) => [uriEncode(k, false), uriEncode(v, false)] as const)
    .sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : 1) : a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&')
  const canonical = [
    request.method,
    uriEncode(decodeURIComponent(request.url.pathname), true),
    query,
    names.map((n) => `${n}:${headers[n]}\n`).join(''),
    names.join(';'),
    request.payloadHash,
  ].join('\n')
  const scope = `${day}/${credentials.region}/s3/aws4_request`
  const stringToSign = ['AWS4-HMAC-SHA256', time, scope, sha256Hex(canonical)].join('\n')
  let key = hmac(`AWS4${credentials.secretAccessKey}`, day)
  for (const part of [credentials.region, 's3', 'aws4_request']) key = hmac(key, part)
  const signature = createHmac('sha256', key).update(stringToSign).digest('hex')
  return {
    ...headers,
    authorization: `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${scope},SignedHeaders=${names.join(';')},Signature=${signature}`,
  }
}

import { Readable } from 'node:stream'
import type { ReadableStream } from 'node:stream/web'
import { checkKey, FileMissingError, type FileStorage } from './storage.ts'
import { sha256Hex, signRequest, uriEncode } from './sigv4.ts'

export type S3Options = {
  bucket: string
  region: string
  /** e.g. http://127.0.0.1:9000 for MinIO; AWS when absent. */
  endpoint?: string | undefined
  accessKeyId: string
  secretAccessKey: string
  forcePathStyle: boolean
}

/** Objects in an S3-compatible bucket, one object per key, requests signed with SigV4. */
export class S3Storage implements FileStorage {
  readonly driver = 's3' as const

  constructor(
    private readonly options: S3Options,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  /** The object's URL: path style (endpoint/bucket/key) or virtual-hosted (bucket.endpoint/key). */
  objectUrl(key: string): URL {
    const { bucket, region, endpoint, forcePathStyle } = this.options
    const base = new URL(endpoint ?? `https://s3.${region}.amazonaws.com`)
    const path = uriEncode(checkKey(key), true)
    if (forcePathStyle) return new URL(`${base.origin}/${bucket}/${path}`)
    return new URL(`${base.protocol}//${bucket}.${base.host}/${path}`)
  }

  private async send(method: string, key: string, body?: Uint8Array, headers = {}) {
    const url = this.objectUrl(key)
    const signed = signRequest(this.options, {
      method,
      url,
      headers,
      payloadHash: sha256Hex(body ?? ''),
      date: new Date(),
    })
    delete signed.host
    return this.fetchImpl(url, { method, headers: signed, body: body as RequestInit['body'] })
  }

  async put(key: string, body: Uint8Array): Promise<void> {
    const res = await this.send('PUT', key, body, { 'content-length': String(body.byteLength) })
    if (!res.ok) throw new Error(`S3 PUT ${key}: ${res.status} ${await res.text()}`)
  }

  async get(key: string): Promise<Readable> {
    const res = await this.send('GET', key)
    if (res.status === 404) throw new FileMissingError(key)
    if (!res.ok || !res.body) throw new Error(`S3 GET ${key}: ${res.status} ${await res.text()}`)
    return Readable.fromWeb(res.body as ReadableStream)
  }

  async delete(key: string): Promise<void> {
    const res = await this.send('DELETE', key)
    if (!res.ok && res.status !== 404) {
      throw new Error(`S3 DELETE ${key}: ${res.status} ${await res.text()}`)
    }
  }
}

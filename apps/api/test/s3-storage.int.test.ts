// The S3 driver against a real S3-protocol server (s3rver, from npm) running in this process on a
// loopback port over a temporary directory: no mocks of the SDK. s3rver parses the SigV4
// authorization (header and presigned query), checks the access key (its built-in account is
// S3RVER / S3RVER) and a presigned URL's expiry, but does not recompute V4 signature values.
import { createHash } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import { Readable } from 'node:stream'
import { buffer, text } from 'node:stream/consumers'
import {
  CreateBucketCommand,
  DeleteBucketCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
} from '@aws-sdk/client-s3'
import S3rver from 's3rver'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { PART_BYTES, S3Storage, type S3Options } from '../src/files/s3-storage.ts'
import { FileMissingError } from '../src/files/storage.ts'
import { createUser, postFile, syntheticGpx, tempDir } from './files-helpers.ts'
import { startTestApp, type TestApp } from './helpers.ts'

const BUCKET = 'veloptima-test'
const sha256 = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex')

/** Byte i of the large test object: a fixed pattern, so any slice can be recomputed. */
const patternByte = (i: number) => (i * 31 + (i >> 12) * 7) & 0xff
function patternSlice(start: number, end: number): Buffer {
  const out = Buffer.alloc(end - start)
  for (let i = start; i < end; i++) out[i - start] = patternByte(i)
  return out
}

/** A stream of `total` pattern bytes made 1 MiB at a time (never held whole), counting what was read. */
function patternStream(total: number, progress: { produced: number }): Readable {
  const chunk = 1024 * 1024
  return Readable.from(
    (function* () {
      for (let at = 0; at < total; at += chunk) {
        const piece = patternSlice(at, Math.min(total, at + chunk))
        progress.produced += piece.length
        yield piece
      }
    })(),
  )
}

describe('S3 storage through the AWS SDK against s3rver', () => {
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    directory: tempDir('s3rver'),
    silent: true,
  })
  let options: S3Options
  let storage: S3Storage
  /** Names of the SDK commands the storage sent (lib-storage's upload included). */
  const commands: string[] = []

  beforeAll(async () => {
    const { port } = (await server.run()) as AddressInfo
    options = {
      bucket: BUCKET,
      region: 'us-east-1',
      endpoint: `http://127.0.0.1:${port}`,
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
    }
    storage = new S3Storage(options)
    storage.client.middlewareStack.add(
      (next, context) => (args) => {
        commands.push(String(context.commandName))
        return next(args)
      },
      { step: 'initialize' },
    )
    await storage.client.send(new CreateBucketCommand({ Bucket: BUCKET }))
  })
  afterAll(() => server.close())

  it('puts, reads back, replaces and deletes an object; a missing key is FileMissingError', async () => {
    await storage.put('exports/plan.csv', Buffer.from('distance,power\n0,250\n'), 'text/csv')
    expect(await text(await storage.get('exports/plan.csv'))).toBe('distance,power\n0,250\n')
    await storage.put('exports/plan.csv', Buffer.from('distance,power\n0,260\n'))
    expect(await text(await storage.get('exports/plan.csv'))).toBe('distance,power\n0,260\n')
    await storage.delete('exports/plan.csv')
    await expect(storage.get('exports/plan.csv')).rejects.toBeInstanceOf(FileMissingError)
    await expect(storage.get('never/stored.gpx')).rejects.toBeInstanceOf(FileMissingError)
    await storage.delete('exports/plan.csv') // deleting a missing key is not an error
  })

  it('is refused by the server under an unknown access key (the SDK signs every request)', async () => {
    const wrong = new S3Storage({ ...options, accessKeyId: 'NOT-A-KEY' })
    await expect(wrong.put('uploads/x.gpx', Buffer.from('x'))).rejects.toMatchObject({
      name: 'InvalidAccessKeyId',
    })
    await expect(wrong.get('uploads/x.gpx')).rejects.toMatchObject({ name: 'InvalidAccessKeyId' })
  })

  it('refuses keys that could leave the bucket prefix', async () => {
    for (const key of ['../x', 'a/../../x', '/etc/passwd', 'A/B', 'a//b', '']) {
      await expect(storage.put(key, Buffer.from('x'))).rejects.toThrow(/invalid storage key/)
    }
  })

  it('streams a 12 MiB upload as a multipart upload of 5 MiB parts and reads it back whole and by range', async () => {
    const total = 12 * 1024 * 1024
    const progress = { produced: 0 }
    commands.length = 0
    await storage.put('uploads/large.fit', patternStream(total, progress))
    expect(progress.produced).toBe(total)
    // 12 MiB in 5 MiB parts: 3 parts, between one create and one complete (no single PUT).
    expect(commands.filter((c) => c === 'UploadPartCommand')).toHaveLength(
      Math.ceil(total / PART_BYTES),
    )
    expect(commands).toContain('CreateMultipartUploadCommand')
    expect(commands).toContain('CompleteMultipartUploadCommand')
    expect(commands).not.toContain('PutObjectCommand')

    // The checksum of the whole download against the pattern recomputed here.
    const hash = createHash('sha256')
    let read = 0
    for await (const piece of await storage.get('uploads/large.fit')) {
      hash.update(piece as Buffer)
      read += (piece as Buffer).length
    }
    expect(read).toBe(total)
    expect(hash.digest('hex')).toBe(sha256(patternSlice(0, total)))

    // A range across the first part boundary (HTTP Range: both ends inclusive).
    const start = PART_BYTES - 10
    const slice = await buffer(await storage.get('uploads/large.fit', { start, end: start + 19 }))
    expect(slice).toEqual(patternSlice(start, start + 20))
    const tail = await buffer(await storage.get('uploads/large.fit', { start: total - 5 }))
    expect(tail).toEqual(patternSlice(total - 5, total))
    await storage.delete('uploads/large.fit')
  })

  it('gives presigned URLs only when enabled; they serve the object to plain fetch, then expire', async () => {
    expect(storage.presign).toBeUndefined()
    const presigning = new S3Storage({ ...options, presignedDownloads: true })
    await presigning.put('exports/ride.gpx', Buffer.from('<gpx/>'))
    const presign = (expiresInSeconds: number) =>
      presigning.presign!('exports/ride.gpx', {
        expiresInSeconds,
        contentType: 'application/gpx+xml',
        contentDisposition: 'attachment; filename="ride.gpx"',
      })
    const url = await presign(60)
    expect(url.startsWith(`${options.endpoint}/${BUCKET}/exports/ride.gpx?`)).toBe(true)
    expect(new URL(url).searchParams.get('X-Amz-Expires')).toBe('60')
    const res = await fetch(url)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/gpx+xml')
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="ride.gpx"')
    expect(await res.text()).toBe('<gpx/>')
    // A link signed a minute ago for 1 s has expired: Date alone is set back, and only while the
    // link is signed, so the check neither waits nor races the clock.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() - 60_000 })
    const expired = await presign(1).finally(() => vi.useRealTimers())
    expect(new URL(expired).searchParams.get('X-Amz-Expires')).toBe('1')
    const late = await fetch(expired)
    expect(late.status).toBe(403)
    expect(await late.text()).toMatch(/expired/)
  })

  describe('the bucket at start and in readiness', () => {
    /** What `prepare` logged: level and message. */
    const logged = () => {
      const lines: { level: string; message: string; details: object }[] = []
      const log = {
        info: (details: object, message: string) => lines.push({ level: 'info', message, details }),
        warn: (details: object, message: string) => lines.push({ level: 'warn', message, details }),
      }
      return { lines, log }
    }

    it('creates a missing bucket at start when the credentials allow it, and says so', async () => {
      const bucket = 'veloptima-created-at-start'
      const fresh = new S3Storage({ ...options, bucket })
      expect(await fresh.check()).toMatchObject({ ready: false })
      const { lines, log } = logged()
      await fresh.prepare(log)
      expect(lines).toEqual([
        {
          level: 'info',
          message: `S3 bucket ${bucket} at ${options.endpoint} was missing: created it`,
          details: { bucket, endpoint: options.endpoint },
        },
      ])
      // The server has it now (asked with the SDK directly), and the storage is ready.
      await storage.client.send(new HeadBucketCommand({ Bucket: bucket }))
      expect(await fresh.check()).toEqual({ ready: true, where: bucket })
      // A second start (another process) finds it and logs nothing.
      const again = logged()
      await new S3Storage({ ...options, bucket }).prepare(again.log)
      expect(again.lines).toEqual([])
    })

    it('is not ready, naming the bucket, when the credentials cannot reach or create it', async () => {
      const wrong = new S3Storage({
        ...options,
        bucket: 'veloptima-never-made',
        accessKeyId: 'NOT-A-KEY',
      })
      const { lines, log } = logged()
      await wrong.prepare(log)
      expect(lines.map((l) => l.level)).toEqual(['warn'])
      expect(lines[0]!.message).toContain('veloptima-never-made')
      const check = await wrong.check()
      expect(check.ready).toBe(false)
      expect(check.problem).toMatch(
        /the S3 bucket veloptima-never-made at .* cannot be reached: .*403/,
      )
      // Nothing was created under the right account either.
      await expect(
        storage.client.send(new HeadBucketCommand({ Bucket: 'veloptima-never-made' })),
      ).rejects.toMatchObject({ $metadata: { httpStatusCode: 404 } })
    })

    it('GET /api/ready answers 503 naming the bucket while it is missing, 200 once it exists', async () => {
      const bucket = 'veloptima-ready'
      const t = await startTestApp({
        STORAGE_DRIVER: 's3',
        S3_BUCKET: bucket,
        S3_ENDPOINT: options.endpoint!,
        S3_ACCESS_KEY_ID: options.accessKeyId,
        S3_SECRET_ACCESS_KEY: options.secretAccessKey,
        // The identity provider's part is health.int.test.ts's: here a key set that answers.
        AUTH_JWKS_URL: `${options.endpoint}/${BUCKET}/jwks.json`,
      })
      await storage.put('jwks.json', Buffer.from('{"keys":[{"kty":"RSA"}]}'))
      try {
        // Created at start (the credentials may): ready.
        const first = await t.app.inject({ url: '/api/ready' })
        expect(first.statusCode, first.body).toBe(200)
        expect(first.json().storage).toEqual({ driver: 's3', ready: true, where: bucket })
        await storage.client.send(new DeleteBucketCommand({ Bucket: bucket }))
        const missing = await t.app.inject({ url: '/api/ready' })
        expect(missing.statusCode).toBe(503)
        expect(missing.json()).toMatchObject({ status: 'not-ready', missing: ['bucket'] })
        expect(missing.json().problems[0]).toContain(
          `the S3 bucket ${bucket} at ${options.endpoint} does not exist`,
        )
        await storage.client.send(new CreateBucketCommand({ Bucket: bucket }))
        const back = await t.app.inject({ url: '/api/ready' })
        expect(back.statusCode, back.body).toBe(200)
      } finally {
        await t.close()
        await storage.delete('jwks.json')
      }
    })
  })

  describe('the files API with STORAGE_DRIVER=s3', () => {
    // Two apps on the same bucket (each start migrates a database, so they are shared by tests):
    // proxied downloads with the default upload limit, and presigned downloads with a 64 KiB one.
    const apps = new Map<string, Promise<{ t: TestApp; auth: { authorization: string } }>>()
    const start = (env: Record<string, string> = {}) => {
      const name = JSON.stringify(env)
      if (!apps.has(name)) apps.set(name, open(env))
      return apps.get(name)!
    }
    const presigned = { S3_PRESIGNED_DOWNLOADS: 'true', MAX_UPLOAD_BYTES: '65536' }
    const open = async (env: Record<string, string>) => {
      const t = await startTestApp({
        STORAGE_DRIVER: 's3',
        S3_BUCKET: BUCKET,
        S3_ENDPOINT: options.endpoint!,
        S3_ACCESS_KEY_ID: options.accessKeyId,
        S3_SECRET_ACCESS_KEY: options.secretAccessKey,
        S3_FORCE_PATH_STYLE: 'true',
        ...env,
      })
      await createUser(t.database, 'alice')
      return { t, auth: await t.bearer({ uid: 'alice' }) }
    }
    const keys = async () =>
      (
        await storage.client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'uploads/' }))
      ).Contents?.map((o) => o.Key) ?? []
    afterAll(async () => {
      for (const app of apps.values()) await (await app).t.close()
    })

    const post = (t: TestApp, auth: object, gpx: string, fields = {}) =>
      postFile(t.app, '/api/files', auth, 'ride.gpx', gpx, fields)
    async function upload(t: TestApp, auth: object, gpx: string) {
      const res = await post(t, auth, gpx)
      expect(res.statusCode).toBe(201)
      return res.json() as { id: string; sha256: string; size: number }
    }

    it('streams a 12 MB upload through the API into the bucket as a multipart upload', async () => {
      const { t, auth } = await start()
      const sent: string[] = []
      const { client } = t.app.files.storage as S3Storage
      client.middlewareStack.add(
        (next, context) => (args) => {
          sent.push(String(context.commandName))
          return next(args)
        },
        { step: 'initialize' },
      )
      const gpx = syntheticGpx(180_000, 'Long synthetic ride')
      expect(Buffer.byteLength(gpx)).toBeGreaterThan(2 * PART_BYTES)
      const file = await upload(t, auth, gpx)
      expect(file).toMatchObject({ size: Buffer.byteLength(gpx), sha256: sha256(gpx) })
      expect(sent.filter((c) => c === 'UploadPartCommand')).toHaveLength(
        Math.ceil(Buffer.byteLength(gpx) / PART_BYTES),
      )
      const stored = await storage.get(`uploads/${file.id}.gpx`)
      expect(sha256(await buffer(stored))).toBe(file.sha256)
    })

    it('leaves nothing in the bucket when an upload is refused (too large, wrong type, foreign team)', async () => {
      const { t, auth } = await start(presigned)
      const before = await keys()
      const tooLarge = await post(t, auth, syntheticGpx(2000))
      expect(tooLarge.statusCode).toBe(413)
      expect(tooLarge.json()).toMatchObject({ code: 'file-too-large' })
      const wrongType = await post(t, auth, 'just some words, not a track')
      expect(wrongType.statusCode).toBe(415)
      // The owner field comes after the file: the bytes are stored first, then removed.
      const foreign = await post(t, auth, syntheticGpx(20), {
        owner: '00000000-0000-4000-8000-000000000000',
      })
      expect(foreign.statusCode).toBe(404)
      expect(await keys()).toEqual(before)
    })

    it('uploads into the bucket, downloads through the API signed link, deletes from the bucket', async () => {
      const { t, auth } = await start()
      const gpx = syntheticGpx(80)
      const file = await upload(t, auth, gpx)
      expect(file.sha256).toBe(sha256(gpx))
      expect(await keys()).toContain(`uploads/${file.id}.gpx`)

      const link = await t.app.inject({ url: `/api/files/${file.id}/download-url`, headers: auth })
      const url = new URL(link.json().url)
      expect(url.pathname).toBe('/api/files/download')
      const download = await t.app.inject({ url: `${url.pathname}${url.search}` })
      expect(download.statusCode).toBe(200)
      expect(download.body).toBe(gpx)

      const removed = await t.app.inject({
        method: 'DELETE',
        url: `/api/files/${file.id}`,
        headers: auth,
      })
      expect(removed.statusCode).toBe(204)
      expect(await keys()).not.toContain(`uploads/${file.id}.gpx`)
    })

    it('with S3_PRESIGNED_DOWNLOADS=true hands out a bucket URL that plain fetch downloads', async () => {
      const { t, auth } = await start(presigned)
      const gpx = syntheticGpx(30, 'Presigned loop')
      const file = await upload(t, auth, gpx)
      const link = await t.app.inject({ url: `/api/files/${file.id}/download-url`, headers: auth })
      const { url, expires_at } = link.json() as { url: string; expires_at: string }
      expect(url.startsWith(`${options.endpoint}/${BUCKET}/uploads/${file.id}.gpx?`)).toBe(true)
      expect(Date.parse(expires_at)).toBeGreaterThan(Date.now())
      const res = await fetch(url)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('application/gpx+xml')
      expect(res.headers.get('content-disposition')).toContain('filename="ride.gpx"')
      expect(sha256(Buffer.from(await res.arrayBuffer()))).toBe(file.sha256)
    })
  })
})

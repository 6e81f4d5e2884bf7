import { createServer, type IncomingMessage } from 'node:http'
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AddressInfo } from 'node:net'
import { text } from 'node:stream/consumers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../config.ts'
import { LocalStorage } from './local-storage.ts'
import { S3Storage } from './s3-storage.ts'
import { sha256Hex } from './sigv4.ts'
import { createStorage, FileMissingError, StorageConfigError } from './storage.ts'

describe('local file storage', () => {
  const root = mkdtempSync(join(tmpdir(), 'veloptima-storage-'))
  const storage = new LocalStorage(root)

  it('stores, reads back, replaces and deletes bytes under a key', async () => {
    await storage.put('uploads/a.gpx', Buffer.from('first'))
    expect(await text(await storage.get('uploads/a.gpx'))).toBe('first')
    await storage.put('uploads/a.gpx', Buffer.from('second'))
    expect(readFileSync(join(root, 'uploads/a.gpx'), 'utf8')).toBe('second')
    expect(readdirSync(join(root, 'uploads'))).toEqual(['a.gpx'])
    await storage.delete('uploads/a.gpx')
    await expect(storage.get('uploads/a.gpx')).rejects.toBeInstanceOf(FileMissingError)
    await storage.delete('uploads/a.gpx')
  })

  it('refuses keys that could leave the storage root', async () => {
    for (const key of ['../x', 'a/../../x', '/etc/passwd', 'A/B', 'a//b', '']) {
      await expect(storage.put(key, Buffer.from('x'))).rejects.toThrow(/invalid storage key/)
    }
  })
})

describe('storage configuration', () => {
  it('defaults to a local directory under DATA_DIR/files', async () => {
    const config = loadConfig({ DATA_DIR: '/tmp/vdata' })
    const storage = await createStorage(config)
    expect(storage.driver).toBe('local')
    expect((storage as LocalStorage).root).toBe('/tmp/vdata/files')
  })

  it('stops the start with the missing variables named when S3 is half configured', async () => {
    expect(() => loadConfig({ STORAGE_DRIVER: 's3', S3_BUCKET: 'b' })).toThrow(ConfigError)
    expect(() => loadConfig({ STORAGE_DRIVER: 's3', S3_BUCKET: 'b' })).toThrow(
      /S3_ACCESS_KEY_ID: required when STORAGE_DRIVER=s3\n.*S3_SECRET_ACCESS_KEY: required/,
    )
    const config = { ...loadConfig({}), STORAGE_DRIVER: 's3' as const, S3_BUCKET: 'b' }
    await expect(createStorage(config)).rejects.toThrow(StorageConfigError)
  })
})

describe('S3 storage requests (against a local HTTP server that records them)', () => {
  const objects = new Map<string, Buffer>()
  const seen: { method: string; url: string; headers: IncomingMessage['headers'] }[] = []
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const c of req) chunks.push(c as Buffer)
    const body = Buffer.concat(chunks)
    seen.push({ method: req.method!, url: req.url!, headers: req.headers })
    // The server checks what it can without the secret: the body hash the client signed.
    if (req.headers['x-amz-content-sha256'] !== sha256Hex(body)) {
      res.writeHead(400).end('XAmzContentSHA256Mismatch')
      return
    }
    if (req.method === 'PUT') objects.set(req.url!, body)
    if (req.method === 'DELETE') objects.delete(req.url!)
    if (req.method === 'GET') {
      const found = objects.get(req.url!)
      if (!found) return void res.writeHead(404).end('NoSuchKey')
      return void res.writeHead(200).end(found)
    }
    res.writeHead(200).end()
  })
  let storage: S3Storage

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    storage = new S3Storage({
      bucket: 'veloptima',
      region: 'eu-central-1',
      endpoint: `http://127.0.0.1:${port}`,
      accessKeyId: 'AKIDEXAMPLE',
      secretAccessKey: 'secret',
      forcePathStyle: true,
    })
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it('puts, gets and deletes an object with path-style URLs and SigV4 headers', async () => {
    await storage.put('exports/plan.csv', Buffer.from('distance,power\n0,250\n'))
    expect(await text(await storage.get('exports/plan.csv'))).toBe('distance,power\n0,250\n')
    await storage.delete('exports/plan.csv')
    await expect(storage.get('exports/plan.csv')).rejects.toBeInstanceOf(FileMissingError)
    expect(seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      'PUT /veloptima/exports/plan.csv',
      'GET /veloptima/exports/plan.csv',
      'DELETE /veloptima/exports/plan.csv',
      'GET /veloptima/exports/plan.csv',
    ])
    const auth = String(seen[0]!.headers.authorization)
    expect(auth).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-central-1\/s3\/aws4_request,SignedHeaders=content-length;host;x-amz-content-sha256;x-amz-date,Signature=[0-9a-f]{64}$/,
    )
    expect(seen[0]!.headers['x-amz-date']).toMatch(/^\d{8}T\d{6}Z$/)
  })

  it('addresses the bucket as a host name when path style is off', () => {
    const hosted = new S3Storage({
      bucket: 'veloptima',
      region: 'eu-west-3',
      accessKeyId: 'a',
      secretAccessKey: 'b',
      forcePathStyle: false,
    })
    expect(hosted.objectUrl('uploads/a.gpx').toString()).toBe(
      'https://veloptima.s3.eu-west-3.amazonaws.com/uploads/a.gpx',
    )
  })
})

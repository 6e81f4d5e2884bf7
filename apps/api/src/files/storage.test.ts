import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { buffer, text } from 'node:stream/consumers'
import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../config.ts'
import { LocalStorage } from './local-storage.ts'
import { createStorage } from './create-storage.ts'
import { FileMissingError, StorageConfigError } from './storage.ts'

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

  it('stores a stream as it comes and reads back byte ranges (HTTP Range: both ends inclusive)', async () => {
    const chunks = ['0123456789', 'abcdefghij', 'KLMNOPQRST'].map((c) => Buffer.from(c))
    await storage.put('uploads/stream.fit', Readable.from(chunks))
    expect(await text(await storage.get('uploads/stream.fit'))).toBe(
      Buffer.concat(chunks).toString(),
    )
    expect(
      (await buffer(await storage.get('uploads/stream.fit', { start: 8, end: 11 }))).toString(),
    ).toBe('89ab')
    expect(await text(await storage.get('uploads/stream.fit', { start: 27 }))).toBe('RST')
    expect(readdirSync(join(root, 'uploads'))).toEqual(['stream.fit'])
  })

  it('leaves nothing under the key when a streamed write fails midway', async () => {
    const failing = Readable.from(
      (function* () {
        yield Buffer.from('partial')
        throw new Error('client went away')
      })(),
    )
    await expect(storage.put('uploads/broken.fit', failing)).rejects.toThrow('client went away')
    await expect(storage.get('uploads/broken.fit')).rejects.toBeInstanceOf(FileMissingError)
    expect(readdirSync(join(root, 'uploads')).filter((n) => n.startsWith('broken'))).toEqual([])
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

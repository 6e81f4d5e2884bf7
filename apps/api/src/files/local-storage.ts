import { createReadStream, createWriteStream } from 'node:fs'
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { randomBytes } from 'node:crypto'
import { dirname, join } from 'node:path'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import {
  checkKey,
  FileMissingError,
  type ByteRange,
  type FileStorage,
  type StorageCheck,
  type StorageLog,
} from './storage.ts'

/** Files in a local directory (DATA_DIR/files by default), one file per key. */
export class LocalStorage implements FileStorage {
  readonly driver = 'local' as const

  constructor(readonly root: string) {}

  private path(key: string) {
    return join(this.root, checkKey(key))
  }

  async put(key: string, body: Uint8Array | Readable): Promise<void> {
    const target = this.path(key)
    await mkdir(dirname(target), { recursive: true })
    // Write aside, then rename: a crash never leaves a half-written file under the key.
    const temporary = `${target}.${randomBytes(6).toString('hex')}.partial`
    try {
      if (body instanceof Uint8Array) await writeFile(temporary, body)
      else await pipeline(body, createWriteStream(temporary))
      await rename(temporary, target)
    } catch (error) {
      await rm(temporary, { force: true })
      throw error
    }
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    const path = this.path(key)
    try {
      const info = await stat(path)
      if (!info.isFile()) throw new FileMissingError(key)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new FileMissingError(key)
      throw error
    }
    return createReadStream(path, range && { start: range.start, end: range.end })
  }

  async delete(key: string): Promise<void> {
    await rm(this.path(key), { force: true })
  }

  async prepare(log: StorageLog): Promise<void> {
    try {
      await mkdir(this.root, { recursive: true })
    } catch (error) {
      log.warn({ dir: this.root, err: error }, 'file directory could not be created')
    }
  }

  /** Ready when a file can be written, read back and removed in the directory. */
  async check(): Promise<StorageCheck> {
    const probe = join(this.root, `.ready-${randomBytes(6).toString('hex')}`)
    try {
      await writeFile(probe, 'ready')
      await readFile(probe)
      return { ready: true, where: this.root }
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? String(error)
      return {
        ready: false,
        where: this.root,
        problem: `the file directory ${this.root} (FILES_DIR) is not writable: ${code}`,
      }
    } finally {
      await rm(probe, { force: true }).catch(() => undefined)
    }
  }
}

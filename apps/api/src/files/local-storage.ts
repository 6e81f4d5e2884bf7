import { createReadStream } from 'node:fs'
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises'
import { randomBytes } from 'node:crypto'
import { dirname, join } from 'node:path'
import type { Readable } from 'node:stream'
import { checkKey, FileMissingError, type FileStorage } from './storage.ts'

/** Files in a local directory (DATA_DIR/files by default), one file per key. */
export class LocalStorage implements FileStorage {
  readonly driver = 'local' as const

  constructor(readonly root: string) {}

  private path(key: string) {
    return join(this.root, checkKey(key))
  }

  async put(key: string, body: Uint8Array): Promise<void> {
    const target = this.path(key)
    await mkdir(dirname(target), { recursive: true })
    // Write aside, then rename: a crash never leaves a half-written file under the key.
    const temporary = `${target}.${randomBytes(6).toString('hex')}.partial`
    try {
      await writeFile(temporary, body)
      await rename(temporary, target)
    } catch (error) {
      await rm(temporary, { force: true })
      throw error
    }
  }

  async get(key: string): Promise<Readable> {
    const path = this.path(key)
    try {
      const info = await stat(path)
      if (!info.isFile()) throw new FileMissingError(key)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new FileMissingError(key)
      throw error
    }
    return createReadStream(path)
  }

  async delete(key: string): Promise<void> {
    await rm(this.path(key), { force: true })
  }
}

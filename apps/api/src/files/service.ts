import { createHash, randomUUID } from 'node:crypto'
import { Readable } from 'node:stream'
import type { Database, Db } from '@veloptima/db'
import { AppError, notFound } from '../errors.ts'
import { deleteFile, findFile, findVisibleFile, insertFile, type FileRow } from './repository.ts'
import { isMember, isUuid, ownerToColumns, type Owner } from '../repositories/ownership.ts'
import { contentDisposition } from '../routes/files/routes.ts'
import type { DownloadSigner } from './signed-url.ts'
import { FileMissingError, type FileStorage } from './storage.ts'
import { describeUnknown, sniff, type SniffedType } from './sniff.ts'

/** A file name safe to show and to put in Content-Disposition: no paths, no control characters. */
export function cleanFileName(name: string, fallback = 'file'): string {
  const base = name.split(/[/\\]/).pop() ?? ''
  const cleaned = Array.from(base)
    .filter((c) => c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) !== 0x7f && c !== '"')
    .join('')
    .trim()
    .slice(0, 200)
  return cleaned || fallback
}

/** A stored or storable file: its type from sniffing, its size, checksum and key. */
export type StagedFile = {
  id: string
  key: string
  name: string
  type: SniffedType
  size: number
  sha256: string
}

/** Bytes checked and ready to store. */
export type PreparedFile = StagedFile & { bytes: Uint8Array }

/** How much of a streamed upload is read before its type is decided (all `sniff` looks at). */
const SNIFF_BYTES = 65536

/**
 * Stored files: uploads and exports. The bytes go to the storage backend first, then the row is
 * written (in the caller's transaction when there is one); if the row is not written, the bytes
 * are removed, so a failure leaves nothing half-written.
 */
export class FileService {
  constructor(
    readonly database: Database,
    readonly storage: FileStorage,
    readonly signer: DownloadSigner,
  ) {}

  /** Sniffs and checks an upload; throws `unsupported-file-type` (415) naming the file. */
  prepare(
    name: string,
    bytes: Uint8Array,
    options: { key?: string; allowed?: SniffedType['kind'][] } = {},
  ): PreparedFile {
    const fileName = cleanFileName(name)
    const type = sniff(bytes)
    if (!type) throw new AppError('unsupported-file-type', describeUnknown(bytes, fileName))
    if (options.allowed && !options.allowed.includes(type.kind)) {
      throw new AppError(
        'unsupported-file-type',
        `${fileName} is a ${type.kind.toUpperCase()} file; expected ${options.allowed.map((k) => k.toUpperCase()).join(', ')}.`,
      )
    }
    const id = randomUUID()
    return {
      id,
      key: options.key ?? `uploads/${id}.${type.extension}`,
      name: fileName,
      bytes,
      type,
      size: bytes.byteLength,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    }
  }

  /**
   * Stores an upload as it arrives, without holding it whole: the first 64 KiB are sniffed (a
   * JSON file, or a head `sniff` does not recognize, is read whole, since only all of it tells),
   * then every chunk is hashed and counted on its way to the storage. Throws
   * `unsupported-file-type` (415) before anything is stored; the row is written by
   * `insertStaged`. An error of `chunks` (a size limit) fails the write and stores nothing.
   */
  async stage(name: string, chunks: AsyncIterable<Uint8Array>): Promise<StagedFile> {
    const fileName = cleanFileName(name)
    const source = chunks[Symbol.asyncIterator]()
    const head: Uint8Array[] = []
    let headBytes = 0
    let ended = false
    const readAll = async () => {
      for (let next = await source.next(); !next.done; next = await source.next()) {
        head.push(next.value)
      }
      ended = true
    }
    while (!ended && headBytes < SNIFF_BYTES) {
      const next = await source.next()
      if (next.done) ended = true
      else {
        head.push(next.value)
        headBytes += next.value.byteLength
      }
    }
    let first = Buffer.concat(head)
    let type = sniff(first)
    if (!ended && (!type || type.kind === 'json')) {
      await readAll()
      first = Buffer.concat(head)
      type = sniff(first)
    }
    if (!type) throw new AppError('unsupported-file-type', describeUnknown(first, fileName))

    const id = randomUUID()
    const hash = createHash('sha256')
    let size = 0
    const counted = async function* () {
      const rest = async function* () {
        yield first
        if (!ended) yield* { [Symbol.asyncIterator]: () => source }
      }
      for await (const chunk of rest()) {
        hash.update(chunk)
        size += chunk.byteLength
        yield chunk
      }
    }
    const key = `uploads/${id}.${type.extension}`
    await this.storage.put(key, Readable.from(counted()), type.contentType)
    return { id, key, name: fileName, type, size, sha256: hash.digest('hex') }
  }

  /**
   * Writes the row of a staged upload for the owner `owner()` resolves to; when that or the
   * insert fails, the stored bytes are deleted and the error is rethrown.
   */
  async insertStaged(file: StagedFile, owner: () => Promise<Owner>): Promise<FileRow> {
    try {
      return await this.insertRow(this.database.db, file, await owner(), 'upload')
    } catch (error) {
      await this.storage.delete(file.key).catch(() => undefined)
      throw error
    }
  }

  /**
   * Stores the bytes, then runs `write` (which inserts the row, typically with other rows in one
   * transaction). If `write` throws, the bytes are deleted and the error is rethrown.
   */
  async storeWith<T>(file: PreparedFile, write: () => Promise<T>): Promise<T> {
    await this.storage.put(file.key, file.bytes, file.type.contentType)
    try {
      return await write()
    } catch (error) {
      await this.storage.delete(file.key).catch(() => undefined)
      throw error
    }
  }

  /** Inserts the row of a prepared file (inside the caller's transaction when `db` is a tx). */
  insertRow(db: Db, file: StagedFile, owner: Owner, kind: 'upload' | 'export'): Promise<FileRow> {
    return insertFile(db, {
      id: file.id,
      ...ownerToColumns(owner),
      name: file.name,
      contentType: file.type.contentType,
      size: file.size,
      storageKey: file.key,
      sha256: file.sha256,
      kind,
    })
  }

  /**
   * The owner a caller asks to store for: themselves, or a team they belong to (`owner` = team id).
   * Someone else's team answers 404, like any item the caller cannot see.
   */
  async resolveOwner(uid: string, owner: string | undefined): Promise<Owner> {
    if (!owner || owner === uid) return { kind: 'user', uid }
    if (await isMember(this.database.db, uid, owner)) return { kind: 'team', teamId: owner }
    throw notFound('The team')
  }

  async visibleFile(uid: string, id: string): Promise<FileRow> {
    const row = isUuid(id) ? await findVisibleFile(this.database.db, uid, id) : undefined
    if (!row) throw notFound('The file')
    return row
  }

  /**
   * Deletes a file the caller can see: the row first (courses and results that referenced it keep
   * their data and lose the link), then the bytes. A notification's download link to it then
   * answers 404.
   */
  async remove(uid: string, id: string): Promise<void> {
    const row = await this.visibleFile(uid, id)
    await deleteFile(this.database.db, row.id)
    await this.storage.delete(row.storageKey)
  }

  /**
   * A short-lived signed URL for a file the caller can see: the API's own signed link, or, when the
   * storage serves downloads itself (S3_PRESIGNED_DOWNLOADS=true), a presigned URL of the bucket
   * with the same lifetime and the same response headers.
   */
  async downloadUrl(uid: string, id: string): Promise<{ url: string; expiresAt: Date }> {
    const row = await this.visibleFile(uid, id)
    const signed = this.signer.sign(row.id)
    if (!this.storage.presign) return signed
    const url = await this.storage.presign(row.storageKey, {
      expiresInSeconds: Math.max(1, Math.round((signed.expiresAt.getTime() - Date.now()) / 1000)),
      contentType: row.contentType,
      contentDisposition: contentDisposition(row.name),
    })
    return { url, expiresAt: signed.expiresAt }
  }

  /** The file a signed link names and its bytes; the signature is the authorization. */
  async openSigned(query: Record<string, unknown>): Promise<{ row: FileRow; body: Readable }> {
    const id = this.signer.verify(query)
    const row = isUuid(id) ? await findFile(this.database.db, id) : undefined
    if (!row) throw notFound('The file')
    try {
      return { row, body: await this.storage.get(row.storageKey) }
    } catch (error) {
      if (error instanceof FileMissingError) {
        throw new AppError('file-missing', `The stored bytes of ${row.name} are gone.`)
      }
      throw error
    }
  }
}

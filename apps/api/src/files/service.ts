import { createHash, randomUUID } from 'node:crypto'
import type { Readable } from 'node:stream'
import type { Database, Db } from '@veloptima/db'
import { AppError, notFound } from '../errors.ts'
import {
  deleteFile,
  findFile,
  findVisibleFile,
  insertFile,
  isTeamMember,
  ownerValues,
  type FileRow,
  type Owner,
} from './repository.ts'
import { contentDisposition } from '../routes/files/routes.ts'
import type { DownloadSigner } from './signed-url.ts'
import { FileMissingError, type FileStorage } from './storage.ts'
import { describeUnknown, sniff, type SniffedType } from './sniff.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

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

/** Bytes checked and ready to store: their type from sniffing, their checksum and key. */
export type PreparedFile = {
  id: string
  key: string
  name: string
  bytes: Uint8Array
  type: SniffedType
  sha256: string
}

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
    if (!type) throw new AppError('unsupported-file-type', 415, describeUnknown(bytes, fileName))
    if (options.allowed && !options.allowed.includes(type.kind)) {
      throw new AppError(
        'unsupported-file-type',
        415,
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
      sha256: createHash('sha256').update(bytes).digest('hex'),
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
  insertRow(db: Db, file: PreparedFile, owner: Owner, kind: 'upload' | 'export'): Promise<FileRow> {
    return insertFile(db, {
      id: file.id,
      ...ownerValues(owner),
      name: file.name,
      contentType: file.type.contentType,
      size: file.bytes.byteLength,
      storageKey: file.key,
      sha256: file.sha256,
      kind,
    })
  }

  /** Stores one upload for `owner`. */
  async upload(owner: Owner, name: string, bytes: Uint8Array): Promise<FileRow> {
    const file = this.prepare(name, bytes)
    return this.storeWith(file, () => this.insertRow(this.database.db, file, owner, 'upload'))
  }

  /**
   * The owner a caller asks to store for: themselves, or a team they belong to (`owner` = team id).
   * Someone else's team answers 404, like any item the caller cannot see.
   */
  async resolveOwner(uid: string, owner: string | undefined): Promise<Owner> {
    if (!owner || owner === uid) return { uid }
    if (UUID.test(owner) && (await isTeamMember(this.database.db, uid, owner)))
      return { team: owner }
    throw notFound('The team')
  }

  async visibleFile(uid: string, id: string): Promise<FileRow> {
    const row = UUID.test(id) ? await findVisibleFile(this.database.db, uid, id) : undefined
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
    const row = UUID.test(id) ? await findFile(this.database.db, id) : undefined
    if (!row) throw notFound('The file')
    try {
      return { row, body: await this.storage.get(row.storageKey) }
    } catch (error) {
      if (error instanceof FileMissingError) {
        throw new AppError('file-missing', 410, `The stored bytes of ${row.name} are gone.`)
      }
      throw error
    }
  }
}

import type { Readable } from 'node:stream'

/**
 * Where the bytes of stored files live. Deliberately small: the database row (`files`) holds
 * everything else (name, type, size, owner, checksum), so a backend only maps keys to bytes.
 */
export interface FileStorage {
  readonly driver: 'local' | 's3'
  /**
   * Stores the bytes (or the stream's bytes, read as they come) under `key`, replacing what was
   * there; writes are all-or-nothing.
   */
  put(key: string, body: Uint8Array | Readable, contentType?: string): Promise<void>
  /**
   * A stream of the bytes (of `range` only when given); throws `FileMissingError` when nothing is
   * stored under `key`.
   */
  get(key: string, range?: ByteRange): Promise<Readable>
  /** Removes the bytes; removing a missing key is not an error. */
  delete(key: string): Promise<void>
  /**
   * Present when the backend serves downloads itself (S3 with S3_PRESIGNED_DOWNLOADS=true): a URL
   * anyone can GET the object from until it expires.
   */
  readonly presign?: ((key: string, options: PresignOptions) => Promise<string>) | undefined
  /**
   * Makes the backend usable at start: creates the local directory, or the S3 bucket when it is
   * missing and the credentials allow it (logged). Never throws: what stays wrong is `check`'s to
   * report, and the process is then not ready (GET /api/ready, the worker's /ready).
   */
  prepare(log: StorageLog): Promise<void>
  /** Whether bytes can be stored and read now (for readiness); `problem` says what is wrong. */
  check(): Promise<StorageCheck>
}

/** The part of a pino logger `prepare` uses. */
export type StorageLog = {
  info(details: object, message: string): void
  warn(details: object, message: string): void
}

/** `where`: the bucket (S3) or the directory (local); `problem` when not ready. */
export type StorageCheck = { ready: boolean; where: string; problem?: string }

/** Bytes `start` to `end` inclusive (HTTP Range semantics); to the end when `end` is absent. */
export type ByteRange = { start: number; end?: number }

export type PresignOptions = {
  expiresInSeconds: number
  contentType?: string
  contentDisposition?: string
}

export class FileMissingError extends Error {
  constructor(key: string) {
    super(`No stored bytes under ${key}`)
  }
}

export class StorageConfigError extends Error {}

/** Keys are ours (never user input), but checked anyway so no key can leave the storage root. */
const keyPattern = /^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)*$/
export function checkKey(key: string): string {
  if (!keyPattern.test(key) || key.includes('..')) throw new Error(`invalid storage key ${key}`)
  return key
}

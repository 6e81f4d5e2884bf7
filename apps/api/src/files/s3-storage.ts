import type { Readable } from 'node:stream'
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  NoSuchKey,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3'
import { Upload } from '@aws-sdk/lib-storage'
import { getSignedUrl } from '@aws-sdk/s3-request-presigner'
import {
  checkKey,
  FileMissingError,
  type ByteRange,
  type FileStorage,
  type PresignOptions,
  type StorageCheck,
  type StorageLog,
} from './storage.ts'

export type S3Options = {
  bucket: string
  region: string
  /** e.g. http://127.0.0.1:9000 for MinIO; AWS when absent. */
  endpoint?: string | undefined
  accessKeyId: string
  secretAccessKey: string
  forcePathStyle: boolean
  /** Hand out presigned bucket URLs for downloads instead of proxying the bytes. */
  presignedDownloads?: boolean
}

/** How long a readiness check of the bucket may take before it counts as unreachable. */
const CHECK_TIMEOUT_MS = 5000

/** Parts of a multipart upload: S3's minimum, so at most one part (5 MiB) is held in memory per slot. */
export const PART_BYTES = 5 * 1024 * 1024
const PARALLEL_PARTS = 2

/**
 * Objects in an S3-compatible bucket, one object per key, through the AWS SDK v3 (it signs the
 * requests). Uploads go through `@aws-sdk/lib-storage`: one PUT for small bodies, a multipart
 * upload in 5 MiB parts for larger ones or for streams, aborted when it fails.
 */
export class S3Storage implements FileStorage {
  readonly driver = 's3' as const
  readonly client: S3Client

  constructor(private readonly options: S3Options) {
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle,
      credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
      // Checksums only when the operation requires them: S3-compatible servers differ in support.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    })
  }

  get bucket(): string {
    return this.options.bucket
  }

  async put(key: string, body: Uint8Array | Readable, contentType?: string): Promise<void> {
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: checkKey(key), Body: body, ContentType: contentType },
      partSize: PART_BYTES,
      queueSize: PARALLEL_PARTS,
      leavePartsOnError: false,
    })
    await upload.done()
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    try {
      const res = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: checkKey(key),
          Range: range ? `bytes=${range.start}-${range.end ?? ''}` : undefined,
        }),
      )
      return res.Body as Readable
    } catch (error) {
      if (isMissing(error)) throw new FileMissingError(key)
      throw error
    }
  }

  async delete(key: string): Promise<void> {
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: checkKey(key) }))
    } catch (error) {
      if (!isMissing(error)) throw error
    }
  }

  /** A URL of the bucket that serves the object to anyone for `expiresInSeconds`; off unless configured. */
  get presign(): FileStorage['presign'] {
    return this.options.presignedDownloads ? this.presignedUrl.bind(this) : undefined
  }

  private presignedUrl(key: string, options: PresignOptions): Promise<string> {
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: checkKey(key),
      ResponseContentType: options.contentType,
      ResponseContentDisposition: options.contentDisposition,
      ResponseCacheControl: 'private, no-store',
    })
    return getSignedUrl(this.client, command, { expiresIn: options.expiresInSeconds })
  }

  /** The bucket and where it is, as the log and readiness name it. */
  private get where(): string {
    return this.options.endpoint ? `${this.bucket} at ${this.options.endpoint}` : this.bucket
  }

  /** HEAD of the bucket: 'exists', 'missing', or what went wrong (credentials, network). */
  private async bucketState(): Promise<'exists' | 'missing' | { problem: string }> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }), {
        abortSignal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
      })
      return 'exists'
    } catch (error) {
      const status = (error as S3ServiceException).$metadata?.httpStatusCode
      const name = (error as Error).name
      if (status === 404 || name === 'NotFound' || name === 'NoSuchBucket') return 'missing'
      return { problem: describe(error) }
    }
  }

  async prepare(log: StorageLog): Promise<void> {
    const state = await this.bucketState()
    const details = { bucket: this.bucket, endpoint: this.options.endpoint }
    if (state === 'exists') return
    if (state !== 'missing') {
      log.warn(
        { ...details, problem: state.problem },
        `S3 bucket ${this.where} could not be checked: not ready until it can`,
      )
      return
    }
    try {
      const region = this.options.region
      await this.client.send(
        new CreateBucketCommand({
          Bucket: this.bucket,
          // AWS wants the region named for any region but its first one.
          ...(region !== 'us-east-1' && !this.options.endpoint
            ? { CreateBucketConfiguration: { LocationConstraint: region as 'eu-west-1' } }
            : {}),
        }),
      )
      log.info(details, `S3 bucket ${this.where} was missing: created it`)
    } catch (error) {
      const name = (error as Error).name
      // Another process of the installation created it at the same moment.
      if (name === 'BucketAlreadyOwnedByYou' || name === 'BucketAlreadyExists') return
      log.warn(
        { ...details, problem: describe(error) },
        `S3 bucket ${this.where} is missing and could not be created: not ready until it exists`,
      )
    }
  }

  async check(): Promise<StorageCheck> {
    const state = await this.bucketState()
    if (state === 'exists') return { ready: true, where: this.bucket }
    return {
      ready: false,
      where: this.bucket,
      problem:
        state === 'missing'
          ? `the S3 bucket ${this.where} does not exist (S3_BUCKET): create it, or give S3_ACCESS_KEY_ID the right to create it and restart`
          : `the S3 bucket ${this.where} cannot be reached: ${state.problem}`,
    }
  }
}

/** An SDK or network error as one line: its name, HTTP status and message. */
function describe(error: unknown): string {
  const e = error as Partial<S3ServiceException> & Error
  const status = e.$metadata?.httpStatusCode
  const message = e.message && e.message !== e.name && e.message !== 'UnknownError' ? e.message : ''
  // A network error is a plain Error: its message says it all (connect ECONNREFUSED …).
  const name = e.name !== 'Error' && e.name
  return [name, status && `HTTP ${status}`, message].filter(Boolean).join(', ')
}

function isMissing(error: unknown): boolean {
  return (
    error instanceof NoSuchKey ||
    (error instanceof S3ServiceException &&
      error.name !== 'NoSuchBucket' &&
      (error.name === 'NoSuchKey' || error.$metadata.httpStatusCode === 404))
  )
}

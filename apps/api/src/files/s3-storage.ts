import type { Readable } from 'node:stream'
import {
  DeleteObjectCommand,
  GetObjectCommand,
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
}

function isMissing(error: unknown): boolean {
  return (
    error instanceof NoSuchKey ||
    (error instanceof S3ServiceException &&
      error.name !== 'NoSuchBucket' &&
      (error.name === 'NoSuchKey' || error.$metadata.httpStatusCode === 404))
  )
}

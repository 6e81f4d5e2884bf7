// Opens the storage the configuration names. Apart from storage.ts (the interface and what the
// backends share), so that the backends import storage.ts and nothing imports back.
import type { Config } from '../config.ts'
import { LocalStorage } from './local-storage.ts'
import { StorageConfigError, type FileStorage } from './storage.ts'

/** The storage the configuration asks for; a wrong S3 configuration stops the start. */
export async function createStorage(config: Config): Promise<FileStorage> {
  if (config.STORAGE_DRIVER === 'local') return new LocalStorage(config.filesDir)
  const missing = (['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const).filter(
    (name) => !config[name],
  )
  if (missing.length) {
    throw new StorageConfigError(
      `STORAGE_DRIVER=s3 needs ${missing.join(', ')} (and S3_ENDPOINT for a server other than AWS).`,
    )
  }
  const { S3Storage } = await import('./s3-storage.ts')
  return new S3Storage({
    bucket: config.S3_BUCKET!,
    region: config.S3_REGION,
    endpoint: config.S3_ENDPOINT,
    accessKeyId: config.S3_ACCESS_KEY_ID!,
    secretAccessKey: config.S3_SECRET_ACCESS_KEY!,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
    presignedDownloads: config.S3_PRESIGNED_DOWNLOADS,
  })
}

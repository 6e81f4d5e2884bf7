import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Database } from '@veloptima/db'
import { AppError } from '../errors.ts'
import { loadOrCreateSecret } from '../idp/repository.ts'

const KEY_NAME = 'file-download-hmac'
export const DOWNLOAD_PATH = '/api/files/download'

/**
 * Short-lived download links: `DOWNLOAD_PATH?id=…&expires=…&signature=…`, where the signature is
 * an HMAC-SHA256 of the file id and the expiry with a key kept in the `secrets` table. The link is
 * the authorization (a browser follows it without a session), so it names one file for a few
 * minutes, and a restart keeps issued links valid.
 */
export class DownloadSigner {
  constructor(
    private readonly key: Uint8Array,
    private readonly publicUrl: string,
    private readonly ttlSeconds: number,
  ) {}

  private mac(id: string, expires: number): string {
    return createHmac('sha256', this.key).update(`${id}.${expires}`).digest('base64url')
  }

  sign(id: string, now = Date.now()): { url: string; expiresAt: Date } {
    const expires = Math.floor(now / 1000) + this.ttlSeconds
    const query = new URLSearchParams({
      id,
      expires: String(expires),
      signature: this.mac(id, expires),
    })
    return {
      url: `${this.publicUrl}${DOWNLOAD_PATH}?${query}`,
      expiresAt: new Date(expires * 1000),
    }
  }

  /** The file id a link names; throws `invalid-signature` (403) or `link-expired` (410). */
  verify(
    query: { id?: unknown; expires?: unknown; signature?: unknown },
    now = Date.now(),
  ): string {
    const { id, expires, signature } = query
    if (typeof id !== 'string' || typeof expires !== 'string' || typeof signature !== 'string') {
      throw new AppError('invalid-signature', 'This download link is incomplete.')
    }
    const seconds = Number(expires)
    const expected = Buffer.from(this.mac(id, seconds))
    const given = Buffer.from(signature)
    if (
      !/^\d+$/.test(expires) ||
      given.length !== expected.length ||
      !timingSafeEqual(given, expected)
    ) {
      throw new AppError('invalid-signature', 'This download link is not valid.')
    }
    if (seconds * 1000 < now) {
      throw new AppError('link-expired', 'This download link has expired. Ask for a new one.')
    }
    return id
  }
}

export async function loadDownloadSigner(
  database: Database,
  publicUrl: string,
  ttlSeconds: number,
): Promise<DownloadSigner> {
  const { k } = await loadOrCreateSecret<{ k?: string }>(database.db, KEY_NAME, () => ({
    k: randomBytes(32).toString('base64url'),
  }))
  if (!k) throw new Error(`secret ${KEY_NAME} holds no key`)
  return new DownloadSigner(Buffer.from(k, 'base64url'), publicUrl, ttlSeconds)
}

import type { FastifyInstance, FastifyRequest } from 'fastify'
import multipart from '@fastify/multipart'
import { buffer } from 'node:stream/consumers'
import { z } from 'zod'
import type { DownloadUrl } from '@veloptima/contracts'
import { AppError, badRequest } from '../../errors.ts'
import { callerOf } from '../../plugins/authenticate.ts'
import { CLAIMS, open, user } from '../../plugins/policy.ts'
import type { FileRow } from '../../files/repository.ts'

/** The API's view of a stored file (the storage key stays private). */
export const fileJson = (row: FileRow) => ({
  id: row.id,
  owner: row.ownerUid ?? row.ownerTeam,
  name: row.name,
  content_type: row.contentType,
  size: row.size,
  sha256: row.sha256,
  kind: row.kind,
  created_at: row.createdAt.toISOString(),
})

const idParams = z.object({ id: z.string() })
const uploadQuery = z.object({ owner: z.string().optional() })

/** The chunks of a file part; they fail with FST_REQ_FILE_TOO_LARGE when the part was cut at the limit. */
async function* checkedChunks(file: AsyncIterable<Buffer> & { truncated?: boolean }) {
  yield* file
  if (file.truncated)
    throw Object.assign(new Error('file too large'), { code: 'FST_REQ_FILE_TOO_LARGE' })
}

/**
 * Reads the one file part of a multipart request, within MAX_UPLOAD_BYTES: into memory, or
 * through `read` (which may stream it to storage; `discard` then undoes it when the request turns
 * out wrong after the file). Errors name the problem: no file, too large, not multipart.
 */
export async function readUpload<T = Buffer>(
  request: FastifyRequest,
  maxBytes: number,
  read: (filename: string, chunks: AsyncIterable<Buffer>) => Promise<T> = (_, chunks) =>
    buffer(chunks) as Promise<T>,
  discard: (file: T) => Promise<void> = async () => undefined,
): Promise<{ filename: string; bytes: T; fields: Record<string, string> }> {
  if (!request.isMultipart()) {
    throw badRequest('Send the file as multipart/form-data with a part named "file".')
  }
  // Every part is read, so text fields count wherever they are (before or after the file).
  const fields: Record<string, string> = {}
  let file: { filename: string; bytes: T } | undefined
  const parts = request.parts({ limits: { fileSize: maxBytes, files: 2, fields: 10 } })
  try {
    for await (const part of parts) {
      if (part.type === 'field') {
        if (typeof part.value === 'string') fields[part.fieldname] = part.value
        continue
      }
      if (file) throw badRequest('Send one file per request.')
      try {
        const filename = part.filename || 'upload'
        file = { filename, bytes: await read(filename, checkedChunks(part.file)) }
      } catch (error) {
        if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
          throw new AppError(
            'file-too-large',
            `${part.filename} is larger than the ${formatBytes(maxBytes)} upload limit.`,
            { max_bytes: maxBytes },
          )
        }
        throw error
      }
    }
  } catch (error) {
    if (file) await discard(file.bytes).catch(() => undefined)
    throw error
  }
  if (!file) throw badRequest('The request has no file part: send the file in a part named "file".')
  return { ...file, fields }
}

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${Math.round((n / 1024 / 1024) * 10) / 10} MB`
  if (n >= 1024) return `${Math.round(n / 1024)} KB`
  return `${n} bytes`
}

/** RFC 6266 / 5987: an ASCII fallback and the exact UTF-8 name. */
export function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_')
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`
}

export async function filesRoutes(app: FastifyInstance) {
  const { config } = app.deps
  await app.register(multipart)

  app.post(
    '/files',
    user({ anyClaim: [CLAIMS.simulations, CLAIMS.aero] }),
    async (request, reply) => {
      const caller = callerOf(request)
      const query = uploadQuery.parse(request.query)
      // Streamed to storage as it arrives; the owner (a field may follow the file) is checked after.
      const upload = await readUpload(
        request,
        config.MAX_UPLOAD_BYTES,
        (filename, chunks) => app.files.stage(filename, chunks),
        (staged) => app.files.storage.delete(staged.key),
      )
      const row = await app.files.insertStaged(upload.bytes, () =>
        app.files.resolveOwner(caller.uid, query.owner ?? upload.fields.owner),
      )
      return reply.status(201).send(fileJson(row))
    },
  )

  app.get('/files/:id', user(), async (request) => {
    const { id } = idParams.parse(request.params)
    return fileJson(await app.files.visibleFile(callerOf(request).uid, id))
  })

  app.delete(
    '/files/:id',
    user({ anyClaim: [CLAIMS.simulations, CLAIMS.aero] }),
    async (request, reply) => {
      const { id } = idParams.parse(request.params)
      await app.files.remove(callerOf(request).uid, id)
      return reply.status(204).send()
    },
  )

  app.get('/files/:id/download-url', user(), async (request) => {
    const { id } = idParams.parse(request.params)
    const { url, expiresAt } = await app.files.downloadUrl(callerOf(request).uid, id)
    return { url, expires_at: expiresAt.toISOString() } satisfies DownloadUrl
  })

  // No session: the signature in the query is the authorization.
  app.get('/files/download', open('the signature in the query'), async (request, reply) => {
    const { row, body } = await app.files.openSigned(request.query as Record<string, unknown>)
    return reply
      .header('content-type', row.contentType)
      .header('content-length', String(row.size))
      .header('content-disposition', contentDisposition(row.name))
      .header('cache-control', 'private, no-store')
      .header('x-content-type-options', 'nosniff')
      .send(body)
  })
}

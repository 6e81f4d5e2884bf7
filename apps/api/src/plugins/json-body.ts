// JSON request bodies (application/json) are limited before they are parsed: their size while
// they arrive (413 `body-too-large`) and the nesting of their arrays and objects, scanned once
// without recursion (400 `body-too-deep`); only then does Fastify's own JSON parser (with its
// __proto__ and constructor checks) read them. Ten thousand nested arrays fit in 20 KB, and
// recursive code down the line (validation, logging, JSON.stringify) would overflow the stack on
// them. The limits are in docs/limits-input.md.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { AppError } from '../errors.ts'

/** Deepest nesting accepted: the app's deepest body (equipment yaw tables) is 7 levels. */
export const JSON_MAX_DEPTH = 64

const OPEN_ARRAY = 0x5b
const OPEN_OBJECT = 0x7b
const CLOSE_ARRAY = 0x5d
const CLOSE_OBJECT = 0x7d
const QUOTE = 0x22
const BACKSLASH = 0x5c

/**
 * How deep the arrays and objects of JSON text nest (0 for a plain value), counting brackets
 * outside strings, byte by byte (in UTF-8 these bytes never occur inside a multi-byte
 * character); stops as soon as the depth exceeds `max`. Not a validator: JSON.parse follows.
 */
export function jsonDepth(bytes: Uint8Array, max = Infinity): number {
  let depth = 0
  let deepest = 0
  let inString = false
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!
    if (inString) {
      if (c === BACKSLASH) i++
      else if (c === QUOTE) inString = false
    } else if (c === QUOTE) {
      inString = true
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > deepest) {
        deepest = depth
        if (deepest > max) return deepest
      }
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--
    }
  }
  return deepest
}

const megabytes = (n: number) => `${(n / (1024 * 1024)).toFixed(n % (1024 * 1024) ? 1 : 0)} MB`

function tooLarge(limit: number, got?: number): AppError {
  return new AppError(
    'body-too-large',
    `The JSON body is larger than ${megabytes(limit)} (${limit} bytes)${got !== undefined ? `: got ${got} bytes` : ''}; send less (upload files with multipart/form-data).`,
    { limit_bytes: limit },
  )
}

/**
 * Reads the body up to `limit` bytes (a Content-Length above it is refused before reading),
 * then checks its depth and parses it with Fastify's JSON parser.
 */
export function registerJsonBody(
  app: FastifyInstance,
  opts: { limitBytes?: number; maxDepth?: number } = {},
): void {
  const limit = opts.limitBytes ?? app.initialConfig.bodyLimit ?? 1024 * 1024
  const maxDepth = opts.maxDepth ?? JSON_MAX_DEPTH
  const parseJson = app.getDefaultJsonParser('error', 'error')
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser(
    'application/json',
    (request: FastifyRequest, payload: NodeJS.ReadableStream, done) => {
      const declared = Number(request.headers['content-length'])
      if (declared > limit) {
        done(tooLarge(limit, declared), undefined)
        return
      }
      const chunks: Buffer[] = []
      let received = 0
      let finished = false
      const finish = (error: Error | null, body?: unknown) => {
        if (finished) return
        finished = true
        payload.removeListener('data', onData)
        payload.removeListener('end', onEnd)
        payload.removeListener('error', onError)
        done(error, body)
      }
      const onData = (chunk: Buffer | string) => {
        const b = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
        received += b.length
        if (received > limit) {
          finish(tooLarge(limit))
          return
        }
        chunks.push(b)
      }
      const onError = (error: Error & { statusCode?: number }) => {
        if (!(typeof error.statusCode === 'number' && error.statusCode >= 400))
          error.statusCode = 400
        finish(error)
      }
      const onEnd = () => {
        const bytes = Buffer.concat(chunks, received)
        if (!Number.isNaN(declared) && received !== declared) {
          finish(
            new AppError(
              'invalid-request',
              `The body has ${received} bytes but Content-Length says ${declared}.`,
            ),
          )
          return
        }
        const depth = jsonDepth(bytes, maxDepth)
        if (depth > maxDepth) {
          finish(
            new AppError(
              'body-too-deep',
              `The JSON body nests arrays and objects more than ${maxDepth} levels deep; send a flatter body.`,
              { max_depth: maxDepth },
            ),
          )
          return
        }
        parseJson(request, bytes.toString('utf8'), (error, body) => finish(error ?? null, body))
      }
      payload.on('data', onData)
      payload.on('end', onEnd)
      payload.on('error', onError)
    },
  )
}

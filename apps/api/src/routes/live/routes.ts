import type { FastifyInstance } from 'fastify'
import { LiveHub } from '../../live/hub.ts'
import { databaseNow } from '../../live/repository.ts'
import { LiveStream } from '../../live/stream.ts'
import { user } from '../../plugins/policy.ts'
import { uidOf } from '../platform-context.ts'

/** Milliseconds until the session token's `exp` (already verified by authenticate). */
function msUntilExpiry(header: string | undefined, query: unknown): number {
  const token = header?.startsWith('Bearer ')
    ? header.slice(7)
    : String((query as { access_token?: string }).access_token ?? '')
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as {
      exp?: number
    }
    if (typeof payload.exp === 'number') {
      return Math.min(Math.max(payload.exp * 1000 - Date.now(), 0), 2 ** 31 - 1)
    }
  } catch {
    // fall through
  }
  return 3_600_000
}

/**
 * GET /api/live: Server-Sent Events of the caller's rider profile, unshown notifications and
 * jobs (see the contract in packages/contracts notifications.ts). The token comes in the
 * Authorization header or `?access_token=` (EventSource sends no headers).
 */
export async function liveRoutes(app: FastifyInstance) {
  const { config, database } = app.deps
  const hub = new LiveHub(database, config.LIVE_POLL_MS)
  const open = new Set<{ end(): void }>()
  app.addHook('onReady', () => hub.start())
  app.addHook('preClose', async () => {
    for (const s of open) s.end()
    await hub.stop()
  })

  app.get('/live', user(), async (request, reply) => {
    const uid = uidOf(request)
    const header = request.headers['last-event-id']
    const query = (request.query as { last_event_id?: string }).last_event_id
    const resume = Number.parseInt(String(header ?? query ?? '0'), 10)
    const lastSeq = Number.isSafeInteger(resume) && resume > 0 ? resume : 0
    const now = await databaseNow(database.db)

    reply.hijack()
    const res = reply.raw
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    })
    const stream = new LiveStream(database.db, uid, res, lastSeq, now)
    stream.write(`retry: ${config.LIVE_RETRY_MS}\n\n`)
    const unsubscribe = hub.subscribe(uid, stream.wake)
    const heartbeat = setInterval(() => stream.write(': ping\n\n'), config.LIVE_HEARTBEAT_MS)
    const handle = {
      end() {
        cleanup()
        res.end()
      },
    }
    open.add(handle)
    function cleanup() {
      stream.close()
      clearInterval(heartbeat)
      unsubscribe()
      open.delete(handle)
    }
    res.on('close', cleanup)
    // The stream ends when the session token does: the client reopens it with a fresh token
    // (and `?last_event_id=`), so an expired or revoked session stops receiving data.
    const expiry = setTimeout(
      () => handle.end(),
      msUntilExpiry(request.headers.authorization, request.query),
    )
    expiry.unref()
    res.on('close', () => clearTimeout(expiry))
    await stream.pump()
  })
}

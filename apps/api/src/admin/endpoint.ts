import { randomBytes, timingSafeEqual } from 'node:crypto'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { AppError } from '../errors.ts'
import { operator } from '../plugins/policy.ts'
import { AdminError, runAdminCommand } from './commands.ts'

/** Where the running server tells the CLI how to reach it (mode 0600, removed on stop). */
export const adminFile = (dataDir: string) => join(dataDir, 'admin.json')

const isLoopback = (address: string | undefined) =>
  address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1'

/**
 * POST /api/admin/command: the CLI's way in while the server holds the embedded database
 * (PGlite allows one process). Only from loopback, and only with the secret the server wrote
 * into DATA_DIR/admin.json when it started listening: whoever can read the data directory is
 * already the database's administrator.
 */
export async function adminRoutes(app: FastifyInstance) {
  const secret = randomBytes(32).toString('base64url')
  const file = adminFile(app.deps.config.dataDir)

  app.addHook('onListen', async () => {
    const address = app.server.address() as AddressInfo | null
    if (!address || typeof address === 'string') return
    const host =
      isLoopback(address.address) || address.address === '0.0.0.0' || address.address === '::'
        ? '127.0.0.1'
        : address.address
    mkdirSync(app.deps.config.dataDir, { recursive: true })
    writeFileSync(
      file,
      JSON.stringify({
        url: `http://${host}:${address.port}/api/admin/command`,
        secret,
        pid: process.pid,
      }),
      { mode: 0o600 },
    )
  })
  app.addHook('onClose', async () => {
    try {
      const current = JSON.parse(readFileSync(file, 'utf8')) as { secret?: string }
      if (current.secret === secret) rmSync(file, { force: true })
    } catch {
      // Not written (no listen) or already gone.
    }
  })

  const body = z.object({ argv: z.array(z.string().max(500)).max(20) })
  const access = operator(
    'the secret of DATA_DIR/admin.json, from loopback only',
    (request) => {
      const given = Buffer.from(String(request.headers['x-admin-secret'] ?? ''))
      const expected = Buffer.from(secret)
      return (
        isLoopback(request.socket.remoteAddress) &&
        given.length === expected.length &&
        timingSafeEqual(given, expected)
      )
    },
    'Admin commands come from the admin CLI on the server’s own host.',
  )
  app.post('/admin/command', access, async (request) => {
    const parsed = body.safeParse(request.body)
    if (!parsed.success) throw new AppError('invalid-request', 'argv: an array of strings.')
    try {
      const result = await runAdminCommand(app.deps.database.db, parsed.data.argv)
      for (const uid of result.uidsChanged ?? []) app.platform.users.forget(uid)
      return { ok: true, lines: result.lines }
    } catch (error) {
      if (error instanceof AdminError) return { ok: false, lines: [error.message] }
      throw error
    }
  })
}

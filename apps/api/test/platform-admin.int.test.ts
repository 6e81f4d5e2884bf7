import { execFile } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { claimGrants, users } from '@veloptima/db'
import { testDriver } from '@veloptima/db/testing'
import { AdminError, runAdminCommand } from '../src/admin/commands.ts'
import { adminFile } from '../src/admin/endpoint.ts'
import { buildApp } from '../src/app.ts'
import { loadConfig } from '../src/config.ts'
import { loadSessionTokens } from '../src/services/session-token.ts'
import { persistentDatabase, type PersistentDb } from './persistent-db.ts'
import { suiteDatabase } from './helpers.ts'

const run = promisify(execFile)
const cli = fileURLToPath(new URL('../src/admin/cli.ts', import.meta.url))

async function admin(env: Record<string, string>, ...argv: string[]) {
  const clean = { ...process.env }
  delete clean.DATABASE_URL
  delete clean.DATA_DIR
  try {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', cli, ...argv], {
      env: { ...clean, LOG_LEVEL: 'silent', ...env },
      timeout: 60_000,
    })
    return { code: 0, out: stdout }
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string }
    return { code: e.code ?? 1, out: `${e.stdout ?? ''}${e.stderr ?? ''}` }
  }
}

describe(`admin commands on ${testDriver()}`, () => {
  const database = suiteDatabase()
  beforeAll(async () => {
    await database.db.insert(users).values([
      { uid: 'u-ann', email: 'ann@example.com', displayName: 'Ann' },
      { uid: 'u-ben', email: 'ben@example.com', displayName: 'Ben' },
    ])
  })
  const cmd = (...argv: string[]) => runAdminCommand(database.db, argv)

  it('lists users, grants and revokes claims, disables and enables', async () => {
    expect((await cmd('grant', 'ANN@example.com', 'create:simulations')).lines[0]).toContain(
      'Granted create:simulations to ann@example.com',
    )
    const listed = (await cmd('users')).lines.join('\n')
    expect(listed).toContain('u-ann\tann@example.com\t"Ann"\tactive\tcreate:simulations')
    expect(listed).toContain('u-ben\tben@example.com\t"Ben"\tactive\t-')
    await cmd('revoke', 'ann@example.com', 'create:simulations')
    expect(await database.db.select().from(claimGrants)).toEqual([])
    await cmd('disable', 'ben@example.com')
    const [ben] = await database.db.select().from(users).where(eq(users.uid, 'u-ben'))
    expect(ben!.disabled).toBe(true)
    expect((await cmd('users')).lines.join('\n')).toContain('DISABLED')
    await cmd('enable', 'ben@example.com')
  })

  it('creates a team with its owner and adds members with roles', async () => {
    const created = (await cmd('team', 'create', 'Blue', 'Train', '--owner', 'ann@example.com'))
      .lines[0]!
    expect(created).toMatch(/Created team "Blue Train" \(.{36}\) owned by ann@example.com/)
    expect(
      (await cmd('team', 'add', 'Blue Train', 'ben@example.com', '--role', 'admin')).lines[0],
    ).toContain('ben@example.com is admin of "Blue Train"')
    const again = await cmd('team', 'add', 'Blue Train', 'ben@example.com')
    expect(again.lines[0]).toContain('is member of')
  })

  it('starts plans for a user or a team, which GET /api/subscriptions then lists', async () => {
    expect((await cmd('plan', 'ann@example.com', 'aero', '--period', 'year')).lines[0]).toMatch(
      /Started the aero plan for ann@example.com until \d{4}-\d{2}-\d{2}/,
    )
    expect((await cmd('plan', 'Blue Train', 'team')).lines[0]).toContain(
      'Started the team plan for team "Blue Train"',
    )
    const { subscriptionsOf } = await import('../src/repositories/billing.ts')
    const ben = await subscriptionsOf(database.db, 'u-ben') // member of Blue Train
    expect(ben.map((s) => [s.plan, s.period, s.status])).toEqual([['team', 'month', 'active']])
    const ann = await subscriptionsOf(database.db, 'u-ann')
    expect(ann.map((s) => s.plan).sort()).toEqual(['aero', 'team'])
    const days = (ann.find((s) => s.plan === 'aero')!.endsAt.getTime() - Date.now()) / 86_400_000
    expect(days).toBeGreaterThan(364)
    // The session's claims follow (services/claims.ts reads the subscriptions).
    const { computeClaims } = await import('../src/services/claims.ts')
    expect(await computeClaims(database.db, 'u-ben', [])).toMatchObject({
      'create:simulations': true,
      'use:multipleRiderProfiles': true,
    })
    await expect(cmd('plan', 'ann@example.com', 'gold')).rejects.toThrow(/PLAN must be/)
  })

  it('shows the latest feedback', async () => {
    expect((await cmd('feedback')).lines).toEqual(['No feedback yet.'])
    const { insertFeedback } = await import('../src/repositories/feedback.ts')
    await insertFeedback(database.db, {
      uid: 'u-ann',
      email: 'ann@example.com',
      text: 'Love the W′ chart',
      rating: 5,
      page: '/simulation',
    })
    const [line] = (await cmd('feedback', '--limit', '5')).lines
    expect(line).toMatch(
      /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}\tann@example.com\t5\/5\t\/simulation\t"Love the W′ chart"$/,
    )
    await expect(cmd('feedback', '--limit', 'x')).rejects.toThrow(/--limit/)
  })

  it('explains mistakes', async () => {
    await expect(cmd('grant', 'nobody@example.com', 'x')).rejects.toThrow(/No user with e-mail/)
    await expect(cmd('grant', 'ann@example.com')).rejects.toThrow(/CLAIM/)
    await expect(cmd('team', 'add', 'Nope', 'ann@example.com')).rejects.toThrow(/No team "Nope"/)
    await expect(
      cmd('team', 'add', 'Blue Train', 'ann@example.com', '--role', 'boss'),
    ).rejects.toThrow(/--role must be owner, admin or member/)
    await expect(cmd('frobnicate')).rejects.toBeInstanceOf(AdminError)
  })
})

describe(`npm run admin next to a running server on ${testDriver()}`, () => {
  let store: PersistentDb
  afterAll(() => store?.cleanup())

  it('works while the server holds the database, and after it stopped', async () => {
    store = await persistentDatabase()
    const database = await store.open()
    await database.db
      .insert(users)
      .values({ uid: 'u-cy', email: 'cy@example.com', displayName: 'Cy' })
    const config = loadConfig({ LOG_LEVEL: 'silent', ...store.env })
    const sessionTokens = await loadSessionTokens(database, config.publicUrl)
    const app = await buildApp({ config, database, sessionTokens })
    await app.listen({ port: 0, host: '127.0.0.1' })
    const file = adminFile(store.dataDir)
    expect(existsSync(file)).toBe(true)
    const { token } = await sessionTokens.sign({
      uid: 'u-cy',
      email: 'cy@example.com',
      displayName: 'Cy',
      claims: {},
    })
    const asCy = () =>
      app.inject({ url: '/api/users/u-cy', headers: { authorization: `Bearer ${token}` } })
    try {
      expect((await asCy()).statusCode).toBe(200)
      const granted = await admin(store.env, 'grant', 'cy@example.com', 'access:aerooptimization')
      expect(granted.out).toContain('Granted access:aerooptimization to cy@example.com')
      expect(granted.code).toBe(0)
      const grants = await database.db.select().from(claimGrants)
      expect(grants.map((g) => g.claim)).toEqual(['access:aerooptimization'])
      // Disabling through the CLI takes effect at once for a still-valid session.
      expect((await admin(store.env, 'disable', 'cy@example.com')).code).toBe(0)
      const blocked = await asCy()
      expect(blocked.statusCode).toBe(403)
      expect(blocked.json().code).toBe('user-disabled')
      const wrong = await admin(store.env, 'grant', 'nobody@example.com', 'x')
      expect(wrong.code).toBe(1)
      expect(wrong.out).toContain('No user with e-mail nobody@example.com')
      // The endpoint needs the secret of the data directory.
      const { url } = JSON.parse(readFileSync(file, 'utf8')) as { url: string }
      const forged = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-admin-secret': 'guess' },
        body: JSON.stringify({ argv: ['users'] }),
      })
      expect(forged.status).toBe(403)
    } finally {
      await app.close()
      await database.close()
    }
    expect(existsSync(file)).toBe(false)
    // No server: the CLI opens the database itself.
    const listed = await admin(store.env, 'users')
    expect(listed.code).toBe(0)
    expect(listed.out).toContain('u-cy\tcy@example.com\t"Cy"\tDISABLED\taccess:aerooptimization')
    expect((await admin(store.env)).out).toContain('Usage: npm run admin')
  })
})

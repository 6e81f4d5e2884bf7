import { describe, expect, it } from 'vitest'
import { postgresAdapter, sweepExpired } from '../src/idp/adapter.ts'
import { suiteDatabase } from './helpers.ts'

// The provider's storage contract (oidc-provider's Adapter): upsert/find by id, uid and user
// code, consume, destroy, revoke by grant, expiry.
describe('Postgres adapter of the identity provider', () => {
  const database = suiteDatabase()

  it('stores, finds, updates and destroys a payload per kind', async () => {
    const Adapter = postgresAdapter(database.db)
    const sessions = new Adapter('Session')
    const other = new Adapter('Interaction')
    await sessions.upsert('s1', { uid: 'u-1', accountId: 'acc' }, 60)
    expect(await sessions.find('s1')).toEqual({ uid: 'u-1', accountId: 'acc' })
    expect(await sessions.findByUid('u-1')).toEqual({ uid: 'u-1', accountId: 'acc' })
    expect(await other.find('s1')).toBeUndefined()
    await sessions.upsert('s1', { uid: 'u-1', accountId: 'acc2' }, 60)
    expect(await sessions.find('s1')).toMatchObject({ accountId: 'acc2' })
    await sessions.destroy('s1')
    expect(await sessions.find('s1')).toBeUndefined()
  })

  it('marks a consumed payload (authorization-code reuse detection relies on it)', async () => {
    const codes = new (postgresAdapter(database.db))('AuthorizationCode')
    await codes.upsert('c1', { grantId: 'g1' }, 60)
    expect((await codes.find('c1'))?.consumed).toBeUndefined()
    await codes.consume('c1')
    expect(typeof (await codes.find('c1'))?.consumed).toBe('number')
  })

  it('revokes every token of a grant', async () => {
    const Adapter = postgresAdapter(database.db)
    const refresh = new Adapter('RefreshToken')
    const access = new Adapter('AccessToken')
    await refresh.upsert('r1', { grantId: 'g2' }, 60)
    await access.upsert('a1', { grantId: 'g2' }, 60)
    await access.upsert('a2', { grantId: 'g3' }, 60)
    await refresh.revokeByGrantId('g2')
    expect(await refresh.find('r1')).toBeUndefined()
    expect(await access.find('a1')).toBeUndefined()
    expect(await access.find('a2')).toMatchObject({ grantId: 'g3' })
  })

  it('finds device-flow payloads by user code', async () => {
    const device = new (postgresAdapter(database.db))('DeviceCode')
    await device.upsert('d1', { userCode: 'ABCD-EFGH', grantId: 'g4' }, 60)
    expect(await device.findByUserCode('ABCD-EFGH')).toMatchObject({ userCode: 'ABCD-EFGH' })
  })

  it('ignores expired payloads and sweeps them away', async () => {
    const sessions = new (postgresAdapter(database.db))('Session')
    await sessions.upsert('old', { uid: 'u-old' }, 1)
    await new Promise((resolve) => setTimeout(resolve, 1100))
    expect(await sessions.find('old')).toBeUndefined()
    expect(await sweepExpired(database.db)).toBeGreaterThanOrEqual(1)
    await sessions.upsert('forever', { uid: 'u-forever' })
    expect(await sweepExpired(database.db)).toBe(0)
    expect(await sessions.find('forever')).toMatchObject({ uid: 'u-forever' })
  })
})

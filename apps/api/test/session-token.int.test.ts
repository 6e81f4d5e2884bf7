import { describe, expect, it } from 'vitest'
import { loadSessionTokens } from '../src/services/session-token.ts'
import { suiteApp } from './helpers.ts'

describe('session tokens', () => {
  const t = suiteApp()

  it('round-trips the caller and keeps only true claims', async () => {
    const tokens = await loadSessionTokens(t.database, 'http://x')
    const { token } = await tokens.sign({
      uid: 'u1',
      email: 'u1@example.com',
      displayName: 'U1',
      claims: { 'create:simulations': true },
    })
    expect(await tokens.verify(token)).toEqual({
      uid: 'u1',
      email: 'u1@example.com',
      displayName: 'U1',
      claims: { 'create:simulations': true },
    })
  })

  it('uses the same persisted key after a reload, so sessions survive a restart', async () => {
    const a = await loadSessionTokens(t.database, 'http://x')
    const b = await loadSessionTokens(t.database, 'http://x')
    const { token } = await a.sign({ uid: 'u2', email: '', displayName: '', claims: {} })
    await expect(b.verify(token)).resolves.toMatchObject({ uid: 'u2' })
  })

  it('rejects an expired token with user-token-expired and a tampered one with invalid-credential', async () => {
    const tokens = await loadSessionTokens(t.database, 'http://x')
    const { token: expired } = await tokens.sign(
      { uid: 'u3', email: '', displayName: '', claims: {} },
      -10,
    )
    await expect(tokens.verify(expired)).rejects.toMatchObject({ code: 'user-token-expired' })
    const { token } = await tokens.sign({ uid: 'u3', email: '', displayName: '', claims: {} })
    const tampered = token.slice(0, -2) + (token.endsWith('A') ? 'BB' : 'AA')
    await expect(tokens.verify(tampered)).rejects.toMatchObject({ code: 'invalid-credential' })
  })
})

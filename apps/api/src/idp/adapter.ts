import type { Adapter, AdapterPayload } from 'oidc-provider'
import type { Db } from '@veloptima/db'
import {
  consumePayload,
  deleteExpiredPayloads,
  deleteGrantPayloads,
  deletePayload,
  findPayload,
  storePayload,
  type PayloadRow,
} from './repository.ts'

// oidc-provider's storage (sessions, interactions, grants, codes, refresh tokens…) in the
// `idp_payloads` table, so sign-ins and refresh tokens survive a restart and work the same on
// PGlite and PostgreSQL. One row per (kind, id); expired rows are ignored and swept.

const GRANTABLE = new Set([
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'DeviceCode',
  'ClientCredentials',
  'BackchannelAuthenticationRequest',
])

/** What oidc-provider reads of a stored row: nothing once expired, `consumed` once consumed. */
function payloadOf(row: PayloadRow | undefined): AdapterPayload | undefined {
  if (!row) return undefined
  if (row.expiresAt && row.expiresAt.getTime() <= Date.now()) return undefined
  return {
    ...(row.payload as AdapterPayload),
    ...(row.consumedAt ? { consumed: Math.floor(row.consumedAt.getTime() / 1000) } : {}),
  }
}

export function postgresAdapter(db: Db): new (kind: string) => Adapter {
  return class PostgresAdapter implements Adapter {
    constructor(private readonly kind: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number) {
      await storePayload(db, this.kind, id, {
        payload: payload as Record<string, unknown>,
        grantId: GRANTABLE.has(this.kind) ? (payload.grantId ?? null) : null,
        userCode: payload.userCode ?? null,
        uid: payload.uid ?? null,
        expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
      })
    }

    async find(id: string) {
      return payloadOf(await findPayload(db, this.kind, 'id', id))
    }

    async findByUserCode(userCode: string) {
      return payloadOf(await findPayload(db, this.kind, 'userCode', userCode))
    }

    async findByUid(uid: string) {
      return payloadOf(await findPayload(db, this.kind, 'uid', uid))
    }

    async consume(id: string) {
      await consumePayload(db, this.kind, id)
    }

    async destroy(id: string) {
      await deletePayload(db, this.kind, id)
    }

    async revokeByGrantId(grantId: string) {
      await deleteGrantPayloads(db, grantId)
    }
  }
}

/** Deletes expired rows; returns how many went. */
export function sweepExpired(db: Db): Promise<number> {
  return deleteExpiredPayloads(db)
}

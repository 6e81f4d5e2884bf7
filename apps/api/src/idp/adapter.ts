import { and, eq, lt } from 'drizzle-orm'
import type { Adapter, AdapterPayload } from 'oidc-provider'
import { idpPayloads, type Db } from '@veloptima/db'

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

export function postgresAdapter(db: Db): new (kind: string) => Adapter {
  return class PostgresAdapter implements Adapter {
    constructor(private readonly kind: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number) {
      const values = {
        id,
        kind: this.kind,
        payload: payload as Record<string, unknown>,
        grantId: GRANTABLE.has(this.kind) ? (payload.grantId ?? null) : null,
        userCode: payload.userCode ?? null,
        uid: payload.uid ?? null,
        expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
      }
      await db
        .insert(idpPayloads)
        .values(values)
        .onConflictDoUpdate({
          target: [idpPayloads.kind, idpPayloads.id],
          set: {
            payload: values.payload,
            grantId: values.grantId,
            userCode: values.userCode,
            uid: values.uid,
            expiresAt: values.expiresAt,
          },
        })
    }

    private async findWhere(where: ReturnType<typeof eq>) {
      const [row] = await db
        .select()
        .from(idpPayloads)
        .where(and(eq(idpPayloads.kind, this.kind), where))
        .limit(1)
      if (!row) return undefined
      if (row.expiresAt && row.expiresAt.getTime() <= Date.now()) return undefined
      return {
        ...(row.payload as AdapterPayload),
        ...(row.consumedAt ? { consumed: Math.floor(row.consumedAt.getTime() / 1000) } : {}),
      }
    }

    find(id: string) {
      return this.findWhere(eq(idpPayloads.id, id))
    }

    findByUserCode(userCode: string) {
      return this.findWhere(eq(idpPayloads.userCode, userCode))
    }

    findByUid(uid: string) {
      return this.findWhere(eq(idpPayloads.uid, uid))
    }

    async consume(id: string) {
      await db
        .update(idpPayloads)
        .set({ consumedAt: new Date() })
        .where(and(eq(idpPayloads.kind, this.kind), eq(idpPayloads.id, id)))
    }

    async destroy(id: string) {
      await db
        .delete(idpPayloads)
        .where(and(eq(idpPayloads.kind, this.kind), eq(idpPayloads.id, id)))
    }

    async revokeByGrantId(grantId: string) {
      await db.delete(idpPayloads).where(eq(idpPayloads.grantId, grantId))
    }
  }
}

/** Deletes expired rows; returns how many went. */
export async function sweepExpired(db: Db): Promise<number> {
  const gone = await db
    .delete(idpPayloads)
    .where(lt(idpPayloads.expiresAt, new Date()))
    .returning({ id: idpPayloads.id })
  return gone.length
}

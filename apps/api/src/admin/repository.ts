// The claims an administrator grants (`claim_grants`).
import { and, eq } from 'drizzle-orm'
import { claimGrants, type Db } from '@veloptima/db'

export type ClaimGrantRow = typeof claimGrants.$inferSelect

export async function listClaimGrants(db: Db): Promise<ClaimGrantRow[]> {
  return db.select().from(claimGrants)
}

/** Grants `claim` to `uid` (nothing when it is granted already). */
export async function grantClaim(db: Db, uid: string, claim: string, grantedBy: string) {
  await db.insert(claimGrants).values({ uid, claim, grantedBy }).onConflictDoNothing()
}

/** Revokes a granted claim; false when it was not granted. */
export async function revokeClaim(db: Db, uid: string, claim: string): Promise<boolean> {
  const gone = await db
    .delete(claimGrants)
    .where(and(eq(claimGrants.uid, uid), eq(claimGrants.claim, claim)))
    .returning()
  return gone.length > 0
}

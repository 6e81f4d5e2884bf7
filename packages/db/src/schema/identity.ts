import {
  boolean,
  index,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import { createdAt, generatedId, parentId } from './columns.ts'

/** A person known to the product. `uid` is the identity provider's `sub`. */
export const users = pgTable('users', {
  uid: text('uid').primaryKey(),
  email: text('email').notNull(),
  displayName: text('display_name').notNull().default(''),
  photoUrl: text('photo_url'),
  currentTeam: uuid('current_team'),
  trialUsed: boolean('trial_used').notNull().default(false),
  trialEndsAt: timestamp('trial_ends_at', { withTimezone: true }),
  useImperialUnits: boolean('use_imperial_units').notNull().default(false),
  disabled: boolean('disabled').notNull().default(false),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})

export const teams = pgTable('teams', {
  id: generatedId(),
  name: text('name').notNull(),
  /** The identity provider's organization id (`org_id`), when the team comes from it. */
  orgId: text('org_id').unique(),
  createdAt: createdAt(),
})

export const teamRole = pgEnum('team_role', ['owner', 'admin', 'member'])

export const teamMembers = pgTable(
  'team_members',
  {
    teamId: parentId('team_id', () => teams.id),
    uid: text('uid')
      .notNull()
      .references(() => users.uid, { onDelete: 'cascade' }),
    role: teamRole('role').notNull().default('member'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.uid] }), index('team_members_uid_idx').on(t.uid)],
)

/**
 * An invitation to a team by e-mail. The link carries a random token; only its SHA-256 is kept
 * (`token_hash`). Valid until `expires_at`, once (`accepted_at`), unless revoked (`revoked_at`).
 */
export const teamInvitations = pgTable(
  'team_invitations',
  {
    id: generatedId(),
    teamId: parentId('team_id', () => teams.id),
    /** Lower case; only this address may accept. */
    email: text('email').notNull(),
    role: teamRole('role').notNull().default('member'),
    tokenHash: text('token_hash').notNull(),
    invitedBy: text('invited_by').references(() => users.uid, { onDelete: 'set null' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    acceptedBy: text('accepted_by').references(() => users.uid, { onDelete: 'set null' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('team_invitations_token_idx').on(t.tokenHash),
    index('team_invitations_team_idx').on(t.teamId, t.email),
  ],
)

/** A claim granted by an administrator, on top of those that come from a plan or trial. */
export const claimGrants = pgTable(
  'claim_grants',
  {
    uid: text('uid')
      .notNull()
      .references(() => users.uid, { onDelete: 'cascade' }),
    claim: text('claim').notNull(),
    grantedBy: text('granted_by'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.uid, t.claim] })],
)

/**
 * Accounts of the embedded identity provider: e-mail + password (scrypt hash).
 * `sub` is the subject the provider puts in its tokens; it becomes `users.uid`.
 */
export const idpAccounts = pgTable(
  'idp_accounts',
  {
    sub: text('sub').primaryKey(),
    email: text('email').notNull(),
    name: text('name').notNull().default(''),
    picture: text('picture'),
    passwordHash: text('password_hash').notNull(),
    /** Claims the provider puts in the access token's `permissions`. */
    permissions: jsonb('permissions').$type<string[]>().notNull().default([]),
    orgId: text('org_id'),
    orgName: text('org_name'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('idp_accounts_email_idx').on(t.email)],
)

/** oidc-provider's adapter storage (sessions, grants, codes, refresh tokens, interactions). */
export const idpPayloads = pgTable(
  'idp_payloads',
  {
    id: text('id').notNull(),
    kind: text('kind').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    grantId: text('grant_id'),
    userCode: text('user_code'),
    uid: text('uid'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.kind, t.id] }),
    index('idp_payloads_grant_idx').on(t.grantId),
    index('idp_payloads_uid_idx').on(t.uid),
  ],
)

/** Small persisted secrets: signing keys (JWKS), cookie keys, the session-token key. */
export const secrets = pgTable('secrets', {
  name: text('name').primaryKey(),
  value: jsonb('value').notNull(),
  createdAt: createdAt(),
})

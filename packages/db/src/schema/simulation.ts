import { sql } from 'drizzle-orm'
import {
  bigint,
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import { generatedId, parentId } from './columns.ts'
import type {
  CourseSegment,
  CourseSettings,
  CourseStats,
  CourseTrack,
  JsonObject,
} from './json-types.ts'
import { ownerColumns, ownerConstraints, ownerListIndexes, timestamps } from './owner.ts'
import { users } from './identity.ts'
import { riderSetups } from './riders.ts'

/** Stored files (uploads, exports). The bytes live in the storage backend under `storage_key`. */
export const files = pgTable(
  'files',
  {
    id: generatedId(),
    ...ownerColumns(),
    name: text('name').notNull(),
    contentType: text('content_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    /** Where the storage backend keeps the bytes (local path or S3 key); never shown to users. */
    storageKey: text('storage_key').notNull().unique(),
    sha256: text('sha256').notNull(),
    /** upload | export */
    kind: text('kind').notNull().default('upload'),
    ...timestamps(),
  },
  (t) => [...ownerConstraints('files', t), check('files_size', sql`${t.size} >= 0`)],
)

/**
 * A course: cleaned track, segments and statistics. Built-in samples (`sample`) have no owner
 * and are readable by everyone, changeable by nobody through the API.
 */
export const courses = pgTable(
  'courses',
  {
    id: generatedId(),
    ...ownerColumns(),
    sample: boolean('sample').notNull().default(false),
    name: text('name').notNull(),
    sourceFileId: uuid('source_file_id').references(() => files.id, { onDelete: 'set null' }),
    /** gpx | tcx | fit | json */
    sourceFormat: text('source_format'),
    track: jsonb('track').$type<CourseTrack>(),
    segments: jsonb('segments').$type<CourseSegment[]>().notNull().default([]),
    stats: jsonb('stats').$type<CourseStats>(),
    settings: jsonb('settings').$type<CourseSettings>().notNull().default({}),
    ...timestamps(),
  },
  (t) => [
    check(
      'courses_owner',
      sql`(${t.sample} and num_nonnulls(${t.ownerUid}, ${t.ownerTeam}) = 0) or num_nonnulls(${t.ownerUid}, ${t.ownerTeam}) = 1`,
    ),
    ...ownerListIndexes('courses', t),
    /** Samples are everyone's: their page is read in keyset order too. */
    index('courses_sample_keyset_idx')
      .on(t.createdAt, t.id)
      .where(sql`${t.sample}`),
  ],
)

export const optimizationType = pgEnum('optimization_type', ['pacing', 'equipment'])

/**
 * An optimization's current inputs (what the user edits). Each run produces a result version
 * that snapshots the inputs as they were.
 */
export const optimizations = pgTable(
  'optimizations',
  {
    id: generatedId(),
    ...ownerColumns(),
    type: optimizationType('type').notNull(),
    name: text('name').notNull(),
    courseId: uuid('course_id').references(() => courses.id, { onDelete: 'set null' }),
    riderSetupId: uuid('rider_setup_id').references(() => riderSetups.id, { onDelete: 'set null' }),
    /** Environment, constraints, groups, candidate equipment, tweaked setups… */
    inputs: jsonb('inputs').$type<JsonObject>().notNull().default({}),
    ...timestamps(),
  },
  (t) => [...ownerConstraints('optimizations', t), index('optimizations_type_idx').on(t.type)],
)

export const jobStatus = pgEnum('job_status', [
  'queued',
  'running',
  'succeeded',
  'failed',
  'cancelled',
])

/**
 * Bookkeeping of background work the user waits for (imports, optimization runs, exports):
 * status and progress readable by the API and pushed over the live stream. The queue itself is
 * pg-boss (`boss_job_id`); `idempotency_key` makes a retried job find its own earlier row.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: generatedId(),
    ...ownerColumns(),
    /** import | optimization | export … */
    kind: text('kind').notNull(),
    status: jobStatus('status').notNull().default('queued'),
    /** 0–100 */
    progress: doublePrecision('progress').notNull().default(0),
    message: text('message'),
    /** What the job works on, e.g. ('optimization_result', id) or ('file', id). */
    subjectType: text('subject_type'),
    subjectId: uuid('subject_id'),
    bossJobId: text('boss_job_id'),
    idempotencyKey: text('idempotency_key').unique(),
    attempts: integer('attempts').notNull().default(0),
    /**
     * Who queued the job (their per-account cap counts it, whoever owns the item); null for jobs
     * queued before this was recorded, or once that account is deleted.
     */
    requestedBy: text('requested_by').references(() => users.uid, { onDelete: 'set null' }),
    /**
     * The job's place in the fair order of all queued jobs (lower first): a requester's next job
     * comes one turn after their previous one, a requester with nothing queued joins at the head
     * (docs/limits-jobs.md).
     */
    turn: integer('turn').notNull().default(0),
    output: jsonb('output').$type<JsonObject>(),
    error: jsonb('error').$type<{ code: string; message: string }>(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    ...timestamps(),
  },
  (t) => [
    ...ownerConstraints('jobs', t),
    check('jobs_progress', sql`${t.progress} between 0 and 100`),
    index('jobs_subject_idx').on(t.subjectType, t.subjectId),
    // The caps and the fair order read only the unfinished jobs.
    index('jobs_active_requester_idx')
      .on(t.requestedBy)
      .where(sql`${t.status} in ('queued', 'running')`),
    index('jobs_active_team_idx')
      .on(t.ownerTeam)
      .where(sql`${t.status} in ('queued', 'running')`),
    index('jobs_active_turn_idx')
      .on(t.turn)
      .where(sql`${t.status} in ('queued', 'running')`),
  ],
)

/**
 * One version of an optimization's result: the full snapshot of the inputs that produced it
 * (course, rider setup, environment, constraints) and every result, so that later edits of the
 * setup or course never change what a result shows.
 */
export const optimizationResults = pgTable(
  'optimization_results',
  {
    id: generatedId(),
    optimizationId: parentId('optimization_id', () => optimizations.id),
    /** 1, 2, 3… per optimization */
    version: integer('version').notNull(),
    /** e.g. "calm vs windy" */
    label: text('label'),
    status: jobStatus('status').notNull().default('queued'),
    /** 0–100 */
    progress: doublePrecision('progress').notNull().default(0),
    inputs: jsonb('inputs').$type<JsonObject>().notNull(),
    result: jsonb('result').$type<JsonObject>(),
    error: jsonb('error').$type<{ code: string; message: string }>(),
    jobId: uuid('job_id').references(() => jobs.id, { onDelete: 'set null' }),
    exportFileId: uuid('export_file_id').references(() => files.id, { onDelete: 'set null' }),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('optimization_results_version_idx').on(t.optimizationId, t.version),
    /** A retried job never produces two results. */
    uniqueIndex('optimization_results_job_idx').on(t.jobId),
    check('optimization_results_progress', sql`${t.progress} between 0 and 100`),
  ],
)

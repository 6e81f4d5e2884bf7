// Admission of jobs: the caps on unfinished (queued or running) jobs per account and per team,
// and each job's turn in the fair order in which workers take them (docs/limits-jobs.md).
//
// The turn is `round × ROUND + rank`. A requester's next job comes one round after their previous
// unfinished one; a requester with nothing unfinished joins the round of the next job to start.
// Within a round, the requester with fewer unfinished jobs goes first (`rank`, their count at
// admission), then the earlier job. pg-boss takes the highest priority first, so a job is sent
// with priority −turn, and every worker process, fetching with SKIP LOCKED, picks in that order.
import type { Db } from '@veloptima/db'
import { AppError } from '../errors.ts'
import { ownerOf, type Owner } from '../repositories/ownership.ts'
import {
  activeLoad,
  insertJob,
  lockAdmission,
  recentJobSeconds,
  teamName,
  type ActiveLoad,
  type JobRow,
  type NewJobRow,
} from './repository.ts'

export type JobLimits = {
  /** Unfinished jobs one account may have queued, whoever owns the items. */
  perUser: number
  /** Unfinished jobs of one team's items, whoever queued them. */
  perTeam: number
}

/** The defaults of JOB_MAX_ACTIVE_PER_USER and JOB_MAX_ACTIVE_PER_TEAM (apps/api/src/config.ts). */
export const DEFAULT_JOB_LIMITS: JobLimits = { perUser: 10, perTeam: 30 }

const ROUND = 16

/** A job row to admit: who queued it is required (their cap counts it). */
export type NewJob = Omit<NewJobRow, 'requestedBy' | 'turn'> & { requestedBy: string }

export type JobLimitDetails = {
  scope: 'user' | 'team'
  limit: number
  active: number
  retry_after_s: number
  team_id?: string
}

/** 429: an account or team has as many unfinished jobs as it may have. */
export class JobLimitError extends AppError {
  constructor(message: string, details: JobLimitDetails) {
    super('too-many-jobs', message, details, {
      'retry-after': String(details.retry_after_s),
    })
  }
}

/** The turn of a new job of a requester, from the unfinished jobs (see the file's comment). */
export function turnOf(load: ActiveLoad): number {
  const headRound = Math.floor(load.head / ROUND)
  const round =
    load.ownLastTurn === null
      ? headRound
      : Math.max(headRound, Math.floor(load.ownLastTurn / ROUND) + 1)
  return round * ROUND + Math.min(load.own, ROUND - 1)
}

const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`

/** A job of one account takes about this long (their items' recent jobs), for Retry-After. */
async function retryAfterSeconds(db: Db, owner: Owner) {
  const seconds = await recentJobSeconds(db, owner)
  return Math.min(300, Math.max(1, Math.ceil(seconds ?? 15)))
}

/** Throws JobLimitError when the requester or the item's team has no room for one more job. */
async function refuseOverCap(db: Db, job: NewJob, load: ActiveLoad, limits: JobLimits) {
  const owner = ownerOf(job.ownerTeam, job.ownerUid ?? job.requestedBy)
  if (load.own >= limits.perUser) {
    throw new JobLimitError(
      `You have ${plural(load.own, 'job')} queued or running (optimization runs and aero ` +
        `analyses), the most one account may have at once; wait for one to finish, or cancel ` +
        `one, then try again.`,
      {
        scope: 'user',
        limit: limits.perUser,
        active: load.own,
        retry_after_s: await retryAfterSeconds(db, owner),
      },
    )
  }
  if (job.ownerTeam && load.team >= limits.perTeam) {
    const name = await teamName(db, job.ownerTeam)
    throw new JobLimitError(
      `${name ? `The team “${name}”` : 'This team'} has ` +
        `${plural(load.team, 'job')} queued or running, the most one team may have at once; ` +
        `wait for one of them to finish, then try again.`,
      {
        scope: 'team',
        limit: limits.perTeam,
        active: load.team,
        retry_after_s: await retryAfterSeconds(db, owner),
        team_id: job.ownerTeam,
      },
    )
  }
}

/**
 * Refuses early (before reading files or computing inputs) when the requester or the team is
 * already at its cap. Not a guarantee: `admitJob` checks again under the locks.
 */
export async function checkRoom(
  db: Db,
  job: Pick<NewJob, 'requestedBy' | 'ownerUid' | 'ownerTeam'>,
  limits: JobLimits,
): Promise<void> {
  const load = await activeLoad(db, job.requestedBy, job.ownerTeam ?? null)
  await refuseOverCap(db, job as NewJob, load, limits)
}

/**
 * Inserts the job's row in the caller's transaction, with its turn, if the requester and the
 * item's team are under their caps; else throws JobLimitError. The requester's and the team's
 * locks are held until the transaction ends, so parallel admissions are counted one after the
 * other and never exceed a cap.
 */
export async function admitJob(tx: Db, job: NewJob, limits: JobLimits): Promise<JobRow> {
  await lockAdmission(tx, [
    `jobs-user:${job.requestedBy}`,
    ...(job.ownerTeam ? [`jobs-team:${job.ownerTeam}`] : []),
  ])
  const load = await activeLoad(tx, job.requestedBy, job.ownerTeam ?? null)
  await refuseOverCap(tx, job, load, limits)
  return insertJob(tx, { ...job, turn: turnOf(load) })
}

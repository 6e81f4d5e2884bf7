import type { FastifyBaseLogger } from 'fastify'
import { PgBoss, fromPglite, type JobWithMetadata, type Queue } from 'pg-boss'
import type { Database, Db } from '@veloptima/db'
import {
  TaskAbortedError,
  TaskError,
  WorkerCrashedError,
  WorkerPool,
  type TaskProgress,
} from './pool.ts'
import { admitJob, checkRoom, DEFAULT_JOB_LIMITS, type JobLimits, type NewJob } from './limits.ts'
import {
  markCancelled,
  markFailed,
  markRetrying,
  markRunning,
  recordProgress,
  unfinishedJobs,
  type JobRow,
} from './repository.ts'

/** The job data every queue carries: the id of its `jobs` row (also the pg-boss job id). */
export type JobData = { jobId: string }

export type JobContext = {
  jobId: string
  /** 1 for the first attempt, 2 for the first retry… */
  attempt: number
  /** The job threads; a task waiting for a thread goes before the tasks of later turns. */
  pool: Pick<WorkerPool, 'run'>
  /** Aborted when the job is cancelled or pg-boss no longer counts it as ours: stop working. */
  signal: AbortSignal
  /**
   * Records progress (0–100) and what the job is doing where the API reads it, NOTIFYed by the
   * jobs trigger: a new message (a new stage) at once, progress within a stage throttled.
   */
  progress(progress: number, message?: string): void
}

/** A failure that retrying cannot fix (bad inputs, infeasible problem): the job fails at once. */
export class PermanentJobError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message)
  }
}

export type JobDefinition = {
  queue: string
  /** Runs one attempt. Must be idempotent: it may run again after a crash (at-least-once). */
  run(ctx: JobContext): Promise<void>
  /** Mirrors recorded progress elsewhere (e.g. on the result the job computes); throttled. */
  onProgress?(jobId: string, progress: number): Promise<void>
  /** Cancels what the job works on, in the transaction that cancels the job (before the job's row). */
  onCancelled?(tx: Db, jobId: string): Promise<void>
  /** Called once when the job has failed for good (after the last attempt, or at once). */
  onFailed?(jobId: string, error: { code: string; message: string }): Promise<void>
  options?: Omit<Queue, 'name'>
}

/** Retries with exponential backoff: about 2–4 s, 4–8 s, 8–16 s (pg-boss adds jitter). */
export const DEFAULT_QUEUE_OPTIONS: Omit<Queue, 'name'> = {
  retryLimit: 3,
  retryDelay: 2,
  retryBackoff: true,
  retryDelayMax: 120,
  expireInSeconds: 30 * 60,
  // A worker that vanishes (process killed) stops sending heartbeats: its job is retried.
  heartbeatSeconds: 30,
  notify: true,
}

const PROGRESS_INTERVAL_MS = 250

const errorOf = (error: unknown): { code: string; message: string } => {
  if (error instanceof PermanentJobError) return { code: error.code, message: error.message }
  if (error instanceof TaskError) {
    // The engine's input errors name the field and are for the user; anything else the engine
    // threw is a fault of ours, said as such.
    if (error.code) return { code: error.code, message: error.message }
    return {
      code: 'task-failed',
      message: `The computation failed (${error.errorName}: ${error.message}).`,
    }
  }
  if (error instanceof WorkerCrashedError) return { code: error.code, message: error.message }
  // Anything else is ours (a query, the storage): logged in full, shown to the user in short.
  return { code: 'internal', message: 'The job failed on our side.' }
}

/**
 * Background jobs: pg-boss queues in the application's own database, a `jobs` row per job for
 * status and progress, and a pool of worker threads for the computation.
 *
 * In embedded mode pg-boss reaches PGlite through its `fromPglite` adapter over the database's
 * thread client (PGlite runs in a worker thread, packages/db/src/pglite-thread.mjs), whose
 * statements take PGlite's transaction lock like the application's (docs/decisions/0005). On
 * PostgreSQL it has its own small pool.
 *
 * A sent job starts at once, never after a poll:
 * - in the process that sends it, `send` wakes one of its idle workers of that queue
 *   (pg-boss's `notifyWorker`);
 * - in every other process, pg-boss's own LISTEN/NOTIFY (`useListenNotify`, queues with
 *   `notify`): the job's insert NOTIFYs in its own transaction, and each process LISTENs on a
 *   dedicated connection that it checks with a heartbeat, re-opens when it drops and, once back,
 *   wakes its workers to fetch what was sent meanwhile.
 * The poll (`pollingIntervalSeconds`) stays as the fallback: a retry whose delay ran out, a
 * database where LISTEN cannot be held (a transaction-pooling proxy).
 */
export class JobSystem {
  private boss?: PgBoss
  private booting?: Promise<PgBoss>
  private readonly definitions = new Map<string, JobDefinition>()
  pool?: WorkerPool
  private interactive?: WorkerPool
  /** The attempts running in this process, to stop one at once when its job is cancelled. */
  private readonly running = new Map<string, AbortController>()
  /** This process's pg-boss workers that hold no job now, per queue: `send` wakes one. */
  private readonly idle = new Map<string, Set<string>>()

  constructor(
    private readonly database: Database,
    private readonly log: FastifyBaseLogger,
    private readonly heartbeatSeconds = 30,
    /** The caps on unfinished jobs (JOB_MAX_ACTIVE_PER_USER, JOB_MAX_ACTIVE_PER_TEAM). */
    readonly limits: JobLimits = DEFAULT_JOB_LIMITS,
  ) {}

  define(definition: JobDefinition) {
    this.definitions.set(definition.queue, definition)
  }

  /** pg-boss, started on first use (sending works without workers: another process may run them). */
  private connect(): Promise<PgBoss> {
    this.booting ??= (async () => {
      const { database } = this
      const boss =
        database.driver === 'pglite'
          ? new PgBoss({
              db: fromPglite(database.pglite!),
              backend: 'pglite',
              useListenNotify: true,
            })
          : new PgBoss({
              connectionString: database.pool!.options.connectionString!,
              max: 4,
              useListenNotify: true,
              // Stale heartbeats are failed by the supervisor's monitor pass, which runs per queue
              // every monitorIntervalSeconds (60 s by default) on the supervise timer: both as often
              // as a heartbeat can go stale, so a dead worker's job is retried within about
              // 2 × JOB_HEARTBEAT_SECONDS (multi-process.int.test.ts measures it).
              superviseIntervalSeconds: this.heartbeatSeconds,
              monitorIntervalSeconds: this.heartbeatSeconds,
            })
      boss.on('error', (error) => this.log.error({ err: error }, 'job queue error'))
      await boss.start()
      for (const d of this.definitions.values()) {
        await boss.createQueue(d.queue, {
          ...DEFAULT_QUEUE_OPTIONS,
          heartbeatSeconds: this.heartbeatSeconds,
          ...d.options,
        })
      }
      this.boss = boss
      return boss
    })()
    return this.booting
  }

  /**
   * Starts the queues and, with `workers` > 0, a pool of that many threads working them.
   * Re-sends jobs whose row says unfinished but that pg-boss does not know (a crash between the
   * row's commit and the send): sending the same id twice is a no-op. `pollingIntervalSeconds` is
   * the fallback poll of the workers (a sent job wakes them without it, see the class comment).
   */
  async start({
    workers,
    pollingIntervalSeconds = 2,
  }: {
    workers: number
    pollingIntervalSeconds?: number
  }): Promise<void> {
    const boss = await this.connect()
    for (const job of await unfinishedJobs(this.database.db)) {
      if (!this.definitions.has(job.kind)) continue
      await this.send(job.kind, job.id, job.turn)
      // Embedded mode has one process: a job still active at start lost its worker in a crash.
      // Fail that attempt now (pg-boss retries it) rather than wait for its heartbeat to go stale.
      if (this.database.driver !== 'pglite') continue
      const found = await boss.getJobById(job.kind, job.id)
      if (found?.state !== 'active') continue
      await boss.fail(job.kind, job.id, { message: 'The server stopped during this attempt.' })
      const attempt = found.retryCount + 1
      if ((await boss.getJobById(job.kind, job.id))?.state === 'failed') {
        const failure = {
          code: 'interrupted',
          message: `The server stopped during attempt ${attempt}, the last one.`,
        }
        await this.definitions.get(job.kind)!.onFailed?.(job.id, failure)
        await markFailed(this.database.db, job.id, failure)
      } else {
        await markRetrying(this.database.db, job.id, attempt, 'the server stopped')
      }
    }
    if (workers < 1 || this.pool) return
    this.pool = new WorkerPool(workers)
    // One pg-boss worker per thread and queue, each fetching one job at a time in turn order
    // (limits.ts). A worker that has just finished a job fetches again at once instead of
    // sleeping out its poll: a backlog is worked without a pause between two jobs.
    for (const d of this.definitions.values()) {
      const idle = new Set<string>()
      this.idle.set(d.queue, idle)
      for (let i = 0; i < workers; i++) {
        let workerId = ''
        workerId = await boss.work(
          d.queue,
          {
            includeMetadata: true,
            pollingIntervalSeconds,
            notifyPollingIntervalSeconds: pollingIntervalSeconds,
          },
          async ([job]: JobWithMetadata<JobData>[]) => {
            if (!job) return
            idle.delete(workerId)
            try {
              await this.runAttempt(d, job)
            } finally {
              idle.add(workerId)
              boss.notifyWorker(workerId)
            }
          },
        )
        idle.add(workerId)
      }
    }
  }

  /**
   * One thread for work a request waits for (reading an uploaded course), apart from the job
   * threads so that it never queues behind a long optimization. Started on first use.
   */
  interactivePool(): WorkerPool {
    this.interactive ??= new WorkerPool(1)
    return this.interactive
  }

  /**
   * Refuses (JobLimitError, 429) a job that the requester's or the team's cap has no room for; a
   * cheap early check before the work of preparing a job. `admit` checks again under locks.
   */
  checkRoom(job: Pick<NewJob, 'requestedBy' | 'ownerUid' | 'ownerTeam'>): Promise<void> {
    return checkRoom(this.database.db, job, this.limits)
  }

  /**
   * Inserts a job's row with its fair turn in the caller's transaction, or refuses it
   * (JobLimitError, 429) when the requester or the item's team is at its cap. After the
   * transaction commits, `send` the row.
   */
  admit(tx: Db, job: NewJob): Promise<JobRow> {
    return admitJob(tx, job, this.limits)
  }

  /**
   * Queues the job whose `jobs` row (id = jobId, kind = queue, its `turn`) the caller has
   * committed. pg-boss fetches the highest priority first: the lowest turn.
   */
  async send(queue: string, jobId: string, turn: number): Promise<void> {
    const boss = await this.connect()
    await boss.send(queue, { jobId } satisfies JobData, { id: jobId, priority: -turn })
    // One idle worker of this process fetches now (the lowest turn first, this job or an older
    // one); the other processes hear the insert's NOTIFY.
    const [workerId] = this.idle.get(queue) ?? []
    if (workerId) boss.notifyWorker(workerId)
  }

  /** pg-boss's view of a job (state, retry count), for diagnostics and tests. */
  async bossJob(queue: string, jobId: string) {
    const boss = await this.connect()
    return boss.getJobById(queue, jobId)
  }

  private async runAttempt(d: JobDefinition, job: JobWithMetadata<JobData>) {
    const { db } = this.database
    const jobId = job.data.jobId
    const attempt = job.retryCount + 1
    const lastAttempt = job.retryCount >= job.retryLimit
    await markRunning(db, jobId, attempt)
    // Which process took which attempt: with several worker processes, the log says who ran it.
    this.log.info(
      { jobId, kind: d.queue, queue: d.queue, attempt, pid: process.pid },
      'job attempt started',
    )
    // Each attempt's end, one line: done, failed (for good), retry (pg-boss runs it again) or
    // stopped (cancelled, or taken over after a stale heartbeat).
    const startedAt = performance.now()
    const ended = (outcome: 'done' | 'failed' | 'retry' | 'stopped') =>
      this.log[outcome === 'done' || outcome === 'stopped' ? 'info' : 'warn'](
        {
          jobId,
          kind: d.queue,
          attempt,
          outcome,
          durationMs: Math.round(performance.now() - startedAt),
          pid: process.pid,
        },
        'job attempt ended',
      )
    const local = new AbortController()
    this.running.set(jobId, local)
    const signal = AbortSignal.any([local.signal, job.signal])
    // Progress within a stage is written at most every PROGRESS_INTERVAL_MS; the latest value
    // within an interval is written at its end (so a quick 5 → 10 % step still shows 10 %). A
    // new stage is written at once, so that each one is seen, however short.
    let lastWrite = 0
    let lastMessage: string | null = null
    let latest: { p: number; message: string | null } | undefined
    let timer: NodeJS.Timeout | undefined
    let pending: Promise<void> = Promise.resolve()
    const flush = () => {
      timer = undefined
      if (!latest) return
      const { p, message } = latest
      latest = undefined
      lastWrite = Date.now()
      lastMessage = message
      pending = pending
        .then(async () => {
          await recordProgress(db, jobId, p, message)
          await d.onProgress?.(jobId, p)
        })
        .catch((error) => this.log.warn({ err: error, jobId }, 'progress not recorded'))
    }
    const pool = this.pool!
    // The job's turn orders its tasks in the threads' waiting line too: with several queues a
    // process may hold more jobs than it has threads (docs/limits-jobs.md).
    const turn = -job.priority
    const ctx: JobContext = {
      jobId,
      attempt,
      pool: {
        run: <T>(
          task: string,
          input: unknown,
          onProgress?: (p: TaskProgress) => void,
          signal?: AbortSignal,
        ) => pool.run<T>(task, input, onProgress, signal, turn),
      },
      signal,
      progress: (progress, message) => {
        latest = { p: Math.max(0, Math.min(100, progress)), message: message ?? null }
        const wait = lastWrite + PROGRESS_INTERVAL_MS - Date.now()
        if (wait <= 0 || latest.message !== lastMessage) flush()
        else timer ??= setTimeout(flush, wait)
      },
    }
    try {
      await d.run(ctx)
      await pending
      ended('done')
    } catch (error) {
      await pending
      if (signal.aborted || error instanceof TaskAbortedError) {
        // Cancelled (the row says so already) or taken from us by pg-boss (another attempt owns
        // the row now): nothing to record.
        this.log.info({ jobId, attempt }, 'job attempt stopped')
        ended('stopped')
        return
      }
      const failure = errorOf(error)
      // A task that threw in its thread failed on its input: the same input fails the same way.
      const permanent = error instanceof PermanentJobError || error instanceof TaskError
      if (permanent || lastAttempt) {
        this.log.warn({ jobId, attempt, err: error }, 'job failed')
        ended('failed')
        // The job's own record last: whoever sees it failed also sees what the failure wrote.
        await d.onFailed?.(jobId, failure)
        await markFailed(db, jobId, failure)
        if (permanent) return
      } else {
        this.log.warn({ jobId, attempt, err: error }, 'job attempt failed; it will be retried')
        ended('retry')
        await markRetrying(db, jobId, attempt, failure.message)
      }
      throw error
    } finally {
      if (timer) clearTimeout(timer)
      this.running.delete(jobId)
    }
  }

  /**
   * Cancels a queued or running job: its row and what it works on in one transaction, then
   * pg-boss; an attempt running here loses its thread at once (one running elsewhere stops at its
   * next heartbeat). False when the job had already finished.
   */
  async cancel(queue: string, jobId: string): Promise<boolean> {
    const d = this.definitions.get(queue)
    const cancelled = await this.database.db.transaction(async (tx) => {
      await d?.onCancelled?.(tx, jobId)
      return markCancelled(tx, jobId)
    })
    if (!cancelled) return false
    const boss = await this.connect()
    await boss.cancel(queue, jobId).catch(() => undefined)
    this.running.get(jobId)?.abort()
    return true
  }

  /** Stops the threads first (their jobs fail now and are retried after a restart), then pg-boss. */
  async stop(): Promise<void> {
    await Promise.all([this.pool?.close(), this.interactive?.close()])
    this.idle.clear()
    this.pool = undefined
    this.interactive = undefined
    const boss = this.booting ? await this.booting.catch(() => undefined) : undefined
    this.booting = undefined
    this.boss = undefined
    await boss?.stop({ graceful: true, timeout: 5000 })
  }
}

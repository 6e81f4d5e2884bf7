// Running an optimization: POST …/run makes a result version (status queued) and a job; the job
// computes in a worker thread, then in ONE transaction stores the result, the export file's row,
// the "Optimization ready" notification and the job's success. That transaction only applies
// while the result is not yet succeeded, so an attempt repeated after a crash (pg-boss delivers
// at least once) never produces a second result, file or notification.
import { randomUUID } from 'node:crypto'
import { and, eq, inArray, ne, or, sql } from 'drizzle-orm'
import type { PgColumn } from 'drizzle-orm/pg-core'
import {
  courses,
  files,
  notifications,
  optimizationResults,
  optimizations,
  riderSetups,
  teamMembers,
  type Db,
  type JsonObject,
} from '@veloptima/db'
import { EngineInputError, courseFromSegments, validateSimulationInput } from '@veloptima/engine'
import { AppError, notFound } from '../errors.ts'
import type { FileService } from '../files/service.ts'
import type { Owner } from '../files/repository.ts'
import { engineInputOf, runSettingsSchema, snapshotOf, type RunSnapshot } from './engine-inputs.ts'
import { planCsv } from './plan-csv.ts'
import { insertJob, markSucceeded } from './repository.ts'
import { PermanentJobError, type JobDefinition, type JobSystem } from './system.ts'
import type { ConstantPowerResult, EngineInput } from './tasks.ts'

export const OPTIMIZATION_RUN = 'optimization-run'

type ResultRow = typeof optimizationResults.$inferSelect

/** Items a user may use: their own or their teams' (samples are readable by everyone). */
const ownedBy = (uid: string, t: { ownerUid: PgColumn; ownerTeam: PgColumn }) =>
  or(
    eq(t.ownerUid, uid),
    inArray(
      t.ownerTeam,
      sql`(select ${teamMembers.teamId} from ${teamMembers} where ${teamMembers.uid} = ${uid})`,
    ),
  )

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** What the run computes and how: the task and its input, decided once at POST time. */
type RunPlan = { task: 'constant-power'; input: EngineInput & { powerW: number } }

function planOf(snapshot: RunSnapshot): RunPlan {
  const input = engineInputOf(snapshot)
  const settings = runSettingsSchema.parse(snapshot.optimization.inputs ?? {})
  const c = settings.constraint
  const powerW =
    settings.power_w ??
    (c && c.type !== 'w_prime_balance' ? c.power_w : undefined) ??
    snapshot.rider_setup.cp ??
    undefined
  if (powerW === undefined) {
    throw new AppError(
      'optimization-incomplete',
      400,
      'Set a power: a constant power, a normalized or average power constraint, or the rider setup’s CP.',
    )
  }
  return { task: 'constant-power', input: { ...input, powerW } }
}

/** Checks the engine inputs in the request, so bad inputs are refused before anything is written. */
function checkPlan(plan: RunPlan) {
  if (plan.input.segments.length === 0) {
    throw new AppError('optimization-incomplete', 400, 'The course has no segments.')
  }
  try {
    validateSimulationInput({
      course: courseFromSegments(plan.input.segments, plan.input.startAltitudeM),
      rider: plan.input.rider,
      environment: plan.input.environment,
      pacing: { type: 'constant', powerW: plan.input.powerW },
    })
  } catch (error) {
    if (error instanceof EngineInputError) {
      throw new AppError(
        'invalid-inputs',
        400,
        `The inputs cannot be simulated: ${error.message}`,
        {
          field: error.field,
        },
      )
    }
    throw error
  }
}

export class OptimizationRuns {
  constructor(
    private readonly db: Db,
    private readonly jobs: JobSystem,
    private readonly files: FileService,
  ) {
    jobs.define({
      queue: OPTIMIZATION_RUN,
      run: (ctx) => this.run(ctx.jobId, ctx),
      onFailed: (jobId, error) => this.failed(jobId, error),
    })
  }

  /** Starts a run of an optimization the caller can see; answers the job and the result version. */
  async start(uid: string, optimizationId: string, label?: string) {
    const optimization = UUID.test(optimizationId)
      ? (
          await this.db
            .select()
            .from(optimizations)
            .where(and(eq(optimizations.id, optimizationId), ownedBy(uid, optimizations)))
        )[0]
      : undefined
    if (!optimization) throw notFound('The optimization')
    if (optimization.type === 'equipment') {
      throw new AppError(
        'not-available',
        422,
        'Equipment optimizations cannot be run yet: only pacing runs are available.',
      )
    }
    if (!optimization.courseId || !optimization.riderSetupId) {
      throw new AppError(
        'optimization-incomplete',
        400,
        'Choose a course and a rider setup for this optimization before running it.',
      )
    }
    const [course] = await this.db
      .select()
      .from(courses)
      .where(
        and(
          eq(courses.id, optimization.courseId),
          or(eq(courses.sample, true), ownedBy(uid, courses)),
        ),
      )
    if (!course) throw notFound('The optimization’s course')
    const [setup] = await this.db
      .select()
      .from(riderSetups)
      .where(and(eq(riderSetups.id, optimization.riderSetupId), ownedBy(uid, riderSetups)))
    if (!setup) throw notFound('The optimization’s rider setup')

    const snapshot = snapshotOf(uid, optimization, course, setup)
    checkPlan(planOf(snapshot))
    const owner: Owner = optimization.ownerTeam
      ? { team: optimization.ownerTeam }
      : { uid: optimization.ownerUid! }
    const jobId = randomUUID()
    const resultId = randomUUID()
    const version = await this.db.transaction(async (tx) => {
      const [row] = await tx
        .select({ v: sql<number>`coalesce(max(${optimizationResults.version}), 0)::int` })
        .from(optimizationResults)
        .where(eq(optimizationResults.optimizationId, optimization.id))
      const next = Number(row?.v ?? 0) + 1
      await insertJob(tx, {
        id: jobId,
        ownerUid: owner.uid ?? null,
        ownerTeam: owner.team ?? null,
        kind: OPTIMIZATION_RUN,
        subjectType: 'optimization_result',
        subjectId: resultId,
        bossJobId: jobId,
      })
      await tx.insert(optimizationResults).values({
        id: resultId,
        optimizationId: optimization.id,
        version: next,
        label: label ?? null,
        status: 'queued',
        inputs: snapshot as unknown as JsonObject,
        jobId,
      })
      return next
    })
    await this.jobs.send(OPTIMIZATION_RUN, jobId)
    return { jobId, resultId, version }
  }

  private async resultOf(jobId: string): Promise<ResultRow> {
    const [result] = await this.db
      .select()
      .from(optimizationResults)
      .where(eq(optimizationResults.jobId, jobId))
    if (!result) throw new PermanentJobError('result-missing', 'The result version was deleted.')
    return result
  }

  /** One attempt of a run (idempotent). */
  private async run(jobId: string, ctx: Parameters<JobDefinition['run']>[0]) {
    const result = await this.resultOf(jobId)
    if (result.status === 'succeeded') {
      // A previous attempt committed everything but pg-boss did not hear of it: nothing to redo.
      await markSucceeded(this.db, jobId, { result_id: result.id })
      return
    }
    await this.db
      .update(optimizationResults)
      .set({ status: 'running', startedAt: sql`coalesce(${optimizationResults.startedAt}, now())` })
      .where(
        and(eq(optimizationResults.id, result.id), ne(optimizationResults.status, 'succeeded')),
      )
    const snapshot = result.inputs as unknown as RunSnapshot
    let plan: RunPlan
    try {
      plan = planOf(snapshot)
    } catch (error) {
      throw new PermanentJobError('invalid-inputs', (error as Error).message)
    }
    ctx.progress(1, 'Starting')
    const output = await ctx.pool.run<ConstantPowerResult>(plan.task, plan.input, (p) =>
      ctx.progress(p.progress, p.message),
    )
    if (output.status !== 'ok') {
      throw new PermanentJobError('infeasible', output.message ?? 'The ride does not finish.')
    }

    // The export's key is the job's: a repeated attempt rewrites the same bytes, never a second file.
    const name = `${snapshot.optimization.name} – v${result.version} plan.csv`
    const prepared = this.files.prepare(name, Buffer.from(planCsv(output.sections)), {
      key: `exports/${jobId}.csv`,
    })
    await this.files.storage.put(prepared.key, prepared.bytes)
    const [optimization] = await this.db
      .select({ ownerUid: optimizations.ownerUid, ownerTeam: optimizations.ownerTeam })
      .from(optimizations)
      .where(eq(optimizations.id, result.optimizationId))
    const owner: Owner = optimization?.ownerTeam
      ? { team: optimization.ownerTeam }
      : { uid: optimization?.ownerUid ?? snapshot.requested_by }

    await this.db.transaction(async (tx) => {
      // The guard: only the first attempt to get here writes anything.
      const done = await tx
        .update(optimizationResults)
        .set({
          status: 'succeeded',
          progress: 100,
          result: output as unknown as JsonObject,
          error: null,
          finishedAt: sql`now()`,
          updatedAt: sql`now()`,
        })
        .where(
          and(eq(optimizationResults.id, result.id), ne(optimizationResults.status, 'succeeded')),
        )
        .returning({ id: optimizationResults.id })
      if (done.length === 0) return
      const file = await this.files.insertRow(tx, prepared, owner, 'export')
      await tx
        .update(optimizationResults)
        .set({ exportFileId: file.id })
        .where(eq(optimizationResults.id, result.id))
      const minutes = Math.floor(output.time_s / 60)
      await tx.insert(notifications).values({
        uid: snapshot.requested_by,
        type: 'success',
        title: 'Optimization ready',
        text: `${snapshot.optimization.name} (v${result.version}): ${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min at a constant ${Math.round(output.power_w)} W on ${snapshot.course.name}.`,
        downloadBlob: file.id,
        data: {
          optimization_id: result.optimizationId,
          optimization_type: snapshot.optimization.type,
          result_id: result.id,
          result_type: output.type,
        },
      })
      await markSucceeded(tx, jobId, { result_id: result.id, export_file_id: file.id })
    })
  }

  private async failed(jobId: string, error: { code: string; message: string }) {
    const result = await this.resultOf(jobId).catch(() => undefined)
    if (!result) return
    const failed = await this.db
      .update(optimizationResults)
      .set({ status: 'failed', error, finishedAt: sql`now()`, updatedAt: sql`now()` })
      .where(
        and(eq(optimizationResults.id, result.id), ne(optimizationResults.status, 'succeeded')),
      )
      .returning({ id: optimizationResults.id })
    if (failed.length === 0) return
    // The export bytes of an attempt that never committed have no row: remove them.
    const key = `exports/${jobId}.csv`
    const [row] = await this.db
      .select({ id: files.id })
      .from(files)
      .where(eq(files.storageKey, key))
    if (!row) await this.files.storage.delete(key)
    const snapshot = result.inputs as unknown as RunSnapshot
    await this.db.insert(notifications).values({
      uid: snapshot.requested_by,
      type: 'error',
      title: 'Optimization failed',
      text: `${snapshot.optimization.name} (v${result.version}): ${error.message}`,
      data: { optimization_id: result.optimizationId, result_id: result.id },
    })
  }
}

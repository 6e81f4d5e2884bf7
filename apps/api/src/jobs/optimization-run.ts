// Running an optimization: POST …/run makes a result version (status queued) and a job; the job
// computes in a worker thread, then in ONE transaction stores the result, the export file's row,
// the "Optimization ready" notification and the job's success. That transaction only applies
// while the result is not yet succeeded, so an attempt repeated after a crash (pg-boss delivers
// at least once) never produces a second result, file or notification.
import { randomUUID } from 'node:crypto'
import type { Db, JsonObject } from '@veloptima/db'
import { EngineInputError, validatePacingInput } from '@veloptima/engine'
import { exportSections, writePlanCsv } from '@veloptima/formats'
import { AppError, notFound } from '../errors.ts'
import type { FileService } from '../files/service.ts'
import {
  optimizerInputOf,
  parseOptimizerInput,
  snapshotOf,
  type OptimizerInput,
  type RunSnapshot,
} from './engine-inputs.ts'
import { fileAtKey } from '../repositories/files.ts'
import { ownerOf, ownerToColumns } from '../repositories/ownership.ts'
import { insertNotification } from '../repositories/notifications.ts'
import type { ResultRow } from '../repositories/results.ts'
import {
  cancelResultOfJob,
  insertResultVersion,
  markResultFailed,
  markResultRunning,
  markResultSucceeded,
  recordResultProgress,
  resultOfJob,
  setResultExport,
} from '../repositories/runs.ts'
import { courseRepo, optimizationRepo, riderSetupRepo } from '../repositories/collection.ts'
import { markSucceeded } from './repository.ts'
import { PermanentJobError, type JobDefinition, type JobSystem } from './system.ts'
import { eventStartOf, PLAN_ROUNDS, type RaceDayWeather } from '../weather/race-day.ts'
import type { PacingOutput, RunOutput } from './tasks.ts'

export const OPTIMIZATION_RUN = 'optimization-run'

/** Where each stage of a run starts on the progress bar (%); the optimization fills 10–85. */
const STAGES = {
  preparing: 2,
  forecast: 5,
  optimizing: 10,
  optimized: 85,
  plan: 90,
  storing: 95,
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** What the run computes: the task (pacing or equipment) and its input, decided at POST time. */
type RunPlan = { task: 'pacing' | 'equipment'; input: OptimizerInput }

function planOf(snapshot: RunSnapshot): RunPlan {
  const type = snapshot.optimization.type
  const inputs = (snapshot.optimization.inputs ?? {}) as { equipment?: unknown }
  if (type === 'equipment' && inputs.equipment === undefined) {
    throw new AppError(
      'optimization-incomplete',
      'Add the equipment options to compare (at least one group with its options) before running.',
    )
  }
  return { task: type, input: optimizerInputOf(snapshot) }
}

/**
 * Checks the inputs with the engine's own parser and the optimizer's own validation (what the
 * constraint needs, e.g. CP and W′ for the W′ balance; the ranges of masses, CdA, efficiency…),
 * so that what the job would refuse is refused at once, before any write.
 */
function checkPlan(plan: RunPlan) {
  refuseBadInputs(() => validatePacingInput(parseOptimizerInput(plan.input).input))
}

/** Runs a step that reads the inputs; the engine's named input errors become a 400. */
function refuseBadInputs<T>(step: () => T): T {
  try {
    return step()
  } catch (error) {
    const e = error as Error & { field?: string }
    if (error instanceof EngineInputError || e.field) {
      throw new AppError('invalid-inputs', `These inputs cannot be used: ${e.message}.`, {
        field: e.field,
      })
    }
    throw error
  }
}

const duration = (seconds: number) => {
  const s = Math.round(Math.abs(seconds))
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  const r = s % 60
  return h > 0 ? `${h} h ${String(m).padStart(2, '0')} min` : m > 0 ? `${m} min ${r} s` : `${r} s`
}

/** The notification's text: the predicted time and what the optimization gained. */
function summaryOf(output: RunOutput): string {
  if (output.type === 'pacing') {
    const base = output.baseline
    const gain = output.time_saved_s ?? 0
    const saved = !base
      ? ''
      : gain >= 1
        ? `, ${duration(gain)} faster than a steady ${Math.round(base.power_w)} W`
        : `, as fast as a steady ${Math.round(base.power_w)} W (this course suits an even effort)`
    return `${duration(output.time_s)} predicted${saved}.`
  }
  const best = output.ranking[0]!
  const choices = Object.entries(best.choices)
    .map(([group, option]) => `${group}: ${option}`)
    .join(', ')
  const gain = best.delta_s < 0 ? `, ${duration(-best.delta_s)} faster than the baseline` : ''
  return `fastest with ${choices} — ${duration(best.time_s)}${gain}.`
}

/**
 * Two runs started at the same moment can pick the same next version number; the unique index
 * refuses the second, which then tries again with the following number.
 */
async function withVersionRetry<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write()
    } catch (error) {
      const e = error as { code?: string; cause?: { code?: string; constraint?: string } }
      const code = e.code ?? e.cause?.code
      if (code !== '23505' || attempt >= 5) throw error
    }
  }
}

export class OptimizationRuns {
  constructor(
    private readonly db: Db,
    private readonly jobs: JobSystem,
    private readonly files: FileService,
    /** Configured from the app's parsed config (WEATHER_PROVIDER, WEATHER_URL). */
    private readonly weather: RaceDayWeather,
  ) {
    jobs.define({
      queue: OPTIMIZATION_RUN,
      run: (ctx) => this.run(ctx.jobId, ctx),
      onFailed: (jobId, error) => this.failed(jobId, error),
      onCancelled: (tx, jobId) => cancelResultOfJob(tx, jobId),
      onProgress: (jobId, progress) => recordResultProgress(this.db, jobId, progress),
    })
  }

  /** Starts a run of an optimization the caller can see; answers the job and the result version. */
  async start(uid: string, optimizationId: string, label?: string) {
    const optimization = UUID.test(optimizationId)
      ? await optimizationRepo.findWritable(this.db, uid, optimizationId)
      : undefined
    if (!optimization) throw notFound('The optimization')
    // A caller at a cap hears it before the inputs are read (checked again under locks below).
    await this.jobs.checkRoom({
      requestedBy: uid,
      ownerUid: optimization.ownerUid,
      ownerTeam: optimization.ownerTeam,
    })
    if (!optimization.courseId || !optimization.riderSetupId) {
      throw new AppError(
        'optimization-incomplete',
        'Choose a course and a rider setup for this optimization before running it.',
      )
    }
    // A sample course, or the caller's or their teams'.
    const course = await courseRepo.find(this.db, uid, optimization.courseId)
    if (!course) throw notFound('The optimization’s course')
    const setup = await riderSetupRepo.findWritable(this.db, uid, optimization.riderSetupId)
    if (!setup) throw notFound('The optimization’s rider setup')

    // the snapshot applies the optimization's rider_override (a bad one is refused here)
    const snapshot = refuseBadInputs(() => snapshotOf(uid, optimization, course, setup))
    checkPlan(planOf(snapshot))
    const owner = ownerOf(optimization.ownerTeam, optimization.ownerUid!)
    const jobId = randomUUID()
    const resultId = randomUUID()
    const { version, turn } = await withVersionRetry(() =>
      this.db.transaction(async (tx) => {
        // First the admission: it holds the requester's lock, so the same caller's runs also
        // take their version numbers one after the other.
        const job = await this.jobs.admit(tx, {
          id: jobId,
          ...ownerToColumns(owner),
          requestedBy: uid,
          kind: OPTIMIZATION_RUN,
          subjectType: 'optimization_result',
          subjectId: resultId,
          bossJobId: jobId,
        })
        const version = await insertResultVersion(tx, {
          id: resultId,
          optimizationId: optimization.id,
          label: label ?? null,
          inputs: snapshot as unknown as JsonObject,
          jobId,
        })
        return { version, turn: job.turn }
      }),
    )
    await this.jobs.send(OPTIMIZATION_RUN, jobId, turn)
    return { jobId, resultId, version }
  }

  private async resultOf(jobId: string): Promise<ResultRow> {
    const result = await resultOfJob(this.db, jobId)
    if (!result) throw new PermanentJobError('result-missing', 'The result version was deleted.')
    return result
  }

  /** One attempt of a run (idempotent). */
  private async run(jobId: string, ctx: Parameters<JobDefinition['run']>[0]) {
    const result = await this.resultOf(jobId)
    if (result.status === 'cancelled' || result.status === 'failed') return
    if (result.status === 'succeeded') {
      // A previous attempt committed everything but pg-boss did not hear of it: nothing to redo.
      await markSucceeded(this.db, jobId, { result_id: result.id })
      return
    }
    await markResultRunning(this.db, result.id)
    const snapshot = result.inputs as unknown as RunSnapshot
    let plan: RunPlan
    try {
      plan = planOf(snapshot)
    } catch (error) {
      throw new PermanentJobError('invalid-inputs', (error as Error).message)
    }
    // The stages the run panel shows, each with its share of the bar (system.ts writes a new
    // stage at once): preparing, the forecast, the optimization's rounds, the rideable plan,
    // storing.
    ctx.progress(STAGES.preparing, 'Preparing the inputs')
    // Race-day weather (an event start): the forecast's wind and air along the course, fetched
    // once and read where the plan puts the rider when (re-optimized with the plan's own arrival
    // times until they settle); when it cannot be had, the typed inputs apply and the result's
    // `weather` says why.
    if (eventStartOf(snapshot)) ctx.progress(STAGES.forecast, 'Reading the race-day forecast')
    const weather = await this.weather.forRun(snapshot, plan.input)
    const task = plan.task
    const rounds = weather?.iterate ? PLAN_ROUNDS + 1 : 1
    const what = task === 'equipment' ? 'Ranking the equipment' : 'Optimizing the pacing'
    // The first optimization takes most of the band; a later round (the plan's own arrival
    // times) an equal share of the rest.
    const { optimizing: from, optimized: to } = STAGES
    const first = rounds === 1 ? to : from + 0.8 * (to - from)
    const band = (round: number): [number, number] =>
      round === 0
        ? [from, first]
        : [
            first + ((round - 1) * (to - first)) / (rounds - 1),
            first + (round * (to - first)) / (rounds - 1),
          ]
    const optimize = (input: OptimizerInput, round: number) => {
      const [lo, hi] = band(round)
      const message = rounds === 1 ? what : `${what}, round ${round + 1} of at most ${rounds}`
      ctx.progress(lo, message)
      return ctx.pool.run<RunOutput>(
        task,
        input,
        (p) => ctx.progress(Math.round(lo + ((hi - lo) * p.progress) / 100), message),
        ctx.signal,
      )
    }
    let output: RunOutput
    let record = weather?.record
    if (weather?.iterate) {
      const done = await weather.iterate(optimize, () =>
        ctx.progress(STAGES.optimized, 'The rideable plan: its time in the forecast’s spread'),
      )
      output = done.output
      record = done.record
    } else {
      output = await optimize(weather?.input ?? plan.input, 0)
    }
    const pacing: PacingOutput = output.type === 'pacing' ? output : output.best
    // an unreachable target time keeps its result: the fastest legal plan, and why it is not the
    // target's (the page says "not reachable: the fastest legal plan is h:mm:ss")
    const fastestInstead =
      pacing.target_time !== undefined && !pacing.target_time.reached && pacing.plan.length > 0
    if (pacing.status !== 'optimal' && !fastestInstead) {
      throw new PermanentJobError(
        'infeasible',
        `The constraint cannot be met: ${pacing.reason ?? 'no plan satisfies it'}.`,
      )
    }

    ctx.progress(STAGES.plan, 'The rideable plan: writing its export')
    // The export's key is the job's: a repeated attempt rewrites the same bytes, never a second file.
    const name = `${snapshot.optimization.name} – v${result.version} plan.csv`
    const prepared = this.files.prepare(
      name,
      Buffer.from(writePlanCsv({ name, sections: exportSections(pacing.plan, pacing.targets) })),
      {
        key: `exports/${jobId}.csv`,
      },
    )
    ctx.progress(STAGES.storing, 'Storing the result')
    await this.files.storage.put(prepared.key, prepared.bytes)
    const optimization = await optimizationRepo.owner(this.db, result.optimizationId)
    const owner = ownerOf(optimization?.ownerTeam, optimization?.ownerUid ?? snapshot.requested_by)

    const written = await this.db.transaction(async (tx) => {
      // The guard: only the first attempt to get here writes anything.
      const stored = (record ? { ...output, weather: record } : output) as unknown as JsonObject
      if (!(await markResultSucceeded(tx, result.id, stored))) return false
      const file = await this.files.insertRow(tx, prepared, owner, 'export')
      await setResultExport(tx, result.id, file.id)
      await insertNotification(tx, {
        uid: snapshot.requested_by,
        type: 'success',
        title: 'Optimization ready',
        text: `${snapshot.optimization.name} (v${result.version}) on ${snapshot.course.name}: ${summaryOf(output)}`,
        downloadBlob: file.id,
        data: {
          optimization_id: result.optimizationId,
          optimization_type: snapshot.optimization.type,
          result_id: result.id,
          result_type: output.type,
        },
      })
      await markSucceeded(tx, jobId, { result_id: result.id, export_file_id: file.id })
      return true
    })
    // Cancelled meanwhile: the bytes just written belong to no row.
    if (!written) await this.removeOrphanExport(jobId)
  }

  /** Removes `exports/<job>.csv` when no file row holds it (an attempt that did not commit). */
  private async removeOrphanExport(jobId: string) {
    const key = `exports/${jobId}.csv`
    if (!(await fileAtKey(this.db, key))) await this.files.storage.delete(key)
  }

  private async failed(jobId: string, error: { code: string; message: string }) {
    const result = await this.resultOf(jobId).catch(() => undefined)
    if (!result) return
    if (!(await markResultFailed(this.db, result.id, error))) return
    await this.removeOrphanExport(jobId)
    const snapshot = result.inputs as unknown as RunSnapshot
    await insertNotification(this.db, {
      uid: snapshot.requested_by,
      type: 'error',
      title: 'Optimization failed',
      text: `${snapshot.optimization.name} (v${result.version}): ${error.message}`,
      data: { optimization_id: result.optimizationId, result_id: result.id },
    })
  }
}

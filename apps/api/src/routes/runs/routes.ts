import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import type { JobState, RunStarted } from '@veloptima/contracts'
import { AppError, notFound } from '../../errors.ts'
import { callerOf } from '../../plugins/authenticate.ts'
import { CLAIMS, user } from '../../plugins/policy.ts'
import { findVisibleJob, type JobRow } from '../../jobs/repository.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const idParams = z.object({ id: z.string() })
const runBody = z.object({ label: z.string().trim().max(100).optional() }).nullish()

export const jobJson = (job: JobRow) => {
  const output = (job.output ?? {}) as { result_id?: string; export_file_id?: string }
  return {
    id: job.id,
    kind: job.kind,
    state: job.status,
    progress: job.progress,
    message: job.message,
    attempts: job.attempts,
    ...(output.result_id ? { result_id: output.result_id } : {}),
    ...(output.export_file_id ? { export_file_id: output.export_file_id } : {}),
    ...(job.error ? { error: job.error } : {}),
    created_at: job.createdAt.toISOString(),
    started_at: job.startedAt?.toISOString() ?? null,
    finished_at: job.finishedAt?.toISOString() ?? null,
  } satisfies JobState
}

export async function runsRoutes(app: FastifyInstance) {
  app.post(
    '/optimizations/:id/run',
    user({ claims: [CLAIMS.simulations] }),
    async (request, reply) => {
      const { id } = idParams.parse(request.params)
      const body = runBody.parse(request.body)
      const run = await app.runs.start(callerOf(request).uid, id, body?.label)
      return reply.status(202).send({
        job_id: run.jobId,
        result_id: run.resultId,
        version: run.version,
        state: 'queued',
      } satisfies RunStarted)
    },
  )

  app.post('/jobs/:id/cancel', user(), async (request) => {
    const { id } = idParams.parse(request.params)
    const db = app.deps.database.db
    const uid = callerOf(request).uid
    const job = UUID.test(id) ? await findVisibleJob(db, uid, id) : undefined
    if (!job) throw notFound('The job')
    const cancelled = await app.jobs.cancel(job.kind, job.id)
    const now = (await findVisibleJob(db, uid, id))!
    if (!cancelled) {
      throw new AppError('job-finished', `This job has already ${now.status}: nothing to cancel.`)
    }
    return jobJson(now)
  })

  app.get('/jobs/:id', user(), async (request) => {
    const { id } = idParams.parse(request.params)
    const job = UUID.test(id)
      ? await findVisibleJob(app.deps.database.db, callerOf(request).uid, id)
      : undefined
    if (!job) throw notFound('The job')
    return jobJson(job)
  })
}

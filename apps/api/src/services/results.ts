import type { Db } from '@veloptima/db'
import {
  optimizationResultPatchSchema,
  pageQuerySchema,
  type OptimizationResult,
} from '@veloptima/contracts'
import { notFound } from '../errors.ts'
import { isUuid } from '../repositories/ownership.ts'
import * as repo from '../repositories/results.ts'
import { optimizationRepo } from './collection-specs.ts'
import { decodeKey, isNumKey, page } from './small-cursor.ts'
import { parse } from './validation.ts'

const iso = (d: Date | null) => d?.toISOString() ?? null

const summaryJson = (r: repo.ResultSummaryRow): Omit<OptimizationResult, 'inputs' | 'result'> => ({
  id: r.id,
  optimization_id: r.optimizationId,
  version: r.version,
  label: r.label,
  status: r.status,
  progress: r.progress,
  error: r.error ?? null,
  job_id: r.jobId,
  export_file_id: r.exportFileId,
  started_at: iso(r.startedAt),
  finished_at: iso(r.finishedAt),
  created_at: r.createdAt.toISOString(),
  updated_at: r.updatedAt.toISOString(),
})

export const resultJson = (r: repo.ResultRow): OptimizationResult => ({
  ...summaryJson(r),
  inputs: r.inputs,
  result: r.result ?? null,
})

/** Result versions of optimizations (written by the run jobs; read, labelled, deleted here). */
export class ResultService {
  constructor(private readonly db: Db) {}

  async list(uid: string, optimizationId: string, query: unknown) {
    const q = parse(pageQuerySchema, query, 'query')
    if (
      !isUuid(optimizationId) ||
      !(await optimizationRepo.findRef(this.db, uid, optimizationId))
    ) {
      throw notFound('The optimization')
    }
    const before = decodeKey(q.cursor, isNumKey)?.[0]
    const rows = await repo.listResults(this.db, uid, optimizationId, {
      limit: q.limit,
      beforeVersion: before,
    })
    return page(rows, q.limit, (r) => [r.version], summaryJson)
  }

  private async visible(uid: string, id: string) {
    const row = isUuid(id) ? await repo.findResult(this.db, uid, id) : undefined
    if (!row) throw notFound('The optimization result')
    return row
  }

  async get(uid: string, id: string) {
    return resultJson(await this.visible(uid, id))
  }

  async patch(uid: string, id: string, input: unknown) {
    const body = parse(optimizationResultPatchSchema, input)
    await this.visible(uid, id)
    return resultJson((await repo.updateResult(this.db, id, { label: body.label }))!)
  }

  async remove(uid: string, id: string) {
    await this.visible(uid, id)
    await repo.deleteResult(this.db, id)
  }
}

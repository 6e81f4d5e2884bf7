import type { Db } from '@veloptima/db'
import {
  aeroDataBlockCreateSchema,
  aeroDataBlockListQuerySchema,
  aeroRunCreateSchema,
  aeroRunPatchSchema,
  pageQuerySchema,
  type AeroDataBlock,
  type AeroRun,
} from '@veloptima/contracts'
import { AppError, notFound } from '../errors.ts'
import * as repo from '../repositories/aero.ts'
import { isUuid } from '../repositories/ownership.ts'
import { deviceRepo } from './collection-specs.ts'
import { decodeKey, isNumIdKey, page } from './small-cursor.ts'
import { parse, toColumns, toJson } from './validation.ts'

const runJson = (r: repo.RunRow) => toJson(r) as AeroRun
const blockJson = (b: repo.BlockRow) => toJson(b) as AeroDataBlock

/** Runs and data blocks of aero sessions: visible and changeable with their session. */
export class AeroService {
  constructor(private readonly db: Db) {}

  private async session(uid: string, id: string) {
    const s = isUuid(id) ? await repo.visibleSession(this.db, uid, id) : undefined
    if (!s) throw notFound('The aero session')
    return s
  }

  private async run(uid: string, id: string) {
    const r = isUuid(id) ? await repo.findRun(this.db, uid, id) : undefined
    if (!r) throw notFound('The run')
    return r
  }

  /** Where a page of a session's runs or blocks starts: after the cursor's (number, id) key. */
  private async pageStart(uid: string, sessionId: string, cursor: string | undefined) {
    await this.session(uid, sessionId)
    return decodeKey(cursor, isNumIdKey)
  }

  async listRuns(uid: string, sessionId: string, query: unknown) {
    const q = parse(pageQuerySchema, query, 'query')
    const after = await this.pageStart(uid, sessionId, q.cursor)
    const rows = await repo.listRuns(this.db, sessionId, { limit: q.limit, after })
    return page(rows, q.limit, (r) => [r.position, r.id], runJson)
  }

  async createRun(uid: string, sessionId: string, input: unknown) {
    const body = parse(aeroRunCreateSchema, input)
    await this.session(uid, sessionId)
    return runJson(
      await repo.insertRun(this.db, {
        ...(toColumns(body) as { name: string }),
        sessionId,
      }),
    )
  }

  async getRun(uid: string, id: string) {
    return runJson(await this.run(uid, id))
  }

  async patchRun(uid: string, id: string, input: unknown) {
    const body = parse(aeroRunPatchSchema, input)
    const current = await this.run(uid, id)
    const start = body.start_time !== undefined ? body.start_time : current.startTime
    const end = body.end_time !== undefined ? body.end_time : current.endTime
    if (start != null && end != null && start >= end) {
      throw new AppError('invalid-request', 'start_time must be before end_time.')
    }
    const row = await repo.updateRun(this.db, id, { ...toColumns(body), updatedAt: new Date() })
    return runJson(row!)
  }

  async deleteRun(uid: string, id: string) {
    await this.run(uid, id)
    await repo.deleteRun(this.db, id)
  }

  async listBlocks(uid: string, sessionId: string, query: unknown) {
    const q = parse(aeroDataBlockListQuerySchema, query, 'query')
    const after = await this.pageStart(uid, sessionId, q.cursor)
    const options = { limit: q.limit, kind: q.kind, runId: q.run_id, after }
    const rows = await repo.listBlocks(this.db, sessionId, options)
    return page(rows, q.limit, (b) => [b.sequence, b.id], blockJson)
  }

  async createBlock(uid: string, sessionId: string, input: unknown) {
    const body = parse(aeroDataBlockCreateSchema, input)
    const session = await this.session(uid, sessionId)
    // v6 sessions hold CdA measurement (cdam) and run blocks; the earlier v5 format raw data.
    const allowed = session.format === 'v5' ? ['raw'] : ['cdam', 'run']
    if (!allowed.includes(body.kind)) {
      throw new AppError(
        'invalid-request',
        `kind: a ${session.format} session holds ${allowed.join(' and ')} blocks, not ${body.kind}.`,
      )
    }
    if (body.run_id) {
      const run = await repo.findRun(this.db, uid, body.run_id)
      if (!run || run.sessionId !== sessionId) {
        throw new AppError('not-found', `run_id: no run ${body.run_id} in this session.`)
      }
    }
    if (body.device_id) {
      const device = await deviceRepo.find(this.db, uid, body.device_id)
      if (!device) {
        throw new AppError('not-found', `device_id: no device ${body.device_id} you can see.`)
      }
      if (session.ownerTeam && device.ownerTeam !== session.ownerTeam) {
        throw new AppError(
          'reference-not-shared',
          `device_id: ${body.device_id} is not the team’s, so other members could not see it; use a device of the team.`,
        )
      }
    }
    return blockJson(
      await repo.insertBlock(this.db, {
        ...(toColumns(body) as { kind: repo.BlockRow['kind']; data: Record<string, unknown> }),
        sessionId,
      }),
    )
  }

  async getBlock(uid: string, id: string) {
    const b = isUuid(id) ? await repo.findBlock(this.db, uid, id) : undefined
    if (!b) throw notFound('The data block')
    return blockJson(b)
  }

  async deleteBlock(uid: string, id: string) {
    await this.getBlock(uid, id)
    await repo.deleteBlock(this.db, id)
  }
}

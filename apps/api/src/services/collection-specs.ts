// The owned collections of the API: how each maps to its table and what it references.
import type {
  aeroSessions,
  courses,
  devices,
  Db,
  files,
  optimizations,
  riderSetups,
} from '@veloptima/db'
import {
  aeroSessionCreateSchema,
  aeroSessionPatchSchema,
  courseCreateSchema,
  coursePatchSchema,
  deviceCreateSchema,
  devicePatchSchema,
  fileMetaPatchSchema,
  maxPowerAgainstStored,
  optimizationCreateSchema,
  optimizationPatchSchema,
  riderSetupCreateSchema,
  riderSetupPatchSchema,
} from '@veloptima/contracts'
import {
  courseConsistencyIssues,
  type StoredSegmentJson,
  type StoredStatsJson,
  type StoredTrackJson,
} from '@veloptima/engine'
import { z } from 'zod'
import { AppError } from '../errors.ts'
import {
  aeroSessionRepo,
  courseRepo,
  deviceRepo,
  fileRepo,
  optimizationRepo,
  riderSetupRepo,
  type OwnedCollection,
} from '../repositories/collection.ts'
import { isUuid, ownerJson, type Owner } from '../repositories/ownership.ts'
import {
  filesOwnedAs,
  fileUsedBeyondCourse,
  fileUsedBeyondSession,
  sourceBlockFileIds,
  teamReferrerOutside,
  type ReferredKind,
} from '../repositories/references.ts'
import type { Carried, CollectionSpec } from './collections.ts'
import { invalidFields, toColumns, toJson } from './validation.ts'

type Owned = { id: string; ownerUid: string | null; ownerTeam: string | null }

const ownedJson = (row: Owned, omit: string[] = []) => ({
  ...toJson(row, ['ownerUid', 'ownerTeam', ...omit]),
  ...ownerJson(row),
})

const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)

/**
 * `ownedJson` of a list row, compiled once per collection: the list's columns (and the cursor's
 * `ts`, which lists have always returned) are known, so their snake_case names are computed here
 * rather than for every key of every row; the answer is the same object, key for key and in the
 * same order (list-answers.int.test.ts compares it with the item's own answer).
 */
function ownedListJson(repo: { listColumns: Record<string, unknown> }, omit: string[] = []) {
  const skip = new Set(['ownerUid', 'ownerTeam', ...omit])
  const keys = [...Object.keys(repo.listColumns), 'ts'].filter((k) => !skip.has(k))
  const names = keys.map(snake)
  return (row: Owned): Record<string, unknown> => {
    const r = row as unknown as Record<string, unknown>
    const out: Record<string, unknown> = {}
    for (let i = 0; i < keys.length; i++) {
      const v = r[keys[i]!]
      out[names[i]!] = v instanceof Date ? v.toISOString() : v
    }
    const owner = ownerJson(row)
    out.owner = owner.owner
    out.owner_type = owner.owner_type
    return out
  }
}

export { aeroSessionRepo, courseRepo, deviceRepo, fileRepo, optimizationRepo, riderSetupRepo }

/**
 * A referenced item must be visible to the caller (else 404 naming the field) and, when the
 * referencing item is a team's, be the same team's or a sample (else 400 reference-not-shared).
 */
async function mustSee(
  db: Db,
  uid: string,
  owner: Owner,
  repo: OwnedCollection<{ id: string }>,
  field: string,
  id: unknown,
) {
  if (typeof id !== 'string') return
  const row = await repo.findRef(db, uid, id)
  if (!row) {
    throw new AppError('not-found', `${field}: no item ${id} that you can see.`, { field })
  }
  if (owner.kind === 'team' && row.ownerTeam !== owner.teamId && !row.sample) {
    throw new AppError(
      'reference-not-shared',
      `${field}: ${id} is not the team’s, so other members could not see it; use an item of the team.`,
      { field },
    )
  }
}

/**
 * Team items that refer to an item and would no longer see it in `owner`: every team item
 * referring to it must be `owner`'s (else 409 reference-in-use naming the first one).
 */
async function mustNotStrand(
  db: Db,
  owner: Owner,
  kind: ReferredKind,
  id: string,
  what: { noun: string; referrer: string },
) {
  const row = await teamReferrerOutside(db, kind, id, owner)
  if (row) {
    throw new AppError(
      'reference-in-use',
      `The team’s ${what.referrer} “${String(row.name)}” (${String(row.id)}) uses this ${what.noun}; its members would lose it. Move or change that ${what.referrer} first.`,
      { referrer: row.id },
    )
  }
}

/**
 * A course's own source file: the course's owner's and used by no other item (another course, an
 * aero session, an optimization's export). It moves with the course; a shared file does not.
 */
async function ownSourceFile(db: Db, row: typeof courses.$inferSelect): Promise<Carried[]> {
  const fileId = row.sourceFileId
  if (!fileId) return []
  const file = await fileRepo.owner(db, fileId)
  if (!file || file.ownerUid !== row.ownerUid || file.ownerTeam !== row.ownerTeam) return []
  if (await fileUsedBeyondCourse(db, fileId, row.id)) return []
  return [{ field: 'source_file_id', repo: fileRepo, id: fileId }]
}

/**
 * The files read into an aero session (its uploads, each a `source` block, and its own
 * `source_file_id`): those of the session's owner that no other item uses (another session's
 * blocks, a course, an optimization's export) move with the session, so that its members can
 * download them and re-analyse; a shared file stays where it is (the references rule decides).
 */
async function ownAeroFiles(db: Db, row: typeof aeroSessions.$inferSelect): Promise<Carried[]> {
  const blockFiles = await sourceBlockFileIds(db, row.id)
  const ids = new Set(blockFiles.filter((id): id is string => !!id && isUuid(id)))
  if (row.sourceFileId) ids.add(row.sourceFileId)
  if (ids.size === 0) return []
  const out: Carried[] = []
  for (const id of await filesOwnedAs(db, [...ids], row)) {
    if (await fileUsedBeyondSession(db, id, row.id)) continue
    out.push({
      field: id === row.sourceFileId ? 'source_file_id' : `files.${id}`,
      repo: fileRepo,
      id,
    })
  }
  return out
}

/**
 * An owned collection's spec: items answered without their owner columns (nor `omit`) and with
 * `owner` and `owner_type`, body fields stored as their columns; the parts given add or replace.
 * With `referredBy`, the team items referring to an item must keep seeing it (`mustNotStrand`).
 */
function ownedSpec<Row extends Owned>(
  spec: Pick<CollectionSpec<Row>, 'noun' | 'repo' | 'createSchema' | 'patchSchema'> &
    Partial<CollectionSpec<Row>> & {
      referredBy?: { kind: ReferredKind; referrer: string }
      omit?: string[]
    },
): CollectionSpec<Row> {
  const { referredBy, omit = [], ...parts } = spec
  return {
    json: (row) => ownedJson(row, omit),
    listJson: ownedListJson(parts.repo, omit),
    columns: toColumns,
    ...(referredBy && {
      checkReferrers: (db: Db, id: string, owner: Owner) =>
        mustNotStrand(db, owner, referredBy.kind, id, {
          noun: parts.noun,
          referrer: referredBy.referrer,
        }),
    }),
    ...parts,
  }
}

export const riderSetupSpec = ownedSpec<typeof riderSetups.$inferSelect>({
  noun: 'rider setup',
  repo: riderSetupRepo,
  createSchema: riderSetupCreateSchema,
  patchSchema: riderSetupPatchSchema,
  checkPatch: (body, current) => {
    const issue = maxPowerAgainstStored(body, { cp: current.cp, max_power: current.maxPower })
    if (issue) throw invalidFields([issue], body)
  },
  referredBy: { kind: 'riderSetup', referrer: 'optimization' },
})

/**
 * A course patch that sends some of track, segments and stats agrees with the ones it keeps
 * (the statistics' distance and the track's end are the segments' length; stored-check.ts): an
 * issue is reported when it involves a field of the patch, so a rename never fails on old rows.
 */
function coursePatchAgainstStored(
  body: Record<string, unknown>,
  current: typeof courses.$inferSelect,
): void {
  const sent = (k: string) => body[k] !== undefined
  if (!sent('track') && !sent('segments') && !sent('stats')) return
  const merged = {
    track: (sent('track') ? body.track : current.track) as StoredTrackJson | null,
    segments: (sent('segments') ? body.segments : current.segments) as StoredSegmentJson[],
    stats: (sent('stats') ? body.stats : current.stats) as StoredStatsJson | null,
  }
  const issues = courseConsistencyIssues(merged).filter(
    (i) => sent('segments') || sent(String(i.path[0])),
  )
  if (issues.length > 0) throw invalidFields(issues, body)
}

const courseJson = (row: typeof courses.$inferSelect, omit: string[] = []) => ({
  ...ownedJson(row, omit),
  ...(row.sample ? { owner: null, owner_type: 'sample' } : {}),
})
const courseListJson = ownedListJson(courseRepo)

export const courseSpec: CollectionSpec<typeof courses.$inferSelect> = {
  noun: 'course',
  repo: courseRepo,
  createSchema: courseCreateSchema,
  patchSchema: coursePatchSchema,
  json: (row) => courseJson(row),
  /** The list's rows have no track and segments (courseRepo's listOmit). */
  listJson: (row) => {
    const out = courseListJson(row)
    if (row.sample) {
      out.owner = null
      out.owner_type = 'sample'
    }
    return out
  },
  columns: toColumns,
  checkPatch: coursePatchAgainstStored,
  checkRefs: (db, uid, body, owner) =>
    mustSee(db, uid, owner, fileRepo, 'source_file_id', body.source_file_id),
  carried: ownSourceFile,
  checkReferrers: (db, id, owner) =>
    mustNotStrand(db, owner, 'course', id, { noun: 'course', referrer: 'optimization' }),
}

export const optimizationSpec = ownedSpec<typeof optimizations.$inferSelect>({
  noun: 'optimization',
  repo: optimizationRepo,
  createSchema: optimizationCreateSchema,
  patchSchema: optimizationPatchSchema,
  async checkRefs(db, uid, body, owner) {
    await mustSee(db, uid, owner, courseRepo, 'course_id', body.course_id)
    await mustSee(db, uid, owner, riderSetupRepo, 'rider_setup_id', body.rider_setup_id)
  },
})

export const deviceSpec = ownedSpec<typeof devices.$inferSelect>({
  noun: 'device',
  repo: deviceRepo,
  createSchema: deviceCreateSchema,
  patchSchema: devicePatchSchema,
  referredBy: { kind: 'device', referrer: 'aero session' },
})

export const aeroSessionSpec = ownedSpec<typeof aeroSessions.$inferSelect>({
  noun: 'aero session',
  repo: aeroSessionRepo,
  createSchema: aeroSessionCreateSchema,
  patchSchema: aeroSessionPatchSchema,
  carried: ownAeroFiles,
  columns: (body) => {
    const c = toColumns(body)
    if (typeof c.startedAt === 'string') c.startedAt = new Date(c.startedAt)
    return c
  },
  async checkRefs(db, uid, body, owner) {
    await mustSee(db, uid, owner, fileRepo, 'source_file_id', body.source_file_id)
    const list = (body.devices ?? []) as { device_id: string }[]
    for (const [i, d] of list.entries()) {
      await mustSee(db, uid, owner, deviceRepo, `devices.${i}.device_id`, d.device_id)
    }
  },
})

/** Files: metadata only here (upload, download and their links are the files routes'). */
export const fileSpec = ownedSpec<typeof files.$inferSelect>({
  noun: 'file',
  repo: fileRepo,
  createSchema: z.never() as never,
  patchSchema: fileMetaPatchSchema,
  omit: ['storageKey'],
})

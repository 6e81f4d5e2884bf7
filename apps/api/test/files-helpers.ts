// Helpers for the files/jobs/imports/runs integration tests: users and teams rows, multipart bodies
// and their uploads.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { teamMembers, teams, users, type Database } from '@veloptima/db'

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `veloptima-${prefix}-`))
}

export async function createUser(database: Database, uid: string) {
  await database.db
    .insert(users)
    .values({ uid, email: `${uid}@example.com`, displayName: uid })
    .onConflictDoNothing()
}

export async function createTeam(database: Database, name: string, members: string[]) {
  const [team] = await database.db.insert(teams).values({ name }).returning()
  for (const uid of members) {
    await database.db.insert(teamMembers).values({ teamId: team!.id, uid, role: 'member' })
  }
  return team!
}

/** A multipart/form-data body with one file part named "file" (and optional fields). */
export async function multipart(
  filename: string,
  bytes: Uint8Array | string,
  fields: Record<string, string> = {},
): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData()
  // The file first, then the fields: the API must read fields wherever they come.
  form.append(
    'file',
    new Blob([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)]),
    filename,
  )
  for (const [name, value] of Object.entries(fields)) form.append(name, value)
  const response = new Response(form)
  return {
    payload: Buffer.from(await response.arrayBuffer()),
    headers: { 'content-type': response.headers.get('content-type')! },
  }
}

/** POSTs to `url` the multipart body of one file (and optional fields), with the caller's `headers`. */
export async function postFile(
  app: FastifyInstance,
  url: string,
  headers: object | undefined,
  filename: string,
  bytes: Uint8Array | string,
  fields: Record<string, string> = {},
) {
  const body = await multipart(filename, bytes, fields)
  return app.inject({
    method: 'POST',
    url,
    headers: { ...headers, ...body.headers },
    payload: body.payload,
  })
}

/** A small synthetic GPX track (made here, not taken from shared data). */
export function syntheticGpx(points = 50, name = 'Synthetic loop'): string {
  const pts = Array.from({ length: points }, (_, i) => {
    const lat = 45 + i * 0.0009
    const lon = 6 + Math.sin(i / 10) * 0.0005
    const ele = 700 + i * 4.5
    return `<trkpt lat="${lat.toFixed(6)}" lon="${lon.toFixed(6)}"><ele>${ele.toFixed(1)}</ele></trkpt>`
  }).join('')
  return `<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="veloptima-test" xmlns="http://www.topografix.com/GPX/1/1"><trk><name>${name}</name><trkseg>${pts}</trkseg></trk></gpx>`
}

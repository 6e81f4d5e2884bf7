import { createHash } from 'node:crypto'
import { readdirSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { loadDownloadSigner } from '../src/files/signed-url.ts'
import { suiteApp } from './helpers.ts'
import { createTeam, multipart, postFile, syntheticGpx, tempDir } from './files-helpers.ts'

const sha256 = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex')

/** Path and query of an absolute URL, for inject. */
const local = (url: string) => {
  const u = new URL(url)
  return `${u.pathname}${u.search}`
}

describe('files: upload, signed download URLs, authorization', () => {
  const filesDir = tempDir('files')
  const t = suiteApp({ FILES_DIR: filesDir, MAX_UPLOAD_BYTES: '65536' })
  const auth: Record<string, { authorization: string }> = {}
  let teamId: string

  beforeAll(async () => {
    for (const uid of ['alice', 'bob', 'carol']) auth[uid] = await t.signIn({ uid })
    teamId = (await createTeam(t.database, 'Team AB', ['alice', 'bob'])).id
  })

  async function upload(uid: string, name: string, bytes: Uint8Array | string, owner?: string) {
    return postFile(t.app, '/api/files', auth[uid], name, bytes, owner ? { owner } : {})
  }

  it('stores an upload: type from the content, size, checksum, bytes on disk', async () => {
    const gpx = syntheticGpx()
    const res = await upload('alice', 'my ride.txt', gpx)
    expect(res.statusCode).toBe(201)
    const file = res.json()
    expect(file).toMatchObject({
      owner: 'alice',
      name: 'my ride.txt',
      content_type: 'application/gpx+xml',
      size: Buffer.byteLength(gpx),
      sha256: sha256(gpx),
      kind: 'upload',
    })
    expect(file).not.toHaveProperty('storage_key')
    const stored = readdirSync(join(filesDir, 'uploads'))
    expect(stored).toContain(`${file.id}.gpx`)
  })

  it('refuses a file whose content is no accepted type, naming the file', async () => {
    const res = await upload('alice', 'notes.gpx', 'just some words, not a course')
    expect(res.statusCode).toBe(415)
    expect(res.json()).toMatchObject({ code: 'unsupported-file-type' })
    expect(res.json().message).toContain('notes.gpx')
  })

  it('refuses an empty file', async () => {
    const res = await upload('alice', 'empty.fit', new Uint8Array())
    expect(res.statusCode).toBe(415)
    expect(res.json().message).toContain('empty.fit is empty')
  })

  it('refuses an upload over MAX_UPLOAD_BYTES with the limit in the message, storing nothing', async () => {
    const before = readdirSync(join(filesDir, 'uploads')).length
    const res = await upload('alice', 'huge.gpx', syntheticGpx(2000))
    expect(res.statusCode).toBe(413)
    expect(res.json()).toMatchObject({ code: 'file-too-large' })
    expect(res.json().message).toContain('huge.gpx is larger than the 64 KB upload limit')
    expect(readdirSync(join(filesDir, 'uploads')).length).toBe(before)
  })

  it('refuses two files in one request', async () => {
    const form = new FormData()
    form.append('file', new Blob([syntheticGpx()]), 'a.gpx')
    form.append('file', new Blob([syntheticGpx()]), 'b.gpx')
    const response = new Response(form)
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/files',
      headers: { ...auth.alice, 'content-type': response.headers.get('content-type')! },
      payload: Buffer.from(await response.arrayBuffer()),
    })
    expect(res.statusCode).toBe(400)
    expect(res.json().message).toBe('Send one file per request.')
  })

  it('asks for multipart when the body is JSON', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/files',
      headers: auth.alice,
      payload: { file: 'x' },
    })
    expect(res.statusCode).toBe(400)
    expect(res.json().message).toMatch(/multipart\/form-data/)
  })

  it('requires a session to upload and to get a download URL', async () => {
    const body = await multipart('a.gpx', syntheticGpx())
    const res = await t.app.inject({ method: 'POST', url: '/api/files', ...body })
    expect(res.statusCode).toBe(401)
    const url = await t.app.inject({
      method: 'GET',
      url: '/api/files/00000000-0000-4000-8000-000000000000/download-url',
    })
    expect(url.statusCode).toBe(401)
  })

  it('gives the owner a signed URL that serves the exact bytes without a session', async () => {
    const gpx = syntheticGpx(30, 'Ünïcode route')
    const file = (await upload('alice', 'Col du Tést.gpx', gpx)).json()
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/files/${file.id}/download-url`,
      headers: auth.alice,
    })
    expect(res.statusCode).toBe(200)
    const { url, expires_at } = res.json()
    expect(url.startsWith('http://localhost:3000/api/files/download?')).toBe(true)
    const ttl = new Date(expires_at).getTime() - Date.now()
    expect(ttl).toBeGreaterThan(250_000)
    expect(ttl).toBeLessThanOrEqual(300_000)
    const download = await t.app.inject({ method: 'GET', url: local(url) })
    expect(download.statusCode).toBe(200)
    expect(download.headers['content-type']).toBe('application/gpx+xml')
    expect(download.headers['content-disposition']).toContain(
      `filename*=UTF-8''${encodeURIComponent('Col du Tést.gpx')}`,
    )
    expect(download.rawPayload.equals(Buffer.from(gpx))).toBe(true)
  })

  it("hides another user's file: 404 for metadata and download URL", async () => {
    const file = (await upload('alice', 'private.gpx', syntheticGpx())).json()
    for (const path of [`/api/files/${file.id}`, `/api/files/${file.id}/download-url`]) {
      const res = await t.app.inject({ method: 'GET', url: path, headers: auth.bob })
      expect(res.statusCode).toBe(404)
      expect(res.json()).toMatchObject({ code: 'not-found' })
    }
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/files/not-a-uuid/download-url',
      headers: auth.alice,
    })
    expect(bad.statusCode).toBe(404)
  })

  it('lets every member of the owning team download a team file, and nobody else', async () => {
    const res = await upload('alice', 'team.gpx', syntheticGpx(), teamId)
    expect(res.statusCode).toBe(201)
    expect(res.json().owner).toBe(teamId)
    const id = res.json().id
    const bob = await t.app.inject({
      method: 'GET',
      url: `/api/files/${id}/download-url`,
      headers: auth.bob,
    })
    expect(bob.statusCode).toBe(200)
    const carol = await t.app.inject({
      method: 'GET',
      url: `/api/files/${id}/download-url`,
      headers: auth.carol,
    })
    expect(carol.statusCode).toBe(404)
  })

  it('refuses to store a file for a team the caller is not in (404 like any unseen item)', async () => {
    const res = await upload('carol', 'intruder.gpx', syntheticGpx(), teamId)
    expect(res.statusCode).toBe(404)
    expect(res.json().message).toMatch(/team/i)
  })

  it('refuses a tampered, incomplete or expired link', async () => {
    const file = (await upload('alice', 'signed.gpx', syntheticGpx())).json()
    const other = (await upload('alice', 'other.gpx', syntheticGpx())).json()
    const good = new URL(t.app.files.signer.sign(file.id).url)

    const tampered = new URL(good)
    const sig = tampered.searchParams.get('signature')!
    tampered.searchParams.set('signature', (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1))
    const swapped = new URL(good)
    swapped.searchParams.set('id', other.id)
    const extended = new URL(good)
    extended.searchParams.set('expires', String(Number(good.searchParams.get('expires')) + 3600))
    for (const url of [tampered, swapped, extended]) {
      const res = await t.app.inject({ method: 'GET', url: local(url.toString()) })
      expect(res.statusCode).toBe(403)
      expect(res.json()).toMatchObject({ code: 'invalid-signature' })
    }
    const incomplete = await t.app.inject({
      method: 'GET',
      url: `/api/files/download?id=${file.id}`,
    })
    expect(incomplete.statusCode).toBe(403)

    const expired = t.app.files.signer.sign(file.id, Date.now() - 3_600_000)
    const res = await t.app.inject({ method: 'GET', url: local(expired.url) })
    expect(res.statusCode).toBe(410)
    expect(res.json()).toMatchObject({ code: 'link-expired' })
  })

  it('keeps issued links valid across a restart (the key lives in the database)', async () => {
    const file = (await upload('alice', 'restart.gpx', syntheticGpx())).json()
    const { url } = t.app.files.signer.sign(file.id)
    const reloaded = await loadDownloadSigner(t.database, 'http://localhost:3000', 300)
    const u = new URL(url)
    expect(reloaded.verify(Object.fromEntries(u.searchParams))).toBe(file.id)
  })

  it('deletes a file: row and bytes; its link then answers 404; others cannot delete it', async () => {
    const file = (await upload('alice', 'gone.gpx', syntheticGpx())).json()
    const link = t.app.files.signer.sign(file.id).url
    const bob = await t.app.inject({
      method: 'DELETE',
      url: `/api/files/${file.id}`,
      headers: auth.bob,
    })
    expect(bob.statusCode).toBe(404)
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/files/${file.id}`,
      headers: auth.alice,
    })
    expect(res.statusCode).toBe(204)
    expect(existsSync(join(filesDir, 'uploads', `${file.id}.gpx`))).toBe(false)
    expect((await t.app.inject({ method: 'GET', url: local(link) })).statusCode).toBe(404)
    const again = await t.app.inject({
      method: 'GET',
      url: `/api/files/${file.id}`,
      headers: auth.alice,
    })
    expect(again.statusCode).toBe(404)
  })

  it('removes the stored bytes when the row cannot be written (nothing half-written)', async () => {
    const prepared = t.app.files.prepare('x.gpx', Buffer.from(syntheticGpx()))
    await expect(
      t.app.files.storeWith(prepared, async () => {
        throw new Error('insert failed')
      }),
    ).rejects.toThrow('insert failed')
    expect(existsSync(join(filesDir, prepared.key))).toBe(false)
  })
})

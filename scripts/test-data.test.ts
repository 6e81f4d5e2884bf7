// `npm run test-data`'s download and checksum, against a real HTTP server on loopback: a served
// file with the pinned SHA-256 is written, a file with another sum is refused and not written, a
// 404 is reported, and a file already in place with the right sum is not fetched again. The pinned
// list itself: every real-world file the tests name, a GitHub raw address, and — where the files
// are here — the very sums of the files.
import { createHash } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
// @ts-expect-error: plain JavaScript (scripts/test-data.mjs), no declarations
import { fill, pinnedFiles } from './test-data.mjs'
import { dataFile, realFiles } from './test-data.ts'
import { itWith } from './test-data-vitest.ts'

type Pinned = { path: string; repository: string; source: string; url: string; sha256: string }
type Result = { path: string; status: 'present' | 'fetched' | 'failed'; reason?: string }
const fillDir = fill as (files: Pinned[], dir: string) => Promise<Result[]>

const sha = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex')
const good = Buffer.from('<gpx version="1.1"><trk><trkseg></trkseg></trk></gpx>\n')
const tampered = Buffer.from('<gpx version="1.1"><trk><trkseg></trkseg></trk></gpx>!\n')

describe('fetching the real-world files (a local HTTP server)', () => {
  let server: Server
  let base: string
  const requests: string[] = []
  beforeAll(async () => {
    server = createServer((req, res) => {
      requests.push(req.url!)
      if (req.url === '/good.gpx') res.end(good)
      else if (req.url === '/tampered.gpx') res.end(tampered)
      else {
        res.statusCode = 404
        res.end('Not Found')
      }
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const addr = server.address() as { port: number }
    base = `http://127.0.0.1:${addr.port}`
  })
  afterAll(() => new Promise<void>((r) => server.close(() => r())))

  const list = (): Pinned[] => [
    {
      path: 'courses/good.gpx',
      repository: 'x/y',
      source: 'a',
      url: `${base}/good.gpx`,
      sha256: sha(good),
    },
    // the server sends other bytes than the ones pinned
    {
      path: 'courses/tampered.gpx',
      repository: 'x/y',
      source: 'b',
      url: `${base}/tampered.gpx`,
      sha256: sha(good),
    },
    {
      path: 'rides/gone.fit',
      repository: 'x/y',
      source: 'c',
      url: `${base}/gone.fit`,
      sha256: sha(good),
    },
  ]

  it('keeps the file with the pinned sum, refuses the other, reports the 404', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'veloptima-test-data-'))
    try {
      const results = await fillDir(list(), dir)
      expect(results.map((r) => [r.path, r.status])).toEqual([
        ['courses/good.gpx', 'fetched'],
        ['courses/tampered.gpx', 'failed'],
        ['rides/gone.fit', 'failed'],
      ])
      expect(readFileSync(join(dir, 'courses/good.gpx')).equals(good)).toBe(true)
      expect(existsSync(join(dir, 'courses/tampered.gpx'))).toBe(false)
      expect(existsSync(join(dir, 'courses/tampered.gpx.part'))).toBe(false)
      expect(results[1]!.reason).toBe(
        `SHA-256 ${sha(tampered)}, expected ${sha(good)} (${base}/tampered.gpx): not kept`,
      )
      expect(existsSync(join(dir, 'rides/gone.fit'))).toBe(false)
      expect(results[2]!.reason).toBe(`HTTP 404 from ${base}/gone.fit`)

      // A second run: the file in place is not fetched again; the others are tried again.
      requests.length = 0
      const again = await fillDir(list(), dir)
      expect(again[0]!.status).toBe('present')
      expect(requests).toEqual(['/tampered.gpx', '/gone.fit'])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('a server that does not answer is reported with the address, nothing written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'veloptima-test-data-'))
    try {
      const closed = createServer()
      await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r))
      const port = (closed.address() as { port: number }).port
      await new Promise<void>((r) => closed.close(() => r()))
      const url = `http://127.0.0.1:${port}/x.gpx`
      const [r] = await fillDir(
        [{ path: 'courses/x.gpx', repository: 'x/y', source: 'x', url, sha256: sha(good) }],
        dir,
      )
      expect(r!.status).toBe('failed')
      expect(r!.reason).toContain(url)
      expect(existsSync(join(dir, 'courses/x.gpx'))).toBe(false)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('the pinned list (scripts/test-data.json)', () => {
  const pinned = pinnedFiles() as Pinned[]
  it('names each file once, with its GitHub raw address and a SHA-256', () => {
    expect(pinned.map((f) => f.path)).toEqual(realFiles)
    expect(new Set(realFiles).size).toBe(realFiles.length)
    for (const f of pinned) {
      expect(f.sha256).toMatch(/^[0-9a-f]{64}$/)
      expect(decodeURIComponent(f.url)).toBe(
        `https://raw.githubusercontent.com/${f.repository}/HEAD/${f.source}`,
      )
      expect(f.url).not.toMatch(/[ '()]/)
    }
  })

  itWith(realFiles, 'the files here have the pinned sums', () => {
    for (const f of pinned) expect(sha(readFileSync(dataFile(f.path)!)), f.path).toBe(f.sha256)
  })
})

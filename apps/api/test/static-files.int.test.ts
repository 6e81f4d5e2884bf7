// The web app's files as the API serves them: a built file is served, a route of the web app gets
// its page, and a file the build does not have is a real 404 (not the page with status 200).
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tempDir } from './files-helpers.ts'
import { startTestApp, type TestApp } from './helpers.ts'

describe('static files of the web app', () => {
  let t: TestApp
  beforeAll(async () => {
    const dist = tempDir('web-dist')
    mkdirSync(join(dist, 'assets'))
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Veloptima</title>')
    writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>')
    writeFileSync(join(dist, 'assets', 'app-1234.js'), 'console.log(1)')
    t = await startTestApp({ WEB_DIST_DIR: dist })
  })
  afterAll(() => t.close())

  const get = (url: string) => t.app.inject({ method: 'GET', url })

  it('serves the built files', async () => {
    const icon = await get('/favicon.svg')
    expect(icon.statusCode).toBe(200)
    expect(icon.headers['content-type']).toMatch(/svg/)
    const asset = await get('/assets/app-1234.js')
    expect(asset.statusCode).toBe(200)
    expect(asset.headers['cache-control']).toMatch(/immutable/)
  })

  it('answers a route of the web app with its page', async () => {
    for (const url of ['/', '/simulation/optimizations', '/aero/sessions/3f1c?tab=runs']) {
      const res = await get(url)
      expect(res.statusCode, url).toBe(200)
      expect(res.body, url).toContain('<title>Veloptima</title>')
    }
  })

  it('answers 404 for a file the build does not have', async () => {
    for (const url of ['/favicon.ico', '/robots.txt', '/assets/app-old.js', '/sw.js?v=2']) {
      const res = await get(url)
      expect(res.statusCode, url).toBe(404)
      expect(res.body, url).not.toContain('<title>Veloptima</title>')
    }
  })
})

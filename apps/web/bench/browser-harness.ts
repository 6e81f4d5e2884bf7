// The harness of the browser benches (aero-sliders, preview): a page's own code bundled by Vite
// (in memory, minified, ES modules), served from a local HTTP server and opened in Debian's
// headless Chromium; the bench then calls the global the page defines. Nothing here measures.
import { existsSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { chromium, type Page } from '@playwright/test'
import { build } from 'vite'
import { chromiumArgs, chromiumPath } from '../../../e2e/chromium.ts'

/** Without Chromium the bench says so and exits 0 (it measures nothing). */
export function exitWithoutChromium(): void {
  if (existsSync(chromiumPath)) return
  console.log(
    `Chromium not found at ${chromiumPath}: install Debian's chromium (npm test does as root).`,
  )
  process.exit(0)
}

export interface BenchPage {
  page: Page
  /** Chromium's version, e.g. "147.0.7727.55". */
  version: string
  close(): Promise<void>
}

/**
 * Bundles `entries` (name → source file; the entry `page` is the page's script, others are
 * served beside it, e.g. a worker as /worker.js), opens the page and waits until `ready` is a
 * property of `window`.
 */
export async function openBenchPage(
  root: string,
  entries: Record<string, string>,
  ready: string,
): Promise<BenchPage> {
  const output = await build({
    configFile: false,
    logLevel: 'silent',
    root,
    build: {
      write: false,
      minify: true,
      lib: {
        entry: entries,
        formats: ['es'],
        fileName: (_format, name) => `${name}.js`,
      },
    },
  })
  const files = new Map<string, string>()
  for (const result of Array.isArray(output) ? output : [output]) {
    if (!('output' in result)) continue
    for (const item of result.output) {
      if (item.type === 'chunk') files.set(`/${item.fileName}`, item.code)
    }
  }
  const html = '<!doctype html><meta charset="utf-8"><script type="module" src="/page.js"></script>'
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!
    const body = path === '/' ? html : files.get(path)
    if (body === undefined) {
      res.writeHead(404).end()
      return
    }
    res.writeHead(200, { 'content-type': path === '/' ? 'text/html' : 'text/javascript' })
    res.end(body)
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const port = (server.address() as AddressInfo).port
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })
  const page = await browser.newPage()
  await page.goto(`http://127.0.0.1:${port}/`)
  await page.waitForFunction((name) => name in window, ready)
  return {
    page,
    version: browser.version().split(' ')[0]!,
    close: async () => {
      await browser.close()
      server.close()
    },
  }
}

// Browser lockdown (docs/http-api.md): the Content-Security-Policy and the other security headers of
// every response of the app, set by @fastify/helmet; the identity provider's pages get theirs
// from helmet too (idp/security.ts). HSTS and upgrade-insecure-requests only when served over
// https (PUBLIC_URL), so that http://localhost keeps working.
import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import helmet from '@fastify/helmet'
import type { FastifyInstance } from 'fastify'
import type { Config } from '../config.ts'
import { authSettings } from '../idp/settings.ts'

/** Powerful browser features the product never uses, switched off for every frame. */
export const PERMISSIONS_POLICY = [
  'camera=()',
  'microphone=()',
  'geolocation=()',
  'payment=()',
  'usb=()',
  'display-capture=()',
].join(', ')

/** Browsers send the origin only (never paths with ids) to other sites; tile servers want it. */
export const REFERRER_POLICY = 'strict-origin-when-cross-origin'

export const sha256Source = (text: string) =>
  `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`

/**
 * Origin pattern of the tile server from MAP_TILE_URL: `https://tile.openstreetmap.org`, a
 * `{s}` sub-domain template as `https://*.tile.example.org`; a relative URL is the app itself.
 */
export function tileSource(template: string): string {
  const m = /^(https?):\/\/([^/?#]+)/i.exec(template)
  if (!m) return "'self'"
  const host = m[2]!.replace(/^[^.]*\{[^}]*\}[^.]*\./, '*.')
  return `${m[1]!.toLowerCase()}://${host.toLowerCase()}`
}

/** Hashes of the inline <script> and <style> blocks of the built index.html (if any). */
export function inlineHashes(html: string) {
  const blocks = (tag: string) =>
    [...html.matchAll(new RegExp(`<${tag}(\\s[^>]*)?>([\\s\\S]*?)</${tag}>`, 'gi'))]
      .filter((m) => !/\ssrc=/i.test(m[1] ?? ''))
      .map((m) => sha256Source(m[2]!))
  return { scripts: blocks('script'), styles: blocks('style') }
}

/** The app's Content-Security-Policy directives (helmet's names). */
export function appCsp(config: Config, indexHtml = '') {
  const idp = new URL(authSettings(config).domain).origin
  const tiles = tileSource(config.MAP_TILE_URL)
  const https = config.publicUrl.startsWith('https:')
  const inline = inlineHashes(indexHtml)
  return {
    defaultSrc: ["'self'"],
    // No 'unsafe-inline' and no eval: the bundles are files; inline blocks only by hash.
    scriptSrc: ["'self'", ...inline.scripts],
    scriptSrcAttr: ["'none'"],
    // Stylesheets are files; sonner inserts its own <style> element at run time and React,
    // Leaflet and uPlot position elements with style attributes: inline styles are allowed
    // (they cannot run script), inline scripts are not.
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:', tiles],
    fontSrc: ["'self'", 'data:'],
    // The API, the identity provider (tokens, silent sign-in) and the tile server.
    connectSrc: ["'self'", idp, tiles],
    // The identity SDK's silent sign-in falls back to a hidden frame of the provider.
    frameSrc: [idp],
    workerSrc: ["'self'", 'blob:'],
    manifestSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'", idp],
    frameAncestors: ["'none'"],
    ...(https ? { upgradeInsecureRequests: [] } : {}),
  }
}

/**
 * The headers the app and the identity provider share: no cross-origin embedding requirement
 * (tiles are cross-origin images without CORP headers), their own browsing context group, the
 * referrer policy, HSTS when served over https, and no framing.
 */
export const sharedHelmetOptions = (https: boolean) =>
  ({
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    referrerPolicy: { policy: REFERRER_POLICY },
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    xFrameOptions: { action: 'deny' },
  }) as const

/** Registers helmet on the app (every route: API, static files, the SPA's index.html). */
export async function registerSecurity(app: FastifyInstance, config: Config) {
  const index = join(config.webDistDir, 'index.html')
  const html = existsSync(index) ? readFileSync(index, 'utf8') : ''
  const https = config.publicUrl.startsWith('https:')
  await app.register(helmet, {
    ...sharedHelmetOptions(https),
    contentSecurityPolicy: { useDefaults: false, directives: appCsp(config, html) },
    crossOriginResourcePolicy: { policy: 'same-origin' },
  })
  // helmet has no Permissions-Policy: the one header it leaves to the app.
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('permissions-policy', PERMISSIONS_POLICY)
  })
}

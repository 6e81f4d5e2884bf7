// What the benches measure with: autocannon runs in their own process (autocannon-run.mjs, so the
// load generator never shares the server's event loop), the jobs rows' own timestamps, percentiles.
import { fork } from 'node:child_process'
import { inArray } from 'drizzle-orm'
import { jobs, type Db } from '@veloptima/db'

/** How long one autocannon run lasts unless its options say otherwise (BENCH_SECONDS, default 8). */
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 8)
/** How many connections one autocannon run opens unless its options say otherwise. */
export const CONNECTIONS = 50

/** What one autocannon run measured: req/s, requests, latency in ms, non-2xx answers, errors. */
export type Figures = {
  rps: number
  requests: number
  p50: number
  p99: number
  max: number
  non2xx: number
  errors: number
}

/** One autocannon run with `options` (its url, headers, …) in a forked process. */
export function cannon(options: Record<string, unknown>): Promise<Figures> {
  return new Promise((resolve, reject) => {
    const child = fork(new URL('./autocannon-run.mjs', import.meta.url))
    child.once('message', (figures) => resolve(figures as Figures))
    child.once('error', reject)
    child.once('exit', (code) => {
      if (code) reject(new Error(`autocannon exited with ${code}`))
    })
    child.send({ connections: CONNECTIONS, duration: SECONDS, ...options })
  })
}

/** Each finished job of `ids`: its account and its queued → started → finished times in ms. */
export async function jobTimes(db: Db, ids: string[]) {
  const rows = await db
    .select({
      id: jobs.id,
      uid: jobs.requestedBy,
      createdAt: jobs.createdAt,
      startedAt: jobs.startedAt,
      finishedAt: jobs.finishedAt,
    })
    .from(jobs)
    .where(inArray(jobs.id, ids))
  return rows.map((r) => ({
    id: r.id,
    uid: r.uid ?? '',
    waitMs: r.startedAt!.getTime() - r.createdAt.getTime(),
    runMs: r.finishedAt!.getTime() - r.startedAt!.getTime(),
    totalMs: r.finishedAt!.getTime() - r.createdAt.getTime(),
  }))
}

/** The `p`th percentile of `xs` (nearest rank). */
export const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!
}

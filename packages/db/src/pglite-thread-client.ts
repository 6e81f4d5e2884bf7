// The main thread's handle on the embedded database, which runs in its own worker thread
// (pglite-thread.mjs; docs/data.md). It offers what drizzle's PGlite driver uses (query with row
// mode and parsers, transaction) and what pg-boss's `fromPglite` adapter uses (query, exec,
// listen), so repositories and the job system are unchanged: the statements are PGlite's,
// serialised by PGlite's own transaction lock inside the thread.
import { existsSync } from 'node:fs'
import { Worker } from 'node:worker_threads'

type Row = Record<string, unknown> | unknown[]
type Field = { name: string; dataTypeID: number }
export type ThreadResult<T = Row> = { rows: T[]; fields: Field[]; affectedRows?: number }
/** A PGlite parser: the text of one value of type `typeId`. */
type Parser = (value: string, typeId?: number) => unknown
export type ThreadQueryOptions = { rowMode?: 'array' | 'object'; parsers?: Record<number, Parser> }

/** Statements inside one transaction (what drizzle's session calls on PGlite's `tx`). */
export type ThreadTransaction = {
  query<T = Row>(
    sql: string,
    params?: unknown[],
    options?: ThreadQueryOptions,
  ): Promise<ThreadResult<T>>
  exec(sql: string): Promise<ThreadResult[]>
  readonly closed: boolean
}

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void }
type ErrorData = { name: string; message: string; [field: string]: unknown }
/** What the thread posts: a call's answer, or a notification. */
type ThreadMessage = {
  id?: number
  op?: string
  ok?: boolean
  value?: unknown
  error?: ErrorData
  channel?: string
  payload?: string
}

/** An error of the database thread, with PostgreSQL's fields (code, detail, constraint…). */
export class PgliteThreadError extends Error {
  code?: string
  constructor(data: ErrorData) {
    super(data.message)
    Object.assign(this, data)
    this.name = data.name
  }
}

// From the sources the thread's file sits beside this one; in the production build (esbuild
// bundles this module into apps/api/dist/server/*.mjs) scripts/build.mjs copies it beside the bundle.
const threadUrl = new URL('./pglite-thread.mjs', import.meta.url)

export class PgliteThread {
  private readonly pending = new Map<number, Pending>()
  private readonly listeners = new Map<string, Set<(payload: string) => void>>()
  private nextId = 1
  private stopped?: Error

  private constructor(private readonly worker: Worker) {
    worker.on('message', (message: ThreadMessage) => this.receive(message))
    worker.on('error', (error: Error) => this.stop(error))
    worker.on('exit', (code) =>
      this.stop(new Error(`The embedded database thread stopped (exit code ${code}).`)),
    )
    // Idle, the thread does not keep the process alive (an in-process PGlite did not either);
    // while a call is pending it does (see call).
    worker.unref()
  }

  /** Starts the thread and opens PGlite on `dataDir` (in memory without one). */
  static async start(dataDir?: string): Promise<PgliteThread> {
    if (!existsSync(threadUrl)) {
      throw new Error(`The embedded database thread's file is missing: ${threadUrl.pathname}`)
    }
    const worker = new Worker(threadUrl, { workerData: { dataDir } })
    await new Promise<void>((resolve, reject) => {
      const onMessage = (message: { op?: string; error?: ErrorData }) => {
        if (message.op === 'ready') done(undefined)
        else if (message.op === 'failed') done(new PgliteThreadError(message.error!))
      }
      const onError = (error: Error) => done(error)
      const onExit = (code: number) =>
        done(
          new Error(
            `The embedded database thread exited (code ${code}) while opening ${dataDir ?? 'memory://'}`,
          ),
        )
      const done = (error: Error | undefined) => {
        worker.off('message', onMessage).off('error', onError).off('exit', onExit)
        if (error) reject(error)
        else resolve()
      }
      worker.on('message', onMessage).on('error', onError).on('exit', onExit)
    })
    return new PgliteThread(worker)
  }

  private receive(message: ThreadMessage) {
    if (message.op === 'notify') {
      for (const listener of this.listeners.get(message.channel!) ?? []) listener(message.payload!)
      return
    }
    const call = message.id === undefined ? undefined : this.pending.get(message.id)
    if (!call) return
    this.pending.delete(message.id!)
    if (this.pending.size === 0) this.worker.unref()
    if (message.ok) call.resolve(message.value)
    else call.reject(new PgliteThreadError(message.error!))
  }

  private stop(error: Error) {
    this.stopped ??= error
    for (const call of this.pending.values()) call.reject(this.stopped)
    this.pending.clear()
  }

  private call<T>(message: Record<string, unknown>): Promise<T> {
    if (this.stopped) return Promise.reject(this.stopped)
    const id = this.nextId++
    return new Promise<T>((resolve, reject) => {
      if (this.pending.size === 0) this.worker.ref()
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject })
      this.worker.postMessage({ ...message, id })
    })
  }

  private async runQuery<T>(
    tx: number | undefined,
    sql: string,
    params: unknown[] | undefined,
    options: ThreadQueryOptions | undefined,
  ): Promise<ThreadResult<T>> {
    const parsers = options?.parsers
    const rawOids = parsers ? Object.keys(parsers).map(Number) : undefined
    const result = await this.call<ThreadResult<T>>({
      op: 'query',
      sql,
      params: params ?? [],
      rowMode: options?.rowMode,
      rawOids,
      tx,
    })
    if (parsers && result.rows.length > 0) applyParsers(result, parsers, options?.rowMode)
    return result
  }

  /** One statement, with `$1…` parameters (PGlite's `query`). */
  query<T = Row>(sql: string, params?: unknown[], options?: ThreadQueryOptions) {
    return this.runQuery<T>(undefined, sql, params, options)
  }

  /** One or more statements without parameters (PGlite's `exec`). */
  exec(sql: string): Promise<ThreadResult[]> {
    return this.call({ op: 'exec', sql })
  }

  /**
   * Runs `fn` in a transaction: committed when `fn` resolves, rolled back when it throws. Other
   * statements wait until it ends (PGlite's transaction lock), so `fn` must use `tx` only.
   */
  async transaction<T>(fn: (tx: ThreadTransaction) => Promise<T>): Promise<T> {
    const { tx } = await this.call<{ tx: number }>({ op: 'begin' })
    let closed = false
    const check = () => {
      if (closed) throw new Error('Transaction is closed')
    }
    const handle: ThreadTransaction = {
      query: async <R>(sql: string, params?: unknown[], options?: ThreadQueryOptions) => {
        check()
        return this.runQuery<R>(tx, sql, params, options)
      },
      exec: async (sql: string) => {
        check()
        return this.call<ThreadResult[]>({ op: 'exec', sql, tx })
      },
      get closed() {
        return closed
      },
    }
    let value: T
    try {
      value = await fn(handle)
    } catch (error) {
      closed = true
      await this.call({ op: 'end', tx, commit: false }).catch(() => undefined)
      throw error
    }
    closed = true
    await this.call({ op: 'end', tx, commit: true })
    return value
  }

  /** Subscribes to NOTIFY on `channel`; returns the unsubscribe function. */
  async listen(
    channel: string,
    onPayload: (payload: string) => void,
  ): Promise<() => Promise<void>> {
    let set = this.listeners.get(channel)
    if (!set) {
      set = new Set()
      this.listeners.set(channel, set)
      await this.call({ op: 'listen', channel })
    }
    const listener = (payload: string) => onPayload(payload)
    set.add(listener)
    return async () => {
      set.delete(listener)
      if (set.size > 0 || this.listeners.get(channel) !== set) return
      this.listeners.delete(channel)
      if (!this.stopped) await this.call({ op: 'unlisten', channel })
    }
  }

  /** Closes PGlite (its files flushed) and ends the thread. */
  async close(): Promise<void> {
    if (this.stopped) return
    await this.call({ op: 'close' })
    this.stop(new Error('The embedded database is closed.'))
    await this.worker.terminate()
  }
}

/** Parses, on this thread, the values the thread handed back as text for the caller's parsers. */
function applyParsers<T>(
  result: ThreadResult<T>,
  parsers: Record<number, Parser>,
  rowMode: 'array' | 'object' | undefined,
) {
  result.fields.forEach((field, index) => {
    const parse = parsers[field.dataTypeID]
    if (!parse) return
    const key = rowMode === 'array' ? index : field.name
    for (const row of result.rows as Record<string | number, unknown>[]) {
      const value = row[key]
      if (value !== null && value !== undefined) row[key] = parse(value as string, field.dataTypeID)
    }
  })
}

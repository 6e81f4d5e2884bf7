// The embedded database's own thread (docs/data.md): one PGlite instance runs here, off the API's
// event loop, so that a slow query never delays other requests, static files or /api/health.
// The main thread talks to it through PgliteThread (pglite-thread-client.ts); this file is plain
// JavaScript so that a worker can start it without a TypeScript loader, from the sources and
// from the production build alike (scripts/build.mjs copies it next to server.mjs).
//
// Every statement goes through PGlite's own query/exec/transaction, which take its transaction
// lock: a statement sent outside a transaction waits while a transaction is open, exactly as it
// did in-process (docs/decisions/0005). A transaction is opened by `begin`, runs the statements
// sent with its id, and ends with `end` (commit or roll back) from the main thread.
//
// Messages in:  { id, op: 'query', sql, params, rowMode, rawOids, tx? }
//               { id, op: 'exec', sql, tx? }
//               { id, op: 'begin' }  → { tx }  once the transaction holds the lock
//               { id, op: 'end', tx, commit }
//               { id, op: 'listen' | 'unlisten', channel }
//               { id, op: 'close' }
// Messages out: { id, ok: true, value } | { id, ok: false, error }
//               { op: 'notify', channel, payload }
import { getPriority, setPriority } from 'node:os'
import { parentPort, workerData } from 'node:worker_threads'
import { PGlite } from '@electric-sql/pglite'

const port = parentPort
if (!port)
  throw new Error('pglite-thread.mjs runs as a worker thread (see pglite-thread-client.ts)')

// On Linux a thread has its own nice value: this one yields to the API's event loop when both
// want the CPU, so /api/health, static files and the answers' serialisation go first while
// queries queue here. apps/api/bench/api.bench.ts on PGlite, four alternating runs under the same
// load: /api/health p99 during the list storm 469 and 388 ms at nice 0, 67 and 60 ms at nice 5,
// list throughput within the runs' spread. (Elsewhere setpriority would lower the whole process.)
/** Added to the process's nice value (a thread may lower its priority, not raise it). */
const THREAD_NICE = 5
if (process.platform === 'linux') {
  try {
    setPriority(Math.min(19, getPriority() + THREAD_NICE))
  } catch {
    // Not allowed here: the thread keeps the process's priority.
  }
}

/** Marks a transaction the main thread rolled back (not an error to report). */
const ROLLBACK = Symbol('rollback')

/** @type {Map<number, { tx: import('@electric-sql/pglite').Transaction, finish: (commit: boolean) => void }>} */
const transactions = new Map()
/** @type {Map<string, () => Promise<void>>} */
const listening = new Map()
let nextTx = 1

/** An error as plain data: its message, name, and PostgreSQL's fields (code, detail, constraint…). */
function errorData(error) {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) }
  const data = { name: error.name, message: error.message }
  for (const [key, value] of Object.entries(error)) {
    if (value === undefined || typeof value === 'function') continue
    if (key === 'result' || key === 'cause') continue
    if (typeof value === 'object' && value !== null) continue
    data[key] = value
  }
  return data
}

const reply = (id, value) => port.postMessage({ id, ok: true, value })
const fail = (id, error) => port.postMessage({ id, ok: false, error: errorData(error) })

/** The open transaction `tx`, or the instance itself for a statement outside one. */
function target(pg, tx) {
  if (tx === undefined) return pg
  const open = transactions.get(tx)
  if (!open) throw new Error(`The transaction ${tx} is closed.`)
  return open.tx
}

/** Query options: the row mode, and the types to hand back as text (the caller parses them). */
function queryOptions(message) {
  const options = {}
  if (message.rowMode) options.rowMode = message.rowMode
  if (message.rawOids?.length) {
    options.parsers = Object.fromEntries(message.rawOids.map((oid) => [oid, (value) => value]))
  }
  return options
}

function begin(pg, id) {
  const tx = nextTx++
  pg.transaction(
    (handle) =>
      new Promise((resolve, reject) => {
        transactions.set(tx, {
          tx: handle,
          finish: (commit) => (commit ? resolve(undefined) : reject(ROLLBACK)),
        })
        reply(id, { tx })
      }),
  ).then(
    () => {
      const end = ends.get(tx)
      ends.delete(tx)
      if (end !== undefined) reply(end, null)
    },
    (error) => {
      const end = ends.get(tx)
      ends.delete(tx)
      transactions.delete(tx)
      if (end === undefined)
        fail(id, error) // BEGIN itself failed
      else if (error === ROLLBACK) reply(end, null)
      else fail(end, error) // COMMIT failed
    },
  )
}

/** The `end` message waiting for each closing transaction's outcome. */
const ends = new Map()

function end(id, tx, commit) {
  const open = transactions.get(tx)
  if (!open) return fail(id, new Error(`The transaction ${tx} is closed.`))
  transactions.delete(tx)
  ends.set(tx, id)
  open.finish(commit)
}

async function handle(pg, message) {
  const { id } = message
  try {
    switch (message.op) {
      case 'query': {
        const { rows, fields, affectedRows } = await target(pg, message.tx).query(
          message.sql,
          message.params,
          queryOptions(message),
        )
        return reply(id, { rows, fields, affectedRows })
      }
      case 'exec': {
        const results = await target(pg, message.tx).exec(message.sql)
        return reply(
          id,
          results.map(({ rows, fields, affectedRows }) => ({ rows, fields, affectedRows })),
        )
      }
      case 'begin':
        return begin(pg, id)
      case 'end':
        return end(id, message.tx, message.commit)
      case 'listen': {
        const { channel } = message
        if (!listening.has(channel)) {
          const unsubscribe = await pg.listen(channel, (payload) =>
            port.postMessage({ op: 'notify', channel, payload }),
          )
          listening.set(channel, unsubscribe)
        }
        return reply(id, null)
      }
      case 'unlisten': {
        const unsubscribe = listening.get(message.channel)
        listening.delete(message.channel)
        if (unsubscribe) await unsubscribe()
        return reply(id, null)
      }
      case 'close':
        for (const open of transactions.values()) open.finish(false)
        await pg.close()
        reply(id, null)
        port.close()
        return
      default:
        throw new Error(`pglite-thread: unknown operation ${String(message.op)}`)
    }
  } catch (error) {
    fail(id, error)
  }
}

let pg
try {
  pg = await PGlite.create(workerData?.dataDir || undefined)
  port.postMessage({ op: 'ready' })
} catch (error) {
  port.postMessage({ op: 'failed', error: errorData(error) })
  port.close()
}
if (pg) port.on('message', (message) => void handle(pg, message))

// Entry of every worker thread: registers tsx's loader inside the thread, then loads the
// TypeScript entry. (On Node 20, `execArgv: ['--import', 'tsx']` does not reach a worker's own
// entry module: it fails with "Unknown file extension .ts".)
import { workerData } from 'node:worker_threads'
import { register } from 'tsx/esm/api'

register()
await import(workerData.entry)

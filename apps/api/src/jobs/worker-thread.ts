// Entry of a worker thread (see pool.ts): runs one task at a time and reports back.
import { parentPort } from 'node:worker_threads'
import type { FromThread, ToThread } from './pool.ts'
import { tasks } from './tasks.ts'

const port = parentPort
if (!port) throw new Error('worker-thread.ts runs inside a worker thread')

const post = (message: FromThread) => port.postMessage(message)

port.on('message', async (message: ToThread) => {
  const { runId, task } = message
  const run = tasks[task]
  if (!run) {
    post({ type: 'error', runId, error: { name: 'Error', message: `Unknown task ${task}` } })
    return
  }
  try {
    const output = await run(message.input as never, (progress, text) =>
      post({ type: 'progress', runId, progress, ...(text ? { message: text } : {}) }),
    )
    post({ type: 'done', runId, output })
  } catch (error) {
    const e = error as { name?: string; message?: string; code?: string }
    post({
      type: 'error',
      runId,
      error: { name: e.name ?? 'Error', message: e.message ?? String(error), code: e.code },
    })
  }
})

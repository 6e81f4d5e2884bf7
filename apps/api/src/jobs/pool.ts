import { EventEmitter } from 'node:events'
import { existsSync } from 'node:fs'
import { Worker } from 'node:worker_threads'

// A pool of worker threads that run the CPU-heavy part of jobs (simulations, optimizations) off
// the API's event loop. The threads run pure tasks (JSON in, JSON out, progress along the way);
// everything that touches the database or the files stays in the main thread, so a thread can be
// killed at any moment without leaving anything half-written.

export type TaskProgress = { progress: number; message?: string | undefined }

/** Messages from a thread (see worker-thread.ts). */
export type FromThread =
  | { type: 'progress'; runId: number; progress: number; message?: string }
  | { type: 'done'; runId: number; output: unknown }
  | { type: 'error'; runId: number; error: { name: string; message: string; code?: string } }

export type ToThread = { type: 'run'; runId: number; task: string; input: unknown }

/** The thread died (crash, out of memory, terminated) while running a task. */
export class WorkerCrashedError extends Error {
  readonly code = 'worker-crashed'
}

/** A run was stopped on purpose (its job was cancelled or is no longer ours). */
export class TaskAbortedError extends Error {
  readonly code = 'aborted'
}

/** A task failed inside the thread with an error it threw (bad input, infeasible…). */
export class TaskError extends Error {
  constructor(
    message: string,
    readonly errorName: string,
    readonly code?: string,
  ) {
    super(message)
  }
}

type Run = {
  runId: number
  order: number
  task: string
  input: unknown
  onProgress: (p: TaskProgress) => void
  resolve: (output: unknown) => void
  reject: (error: Error) => void
}

type Slot = { worker: Worker; run?: Run; dead: boolean }

// From source the thread loads worker-thread.ts through tsx (thread-bootstrap.mjs); in the
// production build (`npm run build`, scripts/build.mjs) this module sits next to the compiled
// worker-thread.mjs, which a thread runs directly.
const builtThreadUrl = new URL('./worker-thread.mjs', import.meta.url)
const built = import.meta.url.endsWith('.mjs') && existsSync(builtThreadUrl)
const threadUrl = new URL('./worker-thread.ts', import.meta.url)
const bootstrapUrl = new URL('./thread-bootstrap.mjs', import.meta.url)
const THREAD_HEAP_MB = 1536

/**
 * Events: 'progress' ({ runId, task, progress }) is emitted synchronously when a thread reports
 * progress, before the run's own callback (operators and tests can act on a run mid-way).
 */
export class WorkerPool extends EventEmitter<{
  progress: [{ runId: number; task: string; progress: number }]
}> {
  private slots: Slot[] = []
  private waiting: Run[] = []
  private nextRunId = 1
  private closed = false
  /** Threads started so far (for the startup log and tests). */
  started = 0

  constructor(readonly size: number) {
    super()
    if (size < 1) throw new Error('a worker pool needs at least one thread')
  }

  /**
   * Runs `task` in a thread; resolves with its output, rejects with TaskError or WorkerCrashedError.
   * When every thread is busy, waiting runs start by ascending `order` (a job's turn), then in
   * the order they came.
   */
  run<T>(
    task: string,
    input: unknown,
    onProgress: (p: TaskProgress) => void = () => {},
    signal?: AbortSignal,
    order = 0,
  ): Promise<T> {
    if (this.closed) return Promise.reject(new Error('the worker pool is closed'))
    if (signal?.aborted) return Promise.reject(new TaskAbortedError(`${task} was stopped.`))
    return new Promise<T>((resolve, reject) => {
      const run: Run = {
        runId: this.nextRunId++,
        order,
        task,
        input,
        onProgress,
        resolve: resolve as (o: unknown) => void,
        reject,
      }
      // Stopping a run: a waiting one leaves the queue, a running one loses its thread.
      signal?.addEventListener(
        'abort',
        () => {
          const error = new TaskAbortedError(`${task} was stopped.`)
          const waiting = this.waiting.indexOf(run)
          if (waiting >= 0) {
            this.waiting.splice(waiting, 1)
            reject(error)
          } else void this.kill(run.runId, error)
        },
        { once: true },
      )
      // Before the first waiting run of a later order (runIds grow: equal orders stay in line).
      const at = this.waiting.findIndex((w) => w.order > order)
      if (at < 0) this.waiting.push(run)
      else this.waiting.splice(at, 0, run)
      this.dispatch()
    })
  }

  /** Ids of the runs in progress, with their task names. */
  running(): { runId: number; task: string }[] {
    return this.slots.flatMap((s) => (s.run ? [{ runId: s.run.runId, task: s.run.task }] : []))
  }

  /**
   * Kills the thread running `runId` (as a crash would): its run rejects with WorkerCrashedError
   * and a fresh thread takes its place. Returns false when no thread runs it.
   */
  async kill(runId: number, error?: Error): Promise<boolean> {
    const slot = this.slots.find((s) => s.run?.runId === runId)
    if (!slot) return false
    this.retire(
      slot,
      error ?? new WorkerCrashedError(`The worker thread running ${slot.run!.task} was killed.`),
    )
    await slot.worker.terminate()
    return true
  }

  async close(): Promise<void> {
    this.closed = true
    for (const run of this.waiting.splice(0)) run.reject(new Error('the worker pool is closed'))
    await Promise.all(
      this.slots.map(async (slot) => {
        this.retire(slot, new WorkerCrashedError('The worker pool was closed during the task.'))
        await slot.worker.terminate()
      }),
    )
  }

  private dispatch() {
    while (this.waiting.length) {
      let slot = this.slots.find((s) => !s.run && !s.dead)
      if (!slot && this.slots.filter((s) => !s.dead).length < this.size) slot = this.spawn()
      if (!slot) return
      const run = this.waiting.shift()!
      slot.run = run
      slot.worker.postMessage({
        type: 'run',
        runId: run.runId,
        task: run.task,
        input: run.input,
      } satisfies ToThread)
    }
  }

  private spawn(): Slot {
    const worker = new Worker(built ? builtThreadUrl : bootstrapUrl, {
      workerData: { entry: threadUrl.href },
      // A runaway task runs out of its own heap and dies alone (its run fails and is retried),
      // instead of taking the API process down with it.
      resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB },
    })
    const slot: Slot = { worker, dead: false }
    this.started++
    worker.on('message', (message: FromThread) => {
      // After a kill, late messages of the dead thread are ignored: its run already failed.
      if (slot.dead || !slot.run || message.runId !== slot.run.runId) return
      const run = slot.run
      if (message.type === 'progress') {
        this.emit('progress', { runId: run.runId, task: run.task, progress: message.progress })
        if (slot.dead) return
        run.onProgress({ progress: message.progress, message: message.message })
        return
      }
      slot.run = undefined
      if (message.type === 'done') run.resolve(message.output)
      else run.reject(new TaskError(message.error.message, message.error.name, message.error.code))
      this.dispatch()
    })
    const onDeath = (reason: string) =>
      this.retire(slot, new WorkerCrashedError(`The worker thread stopped (${reason}).`))
    worker.on('error', (error: Error) => onDeath(error.message))
    worker.on('exit', (code) => onDeath(`exit code ${code}`))
    this.slots.push(slot)
    return slot
  }

  /** Marks a thread dead, fails its run, and lets a new thread take the waiting work. */
  private retire(slot: Slot, error: Error) {
    if (slot.dead) return
    slot.dead = true
    this.slots = this.slots.filter((s) => s !== slot)
    const run = slot.run
    slot.run = undefined
    run?.reject(error)
    if (!this.closed) this.dispatch()
  }
}

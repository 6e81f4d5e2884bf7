// The preview's sequencing (worker/preview-client.ts): each input numbered, its first answer then
// its refined one (then the refined one with its costs, where the scenario asks for an effect),
// and nothing of an older input shown once a newer one is asked for. The workers
// here run the real worker code (worker/preview-protocol.ts, the engine on the self-made climb of
// packages/formats/test/fixtures/synthetic-climb.ts) in this thread, each computation in one task
// and each reply delivered in a task of its own, as a Web Worker's messages are; a terminated one
// still delivers the replies it had posted (messages already on their way). The real Worker in
// Chromium is e2e/tests/preview-two-steps.spec.ts.
import { describe, expect, it } from 'vitest'
import { optimizerInputOf, type SegmentRow, type SetupLike } from '../lib/engine-input.ts'
import { previewSetup, segmentRowsOf, syntheticClimbCourse } from '../lib/preview-fixtures.ts'
import { computePreview } from '../lib/preview.ts'
import type { PacingOutput } from '../lib/run-output.ts'
import {
  PreviewClient,
  type PreviewClientOptions,
  type PreviewState,
  type PreviewWorker,
} from './preview-client.ts'
import { answerPreview, type PreviewReply } from './preview-protocol.ts'

const built = syntheticClimbCourse('climb.gpx')
const rows: SegmentRow[] = segmentRowsOf(built)
const setupWith = (cda: number): SetupLike => previewSetup({ positions: [{ cda }] })
const inputWith = (cda: number) =>
  optimizerInputOf(rows, undefined, setupWith(cda), { max_targets: 6 }, 'pacing')

/** A worker in this thread running the real worker code; `spawned` lists them in order. */
function threadWorkers() {
  const spawned: { terminated: boolean }[] = []
  const spawn = (): PreviewWorker => {
    const mark = { terminated: false }
    spawned.push(mark)
    const worker: PreviewWorker = {
      onmessage: null,
      postMessage(request) {
        setTimeout(() => {
          if (mark.terminated) return
          answerPreview(request, (reply) =>
            setTimeout(() => worker.onmessage?.({ data: reply } as MessageEvent<PreviewReply>)),
          )
        })
      },
      terminate() {
        mark.terminated = true
      },
    }
    return worker
  }
  return { spawn, spawned }
}

/** Every state the client shows with an answer, as "seq:stage". */
const shown = (states: PreviewState[]) =>
  states.filter((s) => s.output).map((s) => `${s.answers}:${s.stage}`)

/**
 * A client on fresh in-thread workers, asked by `ask`, with every state it shows up to the one
 * `until` waits for (`until` may ask for more, as an edit would).
 */
async function runUntil(
  options: PreviewClientOptions,
  ask: (client: PreviewClient) => void,
  until: (s: PreviewState, client: PreviewClient) => boolean,
) {
  const { spawn, spawned } = threadWorkers()
  const states: PreviewState[] = []
  let client!: PreviewClient
  await new Promise<void>((resolve) => {
    client = new PreviewClient(
      spawn,
      (s) => {
        states.push(s)
        if (until(s, client)) resolve()
      },
      options,
    )
    ask(client)
  })
  return { states, spawned, client }
}

describe('PreviewClient', () => {
  it('shows the first answer, then the refined one replacing it', async () => {
    const { states } = await runUntil(
      { debounceMs: 0, lanes: 1, spare: false },
      (client) => client.request(inputWith(0.32), 'pacing'),
      (s) => s.stage === 'refined',
    )
    expect([...new Set(shown(states))]).toEqual(['1:first', '1:refined'])
    const first = states.find((s) => s.stage === 'first')!
    expect(first.computing).toBe(true)
    expect((first.output as PacingOutput).plan).toEqual([])
    const last = states.at(-1)!
    expect(last.computing).toBe(false)
    expect(last.output).toEqual(computePreview(inputWith(0.32), 'pacing'))
  })

  it('with heat asked: the plan first, then the same plan with what the heat costs it', async () => {
    // a hot day: CP is lowered by the heat, and its cost is one more optimization
    const hot = optimizerInputOf(
      rows,
      undefined,
      setupWith(0.32),
      { max_targets: 6, environment: { temperature_c: 32 }, options: { heat: true } },
      'pacing',
    )
    const { states } = await runUntil(
      { debounceMs: 0, lanes: 1, spare: false },
      (client) => client.request(hot, 'pacing'),
      (s) => s.stage === 'costs',
    )
    expect([...new Set(shown(states))]).toEqual(['1:first', '1:refined', '1:costs'])
    const plan = states.find((s) => s.stage === 'refined')!
    // the plan is on screen, its costs still to come
    expect(plan.computing).toBe(true)
    expect(plan.costsPending).toBe(true)
    const planOutput = plan.output as PacingOutput & { capacity_costs?: { heat_s?: number } }
    expect(planOutput.capacity_costs).toBeUndefined()
    const last = states.at(-1)!
    expect(last.computing).toBe(false)
    expect(last.costsPending).toBe(false)
    const full = computePreview(hot, 'pacing') as PacingOutput & {
      capacity_costs?: { heat_s?: number }
    }
    // what the saved run computes: the same plan, and the heat slows it
    expect(last.output).toEqual(full)
    expect(full.time_s).toBe(planOutput.time_s)
    expect(full.capacity_costs?.heat_s).toBeGreaterThan(0)
  })

  it('drops the answers of an input a newer one replaced, and ends with the newer input’s', async () => {
    const { states, spawned, client } = await runUntil(
      { debounceMs: 0, lanes: 1, spare: true },
      (c) => c.request(inputWith(0.32), 'pacing'),
      (s, c) => {
        // an edit while the first input's plan is being refined
        if (s.answers === 1 && s.stage === 'first' && s.seq === 1)
          c.request(inputWith(0.4), 'pacing')
        return s.answers === 2 && s.stage === 'refined'
      },
    )
    // the first input's refined plan was on its way and is never shown
    expect([...new Set(shown(states))]).toEqual(['1:first', '2:first', '2:refined'])
    // the busy worker was terminated; the second input went to the spare
    expect(spawned.map((w) => w.terminated)).toEqual([true, false, false])
    const last = states.at(-1)!.output as PacingOutput
    expect(last).toEqual(computePreview(inputWith(0.4), 'pacing'))
    // and it is the second input's answer: more drag, slower
    expect(last.time_s).toBeGreaterThan(
      (computePreview(inputWith(0.32), 'pacing') as PacingOutput).time_s,
    )
    client.dispose()
  })

  it('with two workers: the first-answer worker is kept, the refining one replaced, the newer input shown', async () => {
    const { states, spawned, client } = await runUntil(
      { debounceMs: 0, lanes: 2, spare: true },
      (c) => {
        // the second input arrives while both workers are busy with the first
        c.request(inputWith(0.32), 'pacing')
        c.request(inputWith(0.4), 'pacing')
      },
      (s) => s.answers === 2 && s.stage === 'refined',
    )
    // the refining worker (1st) was replaced by the spare (3rd); the first-answer worker (2nd)
    // finished the first input and then computed the second; nothing of the first input shown
    expect(spawned.map((w) => w.terminated)).toEqual([true, false, false, false])
    expect(shown(states).filter((x) => x.startsWith('1:'))).toEqual([])
    expect(states.at(-1)!.output).toEqual(computePreview(inputWith(0.4), 'pacing'))
    // the refined answer stays when the first one comes after it (the in-thread workers run in turn)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(client.state.stage).toBe('refined')
    client.dispose()
  })

  it('computes only the last of the edits made within the debounce', async () => {
    const { states } = await runUntil(
      { debounceMs: 20, lanes: 2, spare: true },
      (c) => {
        for (const cda of [0.3, 0.34, 0.38]) c.update(inputWith(cda), 'pacing')
      },
      (s) => s.stage === 'refined',
    )
    // shown as out of date from the first edit on
    expect(states[0]!.computing).toBe(true)
    expect(Math.max(...states.map((s) => s.seq))).toBe(1)
    expect(states.at(-1)!.output).toEqual(computePreview(inputWith(0.38), 'pacing'))
  })
})

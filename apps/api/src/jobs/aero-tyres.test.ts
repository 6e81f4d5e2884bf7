// A tyre test through the analysis job's task: the runs' configurations name their tyres (the
// `tyre` key, as the upload's "Tyres" field and Add run store it); the task hands them to the
// engine, and the output carries each tyre's Crr with the difference from the first tyres'. The
// ride is the engine's synthetic bracketed session with X on tyres rolling 0.001 harder
// (test/fixtures/aero-tyre-test.ts).
import { describe, expect, it } from 'vitest'
import { tyreTestTask } from '../../test/fixtures/aero-tyre-test.ts'
import { tyreText } from './aero-analysis-data.ts'
import { analyseSession } from './aero-task.ts'

describe('a tyre test through the analysis task', () => {
  it('names the tyres from the configuration’s tyre, tyres, tire, tires or surface key', () => {
    expect(tyreText({ setup: 'A', tyre: ' GP5000 ' })).toBe('GP5000')
    expect(tyreText({ setup: 'A', tires: 'Gatorskin' })).toBe('Gatorskin')
    expect(tyreText({ setup: 'A', surface: 'chip seal' })).toBe('chip seal')
    expect(tyreText({ setup: 'A', tyre: '  ' })).toBeUndefined()
    expect(tyreText({ setup: 'A' })).toBeUndefined()
  })

  it('each tyre its own Crr, the difference within 0.0005 of the truth and inside its interval; without tyres, one Crr', () => {
    const analyse = (withTyres: boolean) => analyseSession(tyreTestTask(withTyres), () => {})
    const out = analyse(true)
    expect(out.crrByTyre.map((t) => t.tyre)).toEqual(['supple', 'puncture-proof'])
    const other = out.crrByTyre[1]!
    expect(Math.abs(other.delta_crr - 0.001)).toBeLessThanOrEqual(0.0005)
    expect(other.delta_crr_ci95![0]).toBeLessThanOrEqual(0.001)
    expect(other.delta_crr_ci95![1]).toBeGreaterThanOrEqual(0.001)
    const x = out.runs.find((r) => r.configuration === 'X')!
    expect(x.crr).toBeCloseTo(other.crr, 10)
    // The same runs without tyres: one Crr for the session, no list.
    expect(analyse(false).crrByTyre).toEqual([])
  })
})

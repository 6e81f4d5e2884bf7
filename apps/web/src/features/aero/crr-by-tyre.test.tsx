// The session page's tyre test: the analysis task's output for the engine's synthetic session
// with X on tyres rolling 0.001 harder (its runs named by tyre), through JSON as stored, rendered
// under the comparison: each tyre's Crr with its interval, and the difference with a verdict.
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import type { AeroAnalysisVersion } from '@veloptima/contracts'
import { tyreTestTask } from '../../../../api/test/fixtures/aero-tyre-test.ts'
import { analyseSession } from '../../../../api/src/jobs/aero-task.ts'
import { ComparisonSummary } from './session-runs.tsx'

function tyreTest(withTyres: boolean): AeroAnalysisVersion {
  const out = analyseSession(tyreTestTask(withTyres), () => {})
  const summary = {
    comparison: out.comparison,
    plan: out.plan,
    ...(out.crrByTyre.length > 0 ? { crr_by_tyre: out.crrByTyre } : {}),
  }
  return { summary: JSON.parse(JSON.stringify(summary)) } as unknown as AeroAnalysisVersion
}

describe('the session page’s rolling resistance by tyre', () => {
  it('lists each tyre’s Crr with its interval and says the other tyres roll harder', () => {
    const html = renderToStaticMarkup(<ComparisonSummary analysis={tyreTest(true)} />)
    expect(html).not.toMatch(/NaN|Infinity|undefined/)
    const block = html.split('data-testid="crr-by-tyre"')[1]!
    expect(block).toMatch(
      /supple<\/span>: Crr 0\.00\d\d \(95 %: 0\.00\d\d–0\.00\d\d\) \(the reference\)/,
    )
    expect(block).toMatch(
      /puncture-proof<\/span>: Crr 0\.00\d\d \(95 %: [^)]+\); \+0\.00\d\d \(95 %: \+0\.00\d\d to \+0\.00\d\d\): rolls harder/,
    )
  })

  it('shows nothing of the kind for runs without tyres', () => {
    const html = renderToStaticMarkup(<ComparisonSummary analysis={tyreTest(false)} />)
    expect(html).not.toContain('crr-by-tyre')
  })
})

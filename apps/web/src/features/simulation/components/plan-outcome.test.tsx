// The result page's target, capacity and costs, rendered on the server (no DOM in the unit
// project) from real runs of the engine: a 48 km course in 32 °C heat with a rider who tires
// (durability 0.06), run for the fastest plan and for a target time that is reached and one that
// is not; then the same outputs with numbers no rider can have, which are left out.
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { pacingOutput, parseOptimizeScenario, runPacingScenario } from '@veloptima/engine'
import type { PacingOutput } from '../lib/run-output.ts'
import { racePlanCourse, racePlanRider } from './race-plan-fixtures.ts'
import { planCosts, planCostsText } from './plan-costs.tsx'
import { FinishCp, planShown, PlanOutcomeCard, targetTimeText } from './plan-outcome.tsx'

const scenario = {
  course: racePlanCourse(10000),
  rider: { ...racePlanRider, durability: 0.06 },
  environment: { temperature_c: 32 },
  options: { heat: true },
  constraint: { type: 'w_prime_balance' },
  fuel: { gut_tolerance_g_per_h: 90 },
}

/** The stored output of one run, as the API's job computes it. */
function run(constraint: object): PacingOutput {
  const parsed = parseOptimizeScenario({ ...scenario, constraint })
  const { result, ctx } = runPacingScenario(parsed)
  return pacingOutput(result, parsed.input.course, ctx)
}

const fastest = run({ type: 'w_prime_balance' })
const html = (node: React.ReactNode) => renderToStaticMarkup(node).replace(/<!-- -->/g, '')
const text = (node: React.ReactNode) => html(node).replace(/<[^>]+>/g, '')

describe('the finish CP', () => {
  it('says the CP left at the finish, below the one at the start', () => {
    const finish = fastest.finish_cp_w!
    expect(finish).toBeGreaterThan(150)
    expect(finish).toBeLessThan(290)
    expect(text(<FinishCp output={fastest} cpW={300} />)).toBe(
      `At the finish your CP is ${Math.round(finish)} W (300 W at the start).`,
    )
  })
  it('is left out when the stored value is no CP a rider can have', () => {
    for (const bad of [-20, 0, Number.NaN, 12_000]) {
      expect(html(<FinishCp output={{ ...fastest, finish_cp_w: bad }} cpW={300} />)).toBe('')
    }
  })
})

describe('the costs of heat and durability', () => {
  it('lists what each effect costs the plan, heat first, in words', () => {
    const costs = planCosts(fastest)
    expect(costs.map((c) => c.name)).toEqual(['heat', 'durability'])
    for (const c of costs) expect(c.seconds).toBeGreaterThan(1)
    const heat = Math.round(fastest.capacity_costs!.heat_s!)
    const words =
      heat < 60
        ? `${heat} s`
        : `${Math.floor(heat / 60)} min ${String(heat % 60).padStart(2, '0')} s`
    expect(planCostsText(fastest)).toMatch(new RegExp(`^heat \\+${words}, durability \\+\\d+`))
  })
  it('adds the rules’ costs after them, and leaves out costs no plan can have', () => {
    const withRules = {
      ...fastest,
      capacity_costs: { heat_s: 42.4, altitude_s: 12, durability_s: -0.4 },
      rule_costs: { easy_start_s: 8, coast_s: Number.NaN, descent_cap_s: -30, stretches_s: 1e9 },
    } as PacingOutput
    // a rule may make the rideable plan faster (a negative cost); heat and the others may not
    expect(planCostsText(withRules)).toBe(
      'heat +42 s, altitude +12 s, durability +0 s, easy start +8 s, descent cap −30 s',
    )
    const beyond = { ...withRules, rule_costs: { coast_s: -2 * withRules.time_s } } as PacingOutput
    expect(planCostsText(beyond)).toBe('heat +42 s, altitude +12 s, durability +0 s')
    const hotter = { ...withRules, capacity_costs: { heat_s: -30 }, rule_costs: {} } as PacingOutput
    expect(planCostsText(hotter)).toBeNull()
    expect(planCostsText({ ...fastest, capacity_costs: {} })).toBeNull()
  })
})

describe('a target-time run', () => {
  const reached = run({ type: 'target_time', time_s: 5400 })
  const missed = run({ type: 'target_time', time_s: 4000 })

  it('reached: finishes in the target at the NP the plan rides', () => {
    const t = reached.target_time!
    expect(t.reached).toBe(true)
    const line = targetTimeText(reached)!
    expect(line).toMatch(/^Target 1:30:00: finishes in 1:(29:[45]\d|30:00) at NP (\d+) W\./)
    const np = Number(/NP (\d+) W/.exec(line)![1])
    expect(np).toBe(Math.round(reached.normalized_power_w!))
    expect(np).toBeLessThan(Math.round(fastest.normalized_power_w!))
    expect(line).toContain(`the fastest legal plan is ${clock(fastest.time_s)}`)
  })

  it('not reached: says so with the fastest legal plan’s time, and shows that plan', () => {
    expect(missed.target_time!.reached).toBe(false)
    expect(targetTimeText(missed)).toBe(
      `Target 1:06:40 not reachable: the fastest legal plan is ${clock(fastest.time_s)}.`,
    )
    expect(missed.status).toBe('infeasible')
    const shown = planShown(missed)
    expect(shown.status).toBe('optimal')
    expect(shown.plan.length).toBeGreaterThan(0)
    expect(planShown(fastest)).toBe(fastest)
    const card = text(<PlanOutcomeCard output={missed} cpW={300} windShown={false} />)
    expect(card).toContain('not reachable: the fastest legal plan is')
    expect(card).toContain('The plan below is that fastest plan.')
    expect(card).toContain('At the finish your CP is')
  })

  it('leaves out an outcome whose times no ride can take', () => {
    const bad = { ...reached, target_time: { ...reached.target_time!, time_s: -5 } }
    expect(targetTimeText(bad)).toBeNull()
    expect(targetTimeText(fastest)).toBeNull()
  })
})

/** h:mm:ss of a time (rounded to the second), as the page writes it. */
function clock(s: number): string {
  const r = Math.round(s)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${Math.floor(r / 3600)}:${pad(Math.floor((r % 3600) / 60))}:${pad(r % 60)}`
}

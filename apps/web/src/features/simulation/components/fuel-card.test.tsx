// The fuel card of a result, rendered on the server (no DOM in the unit project) from a real run
// of the engine with the rider's CP (an 88 km course, 32 °C, a gut that takes 90 g/h), and with
// numbers no body takes, which are left out.
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { pacingOutput, parseOptimizeScenario, runPacingScenario } from '@veloptima/engine'
import type { PacingOutput } from '../lib/run-output.ts'
import { racePlanCourse, racePlanRider } from './race-plan-fixtures.ts'
import { carbohydrateText, feedsOf, FuelCard, fluidText, glycogenText } from './fuel-card.tsx'

const parsed = parseOptimizeScenario({
  course: racePlanCourse(50000),
  rider: { ...racePlanRider },
  environment: { temperature_c: 32 },
  constraint: { type: 'w_prime_balance' },
  fuel: { gut_tolerance_g_per_h: 90 },
})
const { result, ctx } = runPacingScenario(parsed)
const output = pacingOutput(result, parsed.input.course, ctx)
const fuel = output.fuel!
const text = (o: PacingOutput, eventStart?: string) =>
  renderToStaticMarkup(<FuelCard output={o} {...(eventStart ? { eventStart } : {})} />)
    .replace(/<!-- -->/g, '')
    .replace(/<\/(p|li)>/g, '$&\n')
    .replace(/<[^>]+>/g, ' ')
    .replace(/[ ]+/g, ' ')

describe('the fuel card', () => {
  it('gives the rate, the total and what the ride burns', () => {
    expect(fuel.feeds.length).toBeGreaterThanOrEqual(2)
    expect(fuel.target_g_per_h).toBeGreaterThan(0)
    const line = carbohydrateText(fuel)!
    expect(line).toMatch(
      new RegExp(`^Carbohydrate ${fuel.target_g_per_h} g/h, ${fuel.intake_g} g in all`),
    )
    expect(line).toContain(`The ride burns ${fuel.burned_g} g; your gut takes up to 90 g/h.`)
    expect(text(output)).toContain(`Guideline for this ride: ${fuel.guideline}.`)
  })
  it('gives fluid and sodium per hour, and the glycogen left', () => {
    expect(fluidText(fuel)).toBe(
      `fluid ${fuel.fluid_ml_per_h} ml/h, sodium ${fuel.sodium_mg_per_h} mg/h (${fuel.fluid_total_ml} ml in all)`,
    )
    expect(glycogenText(fuel, 'metric')).toBe(
      `Glycogen ${fuel.glycogen_store_g} g at the start, ${fuel.glycogen_finish_g} g left at the finish.`,
    )
    expect(glycogenText({ ...fuel, glycogen_empty_at_m: 38_250 }, 'metric')).toBe(
      `Glycogen ${fuel.glycogen_store_g} g at the start runs out at 38.3 km: eat more, or ride easier.`,
    )
  })
  it('lists every feed with its km, elapsed time (and clock time) and what to take', () => {
    const html = text(output, '2026-07-12T09:00')
    for (const f of fuel.feeds) {
      const km = (f.distance_m / 1000).toFixed(1)
      const h = Math.floor(f.elapsed_s / 3600)
      const m = Math.floor((f.elapsed_s % 3600) / 60)
      const s = String(Math.round(f.elapsed_s % 60)).padStart(2, '0')
      const elapsed = h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`
      expect(html).toContain(`${km} km ${elapsed} · `)
      expect(html).toContain(f.label)
    }
    expect(html).toContain('09:00:00')
    for (const w of fuel.warnings) expect(html).toContain(w.slice(1))
  })
  it('leaves out numbers no body takes, and feeds off the course or past the finish', () => {
    const bad = {
      ...output,
      fuel: {
        ...fuel,
        target_g_per_h: 900,
        fluid_ml_per_h: -1,
        sodium_mg_per_h: Number.NaN,
        glycogen_store_g: 1e6,
        feeds: [
          ...fuel.feeds,
          { distance_m: 9e6, elapsed_s: 100, carbohydrate_g: 20, fluid_ml: 0, label: 'far' },
          { distance_m: 100, elapsed_s: 1e7, carbohydrate_g: 20, fluid_ml: 0, label: 'late' },
          { distance_m: 100, elapsed_s: 10, carbohydrate_g: -5, fluid_ml: 0, label: 'minus' },
        ],
      },
    }
    expect(feedsOf(bad).map((f) => f.label)).toEqual(fuel.feeds.map((f) => f.label))
    const html = text(bad)
    expect(html).not.toMatch(/900|Carbohydrate|ml\/h|Glycogen|far|late|minus/)
    expect(html).toContain(fuel.feeds[1]!.label)
  })
  it('shows nothing without a fuel plan (a rider with no CP)', () => {
    const { fuel: _, ...none } = output
    expect(renderToStaticMarkup(<FuelCard output={none} />)).toBe('')
  })
})

describe('a ride too short to eat on', () => {
  it('says there is no carbohydrate to eat rather than 0 g/h', () => {
    expect(carbohydrateText({ ...fuel, target_g_per_h: 0, intake_g: 0, burned_g: 86 })).toBe(
      'No carbohydrate to eat on this ride. The ride burns 86 g; your gut takes up to 90 g/h.',
    )
  })
})

import { recommendTyrePressure, type TyrePressureInput } from '@veloptima/engine'
import { describe, expect, it } from 'vitest'
import { solveTool } from './fields.tsx'

const base: TyrePressureInput = {
  riderMassKg: 75,
  bikeMassKg: 9,
  bikeType: 'road',
  tyreWidthMm: 28,
  widthKind: 'labelled',
  tyreType: 'tubeless',
  surface: 'normal',
  wet: false,
}
const labels = { riderMassKg: 'Rider mass', tyreMinPressurePa: 'Tyre minimum' }

describe('solveTool: the engine validation errors phrased for the calculators', () => {
  it('a valid input gives the engine result itself', () => {
    const outcome = solveTool(() => recommendTyrePressure(base), labels)
    expect(outcome.error).toBeUndefined()
    expect(outcome.result).toEqual(recommendTyrePressure(base))
  })
  it('a mass outside the engine range (20–250 kg) names the field by its label', () => {
    const outcome = solveTool(() => recommendTyrePressure({ ...base, riderMassKg: 500 }), labels)
    expect(outcome).toEqual({ error: 'Rider mass is outside the range this calculator handles.' })
  })
  it('a minimum above the maximum says so', () => {
    const input = { ...base, tyreMinPressurePa: 600_000, tyreMaxPressurePa: 400_000 }
    expect(solveTool(() => recommendTyrePressure(input), labels).error).toBe(
      'The tyre minimum must be below its maximum.',
    )
  })
  it('any other error is not hidden', () => {
    expect(() =>
      solveTool(() => {
        throw new RangeError('bug')
      }, labels),
    ).toThrow('bug')
  })
})

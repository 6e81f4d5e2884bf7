import { useState } from 'react'
import { useUnits } from '../lib/units.ts'
import { formatInput, switchSystem, textToSi, type Converter } from './quantity.ts'

export type QuantityField = {
  /** What the input box shows (display units). */
  text: string
  onChange(text: string): void
  /** The value in SI, NaN when the box does not hold a number, undefined when empty and optional. */
  si: number | undefined
  unit: string
  invalid: boolean
}

/**
 * One numeric input in the user's units (the units hook of the form kit). The SI value is the
 * truth; when the user switches units the box is rewritten from it.
 */
export function useQuantityField(
  converter: Converter,
  initialSi: number | undefined,
  optional = false,
): QuantityField {
  const { system } = useUnits()
  const [state, setState] = useState(() => ({
    system,
    si: initialSi,
    text: initialSi === undefined ? '' : formatInput(initialSi, converter, system),
  }))
  if (state.system !== system) {
    // Adjusting state to a changed context value during render (React's documented pattern).
    setState(switchSystem(state, converter, system))
  }
  return {
    text: state.text,
    onChange: (text) => setState({ system, si: textToSi(text, converter, system, optional), text }),
    si: state.si,
    unit: converter.unit(system),
    invalid: state.si !== undefined && Number.isNaN(state.si),
  }
}

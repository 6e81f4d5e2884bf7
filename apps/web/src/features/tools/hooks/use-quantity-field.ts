import { useState } from 'react'
import { useUnits } from '../../../lib/units.ts'
import { formatInput, parseInput, type Converter } from '../lib/display.ts'

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
 * One numeric input in the user's units. The SI value is the truth; when the user switches
 * units the box is rewritten from it, so 75 kg becomes 165.3 lb without drifting.
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
    const text =
      state.si === undefined || Number.isNaN(state.si)
        ? state.text
        : formatInput(state.si, converter, system)
    setState({ system, si: state.si, text })
  }
  const onChange = (text: string) => {
    const shown = parseInput(text)
    const si =
      text.trim() === '' && optional
        ? undefined
        : Number.isNaN(shown)
          ? Number.NaN
          : converter.fromDisplay(shown, system)
    setState({ system, si, text })
  }
  return {
    text: state.text,
    onChange,
    si: state.si,
    unit: converter.unit(system),
    invalid: state.si !== undefined && Number.isNaN(state.si),
  }
}

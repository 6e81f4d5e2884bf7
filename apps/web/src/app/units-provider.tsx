import { useMemo, useState, type ReactNode } from 'react'
import { UnitsContext, type UnitSystem, type UnitsState } from '../lib/units.ts'

const STORAGE_KEY = 'veloptima.units'

/** The choice kept in this browser (signed-out visitors; the fallback before a user's own). */
export function storedSystem(): UnitSystem {
  try {
    return localStorage.getItem(STORAGE_KEY) === 'imperial' ? 'imperial' : 'metric'
  } catch {
    return 'metric'
  }
}

export function storeSystem(system: UnitSystem) {
  try {
    localStorage.setItem(STORAGE_KEY, system)
  } catch {
    // Private mode: the choice lasts for this page only.
  }
}

/**
 * Quick settings' metric/imperial choice for a signed-out visitor: kept in this browser. A
 * signed-in user's choice is saved with the user (user-units-provider.tsx, with the data layer).
 */
export function LocalUnitsProvider({ children }: { children: ReactNode }) {
  const [system, setLocal] = useState<UnitSystem>(storedSystem)
  const value = useMemo<UnitsState>(
    () => ({
      system,
      setSystem: (next: UnitSystem) => {
        setLocal(next)
        storeSystem(next)
      },
    }),
    [system],
  )
  return <UnitsContext.Provider value={value}>{children}</UnitsContext.Provider>
}

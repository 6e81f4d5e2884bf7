import { useCallback, useMemo, useState, type ReactNode } from 'react'
import { UnitsContext, type UnitSystem, type UnitsState } from '../lib/units.ts'
import { usePatchUser, useUserDoc } from '../lib/user.ts'

const STORAGE_KEY = 'veloptima.units'

function storedSystem(): UnitSystem {
  try {
    return localStorage.getItem(STORAGE_KEY) === 'imperial' ? 'imperial' : 'metric'
  } catch {
    return 'metric'
  }
}

/**
 * Quick settings' metric/imperial choice: per user (users.use_imperial_units, saved with
 * PATCH /api/users/:uid), and in this browser for signed-out visitors.
 */
export function UnitsProvider({ children }: { children: ReactNode }) {
  const userDoc = useUserDoc()
  const patchUser = usePatchUser()
  const [local, setLocal] = useState<UnitSystem>(storedSystem)
  const signedInChoice = userDoc.data
    ? userDoc.data.use_imperial_units
      ? 'imperial'
      : 'metric'
    : undefined
  const system = signedInChoice ?? local
  const { mutate } = patchUser
  const hasUser = Boolean(userDoc.data)

  const setSystem = useCallback(
    (next: UnitSystem) => {
      setLocal(next)
      try {
        localStorage.setItem(STORAGE_KEY, next)
      } catch {
        // Private mode: the choice lasts for this page only.
      }
      if (hasUser) mutate({ use_imperial_units: next === 'imperial' })
    },
    [hasUser, mutate],
  )
  const value = useMemo<UnitsState>(() => ({ system, setSystem }), [system, setSystem])
  return <UnitsContext.Provider value={value}>{children}</UnitsContext.Provider>
}

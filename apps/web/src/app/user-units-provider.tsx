import { useCallback, useMemo, useState, type ReactNode } from 'react'
import { UnitsContext, type UnitSystem, type UnitsState } from '../lib/units.ts'
import { usePatchUser, useUserDoc } from '../lib/user.ts'
import { storedSystem, storeSystem } from './units-provider.tsx'

/**
 * Quick settings' metric/imperial choice of a signed-in user: per user (users.use_imperial_units,
 * saved with PATCH /api/users/:uid), this browser's choice until the user's document arrives.
 */
export function UserUnitsProvider({ children }: { children: ReactNode }) {
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
      storeSystem(next)
      if (hasUser) mutate({ use_imperial_units: next === 'imperial' })
    },
    [hasUser, mutate],
  )
  const value = useMemo<UnitsState>(() => ({ system, setSystem }), [system, setSystem])
  return <UnitsContext.Provider value={value}>{children}</UnitsContext.Provider>
}

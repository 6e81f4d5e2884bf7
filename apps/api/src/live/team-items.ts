import type { LiveTeamItems } from '@veloptima/contracts'
import type { TeamCollection } from './repository.ts'

/** The (collection, team) pairs whose signature differs between two readings. */
export function changedTeamItems(
  before: Map<string, string>,
  after: Map<string, string>,
): LiveTeamItems[] {
  const keys = new Set([...before.keys(), ...after.keys()])
  const changed: LiveTeamItems[] = []
  for (const key of keys) {
    if (before.get(key) === after.get(key)) continue
    const [collection, team] = key.split('|') as [TeamCollection, string]
    changed.push({ collection, team_id: team })
  }
  return changed
}

// The list's "Move to…" select follows the API's rule (apps/api services/collections.ts `move`):
// a personal item is moved by its owner, a team's item by the team's owners and admins.
import { describe, expect, it } from 'vitest'
import type { MyTeam } from '@veloptima/contracts'
import { canMove, defaultOwner, moveTargets, sharedWithTeam } from './owner-control.tsx'

const team = (id: string, role: MyTeam['role']) => ({ id, name: `Team ${id}`, role }) as MyTeam
const teams = [team('t1', 'owner'), team('t2', 'member'), team('t3', 'admin')]

describe('owner control', () => {
  it('a personal item: only its owner may move it, to any of their teams', () => {
    const item = { id: 'i', owner: 'max', owner_type: 'user' }
    expect(canMove(item, 'max', teams)).toBe(true)
    expect(canMove(item, 'olga', teams)).toBe(false)
    expect(canMove(item, undefined, teams)).toBe(false)
    expect(moveTargets(item, 'max', teams).map((t) => t.value)).toEqual(['t1', 't2', 't3'])
  })

  it("a team's item: owners and admins move it, to themselves or their other teams", () => {
    const inT1 = { id: 'i', owner: 't1', owner_type: 'team' }
    const inT2 = { id: 'i', owner: 't2', owner_type: 'team' }
    const inT3 = { id: 'i', owner: 't3', owner_type: 'team' }
    expect(canMove(inT1, 'max', teams)).toBe(true)
    expect(canMove(inT2, 'max', teams)).toBe(false)
    expect(canMove(inT3, 'max', teams)).toBe(true)
    expect(canMove({ id: 'i', owner: 'elsewhere', owner_type: 'team' }, 'max', teams)).toBe(false)
    expect(moveTargets(inT1, 'max', teams)).toEqual([
      { value: 'max', label: 'Personal' },
      { value: 't2', label: 'Team t2' },
      { value: 't3', label: 'Team t3' },
    ])
  })

  it('samples are never moved', () => {
    expect(canMove({ id: 'i', owner: null, owner_type: 'sample' }, 'max', teams)).toBe(false)
  })

  it('a new item goes to the team the user works in, while they belong to it', () => {
    // Any member may create in their team (the API's resolveOwner: a member of the team).
    expect(defaultOwner('t2', teams)).toBe('t2')
    expect(defaultOwner('t1', teams)).toBe('t1')
    expect(defaultOwner(null, teams)).toBe('')
    expect(defaultOwner(undefined, teams)).toBe('')
    // A current team the user has left: personal.
    expect(defaultOwner('gone', teams)).toBe('')
  })

  it('a team’s optimization may use the team’s items and samples only (the API’s mustSee rule)', () => {
    expect(sharedWithTeam({ owner: 't1', owner_type: 'team' }, 't1')).toBe(true)
    expect(sharedWithTeam({ owner: null, owner_type: 'sample' }, 't1')).toBe(true)
    expect(sharedWithTeam({ owner: 't3', owner_type: 'team' }, 't1')).toBe(false)
    expect(sharedWithTeam({ owner: 'max', owner_type: 'user' }, 't1')).toBe(false)
    expect(sharedWithTeam(undefined, 't1')).toBe(false)
  })
})

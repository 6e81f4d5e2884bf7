import { describe, expect, it } from 'vitest'
import { assignableRoles, deletionSummary, invitableRoles, removalBlocked } from './team-rules.ts'

// The rules mirror apps/api/src/services/teams.ts (setRole, removeMember, keepAnOwner), whose
// integration tests (apps/api/test/teams.int.test.ts) check the same cases against the API.
describe('team rules as the page offers them', () => {
  it('owners give any role, admins never touch owners, members nothing', () => {
    expect(assignableRoles('owner', 'member')).toEqual(['owner', 'admin', 'member'])
    expect(assignableRoles('admin', 'member')).toEqual(['admin', 'member'])
    expect(assignableRoles('admin', 'owner')).toEqual([])
    expect(assignableRoles('member', 'member')).toEqual([])
    expect(invitableRoles('member')).toEqual([])
    expect(invitableRoles('admin')).not.toContain('owner')
  })

  it('the last owner can neither leave nor be removed; anyone else may leave', () => {
    expect(removalBlocked('owner', 'owner', true, 1)).toMatch(/only owner/)
    expect(removalBlocked('owner', 'owner', true, 2)).toBeUndefined()
    expect(removalBlocked('member', 'member', true, 1)).toBeUndefined()
    expect(removalBlocked('member', 'admin', false, 1)).toMatch(/owners and admins/)
    expect(removalBlocked('admin', 'owner', false, 2)).toMatch(/Only owners/)
    expect(removalBlocked('admin', 'member', false, 1)).toBeUndefined()
  })

  it('the deletion summary names every count it is given, in singular and plural', () => {
    const lines = deletionSummary({
      courses: 1,
      rider_setups: 2,
      optimizations: 0,
      devices: 3,
      aero_sessions: 1,
      files: 4,
      members: 5,
      pending_invitations: 1,
    }).join(' ')
    for (const part of [
      '1 course,',
      '2 rider setups',
      '0 optimizations',
      '3 devices',
      '1 aero session ',
      '4 uploaded files',
      '5 members',
      '1 open invitation ',
    ]) {
      expect(lines).toContain(part)
    }
  })
})

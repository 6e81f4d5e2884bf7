import { describe, expect, it } from 'vitest'
import { homeState, type ReadinessSetup } from './readiness.ts'

const sim = { 'create:simulations': true }
const fullProfile = { rider_height: 1.8, rider_weight: 72 }
/** A setup as the API saves it now: mass, a CdA per position, CP and W′. */
const runnable: ReadinessSetup = {
  id: 'a',
  name: 'Road bike',
  rider_mass: 72,
  positions: [{ cda: 0.33 }, { cda: 0.37 }],
  cp: 260,
  w_prime: 18000,
}
/** A setup stored before CP and W′ were required: a pacing plan refuses it. */
const withoutCp: ReadinessSetup = {
  ...runnable,
  id: 'b',
  name: 'My road bike',
  cp: null,
  w_prime: null,
}

describe('home state (docs/specification.md §2 Home states, §4 Home readiness)', () => {
  it('signed out: the landing hero', () => {
    expect(
      homeState({ signedIn: false, claims: sim, profile: undefined, setups: undefined }),
    ).toEqual({ kind: 'signed-out' })
  })
  it('signed in without create:simulations: the Subscribe step', () => {
    expect(
      homeState({ signedIn: true, claims: {}, profile: fullProfile, setups: [runnable] }),
    ).toEqual({ kind: 'subscribe' })
  })
  it('with the claim, no profile and no setup: three steps, only Subscription complete', () => {
    const s = homeState({ signedIn: true, claims: sim, profile: null, setups: [] })
    expect(s).toEqual({
      kind: 'get-ready',
      steps: [
        { key: 'subscription', title: 'Subscription', complete: true },
        { key: 'profile', title: 'Rider profile', complete: false },
        { key: 'setup', title: 'Rider setup', complete: false },
      ],
    })
  })
  it('a profile needs both rider_height and rider_weight', () => {
    const s = homeState({
      signedIn: true,
      claims: sim,
      profile: { rider_height: 1.8, rider_weight: null },
      setups: [runnable],
    })
    expect(s.kind === 'get-ready' && s.steps.find((x) => x.key === 'profile')?.complete).toBe(false)
  })
  it('hides the rider profile step with use:multipleRiderProfiles', () => {
    const s = homeState({
      signedIn: true,
      claims: { ...sim, 'use:multipleRiderProfiles': true },
      profile: undefined,
      setups: [],
    })
    expect(s.kind === 'get-ready' && s.steps.map((x) => x.key)).toEqual(['subscription', 'setup'])
  })
  it('ready with the claim, a complete profile and a setup a pacing plan runs with', () => {
    expect(
      homeState({ signedIn: true, claims: sim, profile: fullProfile, setups: [runnable] }),
    ).toEqual({ kind: 'ready' })
  })
  it('not ready with only a setup without CP and W′: the step names it and what it lacks', () => {
    const s = homeState({ signedIn: true, claims: sim, profile: fullProfile, setups: [withoutCp] })
    expect(s.kind).toBe('get-ready')
    const step = s.kind === 'get-ready' ? s.steps.find((x) => x.key === 'setup') : undefined
    expect(step).toEqual({
      key: 'setup',
      title: 'Rider setup',
      complete: false,
      unfinished: {
        id: 'b',
        name: 'My road bike',
        gaps: [
          { field: 'cp', label: 'CP' },
          { field: 'w_prime', label: 'W′' },
        ],
      },
    })
  })
  it('a setup without a CdA for one position is not ready either', () => {
    const noCda = { ...runnable, positions: [{ cda: 0.33 }, { cda: null }] }
    expect(
      homeState({ signedIn: true, claims: sim, profile: fullProfile, setups: [noCda] }).kind,
    ).toBe('get-ready')
  })
  it('ready when any one of several setups is complete', () => {
    expect(
      homeState({
        signedIn: true,
        claims: sim,
        profile: fullProfile,
        setups: [withoutCp, runnable],
      }),
    ).toEqual({ kind: 'ready' })
  })
  it('ready without a profile when multiple rider profiles are allowed', () => {
    const claims = { ...sim, 'use:multipleRiderProfiles': true }
    expect(homeState({ signedIn: true, claims, profile: null, setups: [runnable] })).toEqual({
      kind: 'ready',
    })
  })
  it('waits (loading) until the setups query has answered', () => {
    expect(homeState({ signedIn: true, claims: sim, profile: null, setups: undefined })).toEqual({
      kind: 'loading',
    })
  })
})

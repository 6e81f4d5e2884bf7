import { pacingGaps, type PacingGap } from '@veloptima/contracts'

/** A rider setup as the checklist reads it (the API's list items carry these fields). */
export type ReadinessSetup = {
  id: string
  name: string
  rider_mass: number | null
  positions: readonly { cda: number | null }[]
  cp: number | null
  w_prime: number | null
}

/** Inputs of the home state (docs/specification.md §2 "Home states", §4 "Home readiness"). */
export type ReadinessInput = {
  signedIn: boolean
  claims: Record<string, boolean>
  /** The rider profile: undefined while loading, null when there is none. */
  profile: { rider_height: number | null; rider_weight: number | null } | null | undefined
  /** The caller's rider setups, newest first; undefined while loading. */
  setups: readonly ReadinessSetup[] | undefined
}

export type ChecklistStep = {
  key: 'subscription' | 'profile' | 'setup'
  title: string
  complete: boolean
  /** An incomplete setup step with setups: the newest one and what a pacing plan still needs. */
  unfinished?: { id: string; name: string; gaps: PacingGap[] }
}

export type HomeState =
  | { kind: 'signed-out' }
  | { kind: 'subscribe' }
  | { kind: 'loading' }
  | { kind: 'get-ready'; steps: ChecklistStep[] }
  | { kind: 'ready' }

export function profileComplete(profile: ReadinessInput['profile']): boolean {
  return Boolean(profile && profile.rider_height != null && profile.rider_weight != null)
}

/**
 * The rider-setup step: complete when a setup has everything a pacing optimization needs
 * (`pacingGaps` of packages/contracts, the rule the API saves setups by), so that the first
 * optimization after "You are ready to go" runs.
 */
function setupStep(setups: readonly ReadinessSetup[]): ChecklistStep {
  const step: ChecklistStep = { key: 'setup', title: 'Rider setup', complete: false }
  if (setups.some((s) => pacingGaps(s).length === 0)) return { ...step, complete: true }
  const newest = setups[0]
  return newest
    ? { ...step, unfinished: { id: newest.id, name: newest.name, gaps: pacingGaps(newest) } }
    : step
}

/** Which home screen to show, and the checklist with each step's completion. */
export function homeState(input: ReadinessInput): HomeState {
  if (!input.signedIn) return { kind: 'signed-out' }
  if (!input.claims['create:simulations']) return { kind: 'subscribe' }
  const multipleProfiles = input.claims['use:multipleRiderProfiles'] === true
  if (input.setups === undefined || (!multipleProfiles && input.profile === undefined)) {
    return { kind: 'loading' }
  }
  const steps: ChecklistStep[] = [{ key: 'subscription', title: 'Subscription', complete: true }]
  if (!multipleProfiles) {
    steps.push({ key: 'profile', title: 'Rider profile', complete: profileComplete(input.profile) })
  }
  steps.push(setupStep(input.setups))
  return steps.every((s) => s.complete) ? { kind: 'ready' } : { kind: 'get-ready', steps }
}

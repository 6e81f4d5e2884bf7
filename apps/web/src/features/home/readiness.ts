/** Inputs of the home state (docs/specification.md §2 "Home states", §4 "Home readiness"). */
export type ReadinessInput = {
  signedIn: boolean
  claims: Record<string, boolean>
  /** The rider profile: undefined while loading, null when there is none. */
  profile: { rider_height: number | null; rider_weight: number | null } | null | undefined
  /** Whether at least one rider setup exists; undefined while loading. */
  hasRiderSetup: boolean | undefined
}

export type ChecklistStep = {
  key: 'subscription' | 'profile' | 'setup'
  title: string
  complete: boolean
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

/** Which home screen to show, and the checklist with each step's completion. */
export function homeState(input: ReadinessInput): HomeState {
  if (!input.signedIn) return { kind: 'signed-out' }
  if (!input.claims['create:simulations']) return { kind: 'subscribe' }
  const multipleProfiles = input.claims['use:multipleRiderProfiles'] === true
  if (input.hasRiderSetup === undefined || (!multipleProfiles && input.profile === undefined)) {
    return { kind: 'loading' }
  }
  const steps: ChecklistStep[] = [{ key: 'subscription', title: 'Subscription', complete: true }]
  if (!multipleProfiles) {
    steps.push({ key: 'profile', title: 'Rider profile', complete: profileComplete(input.profile) })
  }
  steps.push({ key: 'setup', title: 'Rider setup', complete: input.hasRiderSetup })
  return steps.every((s) => s.complete) ? { kind: 'ready' } : { kind: 'get-ready', steps }
}

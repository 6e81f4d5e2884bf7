import { Suspense, type ReactNode } from 'react'
import { PageSpinner } from '../../components/spinner.tsx'
import { useAuth } from '../../lib/auth.ts'
import { LandingHero } from './components/landing-hero.tsx'

/**
 * The home page: its content depends on the session and readiness (docs/specification.md §2). A signed-in
 * visitor's home (subscribe, checklist, ready: signed-in-home.tsx) queries the user's data with
 * TanStack Query, so src/app passes it in as a lazy element that loads with the data layer, apart
 * from the landing page.
 */
export function HomePage({ signedIn }: { signedIn: ReactNode }) {
  const auth = useAuth()
  if (auth.isLoading || (auth.loggingIn && !auth.user))
    return <PageSpinner label="Checking your session" />
  if (!auth.user) return <LandingHero />
  return <Suspense fallback={<PageSpinner label="Loading your workspace" />}>{signedIn}</Suspense>
}

import { lazy, Suspense, useState } from 'react'
import { ChatIcon } from '../../components/icons.tsx'
import { hasClaims, useAuth } from '../../lib/auth.ts'
import { usePublicConfig } from '../../lib/public-config.ts'

// The popup (Headless UI) loads on first use.
const FeedbackDialog = lazy(() =>
  import('./feedback-dialog.tsx').then((m) => ({ default: m.FeedbackDialog })),
)

/** The survey address with the user's e-mail and uid (docs/specification.md §6). */
export function surveyUrl(
  base: string,
  email: string,
  uid: string,
  origin = window.location.origin,
): string {
  const url = new URL(base, origin)
  url.searchParams.set('email', email)
  url.searchParams.set('uid', uid)
  return url.toString()
}

/**
 * The Feedback link (claim access:betaFeedback): a 400 px popup with the configured survey, or,
 * without one, the built-in form that stores the answer (POST /api/feedback).
 */
export function FeedbackLink({ className }: { className: string }) {
  const auth = useAuth()
  const config = usePublicConfig()
  const [open, setOpen] = useState(false)
  if (!auth.user || !hasClaims(auth, 'access:betaFeedback')) return null
  const survey = config.data?.feedback_survey_url
  return (
    <>
      <button type="button" className={className} onClick={() => setOpen(true)}>
        <ChatIcon className="h-5 w-5 shrink-0" />
        <span>Feedback</span>
      </button>
      {open && (
        <Suspense fallback={null}>
          <FeedbackDialog
            onClose={() => setOpen(false)}
            surveySrc={survey ? surveyUrl(survey, auth.user.email, auth.user.uid) : undefined}
          />
        </Suspense>
      )}
    </>
  )
}

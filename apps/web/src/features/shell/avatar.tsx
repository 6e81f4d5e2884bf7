import { DUMMY_PROFILE_IMAGE } from '../../components/profile-image.ts'
import type { LoggedInUser } from '../../lib/auth.ts'

/** The user's photo, or the default image when there is none or it fails to load. */
export function Avatar({
  user,
  className = 'h-8 w-8',
}: {
  user: LoggedInUser
  className?: string
}) {
  return (
    <img
      src={user.photoUrl || DUMMY_PROFILE_IMAGE}
      alt=""
      referrerPolicy="no-referrer"
      className={`${className} rounded-full bg-slate-100 object-cover ring-1 ring-slate-200`}
      onError={(e) => {
        // A broken provider photo falls back to the default image once.
        const img = e.currentTarget
        if (!img.src.endsWith('dummyProfileImage.png')) img.src = DUMMY_PROFILE_IMAGE
      }}
    />
  )
}

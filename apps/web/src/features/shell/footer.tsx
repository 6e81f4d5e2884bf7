import { Link } from 'react-router'
import { Logo } from '../../components/logo.tsx'
import { usePublicConfig } from '../../lib/public-config.ts'
import { FeedbackLink } from './feedback.tsx'
import { SupportLink } from './support-link.tsx'

const linkClass = 'inline-flex items-center gap-1.5 text-sm text-slate-600 hover:text-slate-900'

/** The footer: logo and tagline, Terms of Service and Privacy Policy (new tab), help links. */
export function Footer() {
  const config = usePublicConfig()
  return (
    <footer className="border-t border-slate-200 bg-white">
      <div className="mx-auto flex max-w-screen-2xl flex-col gap-6 px-6 py-8 md:flex-row md:items-center md:justify-between">
        <div className="flex items-center gap-4">
          <Link to="/" aria-label="Veloptima home">
            <Logo withText={false} />
          </Link>
          <p className="text-sm font-medium text-slate-700">Performance. Perfected.</p>
        </div>
        <nav aria-label="Footer" className="flex flex-wrap items-center gap-x-6 gap-y-3">
          <SupportLink className={linkClass} />
          <FeedbackLink className={linkClass} />
          {config.data?.terms_url && (
            <a href={config.data.terms_url} target="_blank" rel="noreferrer" className={linkClass}>
              Terms of Service
            </a>
          )}
          {config.data?.privacy_url && (
            <a
              href={config.data.privacy_url}
              target="_blank"
              rel="noreferrer"
              className={linkClass}
            >
              Privacy Policy
            </a>
          )}
          <span className="text-sm text-slate-500">© {new Date().getFullYear()} Veloptima</span>
        </nav>
      </div>
    </footer>
  )
}

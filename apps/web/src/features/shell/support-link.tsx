import { LifebuoyIcon } from '../../components/icons.tsx'
import { usePublicConfig } from '../../lib/public-config.ts'

/** The Support link to the configured external help site. */
export function SupportLink({ className }: { className: string }) {
  const config = usePublicConfig()
  const url = config.data?.support_url
  if (!url) return null
  return (
    <a href={url} target="_blank" rel="noreferrer" className={className}>
      <LifebuoyIcon className="h-5 w-5 shrink-0" />
      <span>Support</span>
      <span className="sr-only">(opens in a new tab)</span>
    </a>
  )
}

// Small outline icons (24×24, currentColor), decorative: the text next to them names the thing.
import { createElement, type ReactElement, type ReactNode } from 'react'

function Icon({ children, className = 'h-5 w-5' }: { children?: ReactNode; className?: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.75"
      strokeLinecap="round"
      strokeLinejoin="round"
      className={className}
      aria-hidden="true"
    >
      {children}
    </svg>
  )
}

type P = { className?: string }
// One named icon: the Icon frame around its shapes.
const icon =
  (...shapes: ReactElement[]) =>
  (p: P) =>
    createElement(Icon, p, ...shapes)

export const HomeIcon = icon(<path d="M3 10.5 12 3l9 7.5" />, <path d="M5 9.5V21h14V9.5" />)
export const ChevronRight = icon(<path d="m9 6 6 6-6 6" />)
export const ChevronLeft = icon(<path d="m15 6-6 6 6 6" />)
export const MenuIcon = icon(<path d="M4 6h16M4 12h16M4 18h16" />)
export const CloseIcon = icon(<path d="M6 6l12 12M18 6 6 18" />)
export const CheckIcon = icon(<path d="m5 12.5 4.5 4.5L19 7" />)
export const ChartIcon = icon(<path d="M4 20V4M4 20h16" />, <path d="m7 15 4-4 3 3 5-6" />)
export const GearIcon = icon(
  <circle cx="12" cy="12" r="3" />,
  <path d="M12 2v3M12 19v3M2 12h3M19 12h3M4.9 4.9l2.1 2.1M17 17l2.1 2.1M4.9 19.1 7 17M17 7l2.1-2.1" />,
)
export const MapIcon = icon(
  <path d="M9 4 3 6v14l6-2 6 2 6-2V4l-6 2-6-2z" />,
  <path d="M9 4v14M15 6v14" />,
)
export const UserIcon = icon(
  <circle cx="12" cy="8" r="4" />,
  <path d="M4 21c1.5-4 4.5-6 8-6s6.5 2 8 6" />,
)
export const WrenchIcon = icon(
  <circle cx="12" cy="13" r="8" />,
  <path d="m12 13 3.5-3.5M8 5.5 7 4M16 5.5 17 4M12 5V3" />,
)
export const WindIcon = icon(<path d="M3 8h11a3 3 0 1 0-3-3M3 12h16a3 3 0 1 1-3 3M3 16h7" />)
export const DeviceIcon = icon(
  <rect x="6" y="3" width="12" height="18" rx="2" />,
  <path d="M11 18h2" />,
)
export const LockIcon = icon(
  <rect x="5" y="11" width="14" height="10" rx="2" />,
  <path d="M8 11V7a4 4 0 0 1 8 0v4" />,
)
export const ChatIcon = icon(<path d="M4 5h16v11H8l-4 4z" />)
export const LifebuoyIcon = icon(
  <circle cx="12" cy="12" r="9" />,
  <circle cx="12" cy="12" r="4" />,
  <path d="m5.6 5.6 3.6 3.6M14.8 14.8l3.6 3.6M18.4 5.6l-3.6 3.6M9.2 14.8l-3.6 3.6" />,
)
export const DownloadIcon = icon(<path d="M12 4v11M7 10l5 5 5-5M5 20h14" />)

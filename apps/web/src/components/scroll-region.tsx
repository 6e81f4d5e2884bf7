import type { ReactNode } from 'react'

/**
 * Content wider than the screen in a box of its own that scrolls sideways: a named region that
 * takes the keyboard focus, so that the arrow keys scroll it (axe's scrollable-region-focusable,
 * docs/web-app.md "Accessibility"). The one way to make such a box.
 */
export function ScrollRegion({
  label,
  className,
  children,
}: {
  /** What the region holds, for screen readers ("Runs (scrolls sideways)"). */
  label: string
  className: string
  children: ReactNode
}) {
  return (
    // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scroll region takes the focus so that a keyboard scrolls it
    <div className={className} tabIndex={0} role="region" aria-label={label}>
      {children}
    </div>
  )
}

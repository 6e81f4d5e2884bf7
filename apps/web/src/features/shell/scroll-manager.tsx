import { useEffect } from 'react'
import { useLocation } from 'react-router'

/** Offset of the sticky top bar when scrolling to a hash element (docs/specification.md §9). */
export const SCROLL_OFFSET = 70

/** Where to scroll: 70 px above the hash element, or the top when there is none. */
export function scrollTarget(hash: string, doc: Document, scrollY: number): number {
  if (hash.length > 1) {
    const el = doc.getElementById(decodeURIComponent(hash.slice(1)))
    if (el) return Math.max(0, el.getBoundingClientRect().top + scrollY - SCROLL_OFFSET)
  }
  return 0
}

/** Scrolls on navigation: to the hash element with a 70 px offset, otherwise to the top. */
export function ScrollManager() {
  const { pathname, hash } = useLocation()
  useEffect(() => {
    // The element may come with a lazy route: try again briefly until it is there.
    let tries = 0
    let timer: ReturnType<typeof setTimeout> | undefined
    const run = () => {
      const id = hash.length > 1 ? decodeURIComponent(hash.slice(1)) : ''
      if (id && !document.getElementById(id) && tries++ < 20) {
        timer = setTimeout(run, 50)
        return
      }
      window.scrollTo({ top: scrollTarget(hash, document, window.scrollY) })
    }
    run()
    return () => clearTimeout(timer)
  }, [pathname, hash])
  return null
}

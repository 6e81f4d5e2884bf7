// Lighthouse-style checks run in the page: images without alt text, controls without an
// accessible name (aria-label, aria-labelledby, label, text content, title or an img alt).
import { expect, type Page } from '@playwright/test'

export async function a11yProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = []
    const visible = (el: Element) => {
      const r = (el as HTMLElement).getBoundingClientRect()
      const style = getComputedStyle(el)
      return (r.width > 0 || r.height > 0) && style.visibility !== 'hidden'
    }
    const describe = (el: Element) => el.outerHTML.slice(0, 120)
    for (const img of Array.from(document.querySelectorAll('img'))) {
      if (!img.hasAttribute('alt')) problems.push(`img without alt: ${describe(img)}`)
    }
    const nameOf = (el: Element): string => {
      const label = el.getAttribute('aria-label')
      if (label?.trim()) return label
      const by = el.getAttribute('aria-labelledby')
      if (by) {
        const text = by
          .split(' ')
          .map((id) => document.getElementById(id)?.textContent ?? '')
          .join(' ')
        if (text.trim()) return text
      }
      if ('labels' in el) {
        const labels = (el as HTMLInputElement).labels
        const text = Array.from(labels ?? [])
          .map((l) => l.textContent ?? '')
          .join(' ')
        if (text.trim()) return text
      }
      const tag = el.tagName.toLowerCase()
      if (tag === 'a' || tag === 'button' || el.getAttribute('role') === 'button') {
        const text = (el as HTMLElement).innerText || el.textContent || ''
        if (text.trim()) return text
        const alt = Array.from(el.querySelectorAll('img[alt]'))
          .map((i) => i.getAttribute('alt'))
          .join(' ')
        if (alt.trim()) return alt
      }
      return el.getAttribute('title') ?? ''
    }
    const controls = document.querySelectorAll(
      'a[href], button, input:not([type=hidden]), select, textarea, [role=button], [role=menuitem], [role=switch]',
    )
    for (const el of Array.from(controls)) {
      const hiddenInput =
        el.tagName === 'INPUT' && (el as HTMLElement).className.includes('sr-only')
      if (!visible(el) && !hiddenInput) continue
      // Not in the accessibility tree (e.g. a dialog's focus guards).
      if (el.closest('[aria-hidden="true"]')) continue
      if (!nameOf(el).trim()) problems.push(`control without a name: ${describe(el)}`)
    }
    return problems
  })
}

export async function expectAccessible(page: Page) {
  expect(await a11yProblems(page)).toEqual([])
}

/** Collects console errors and page errors (Lighthouse "no browser errors logged"). */
export function watchErrors(page: Page): string[] {
  const errors: string[] = []
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
  page.on('pageerror', (e) => errors.push(String(e)))
  return errors
}

/** The session token the app sends with its API calls (to call the API as the user). */
export function captureToken(page: Page): () => string {
  let token: string | undefined
  page.on('request', (r) => {
    const h = r.headers().authorization
    if (r.url().includes('/api/') && h?.startsWith('Bearer ')) token = h.slice(7)
  })
  return () => {
    if (!token) throw new Error('The app has not called the API with a session token yet.')
    return token
  }
}

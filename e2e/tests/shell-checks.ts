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

/**
 * Text contrast of controls (buttons and links) against their background: at least 4.5:1
 * (WCAG AA; 3:1 for large text). Colours are resolved through a canvas, so any CSS colour
 * syntax (Tailwind 4 uses oklch) works; transparent backgrounds are looked up the tree.
 */
export async function contrastProblems(page: Page, scope = 'body'): Promise<string[]> {
  return page.evaluate((scope) => {
    const canvas = document.createElement('canvas')
    canvas.width = canvas.height = 1
    const ctx = canvas.getContext('2d', { willReadFrequently: true })!
    const rgba = (color: string): [number, number, number, number] => {
      ctx.clearRect(0, 0, 1, 1)
      ctx.fillStyle = '#000'
      ctx.fillStyle = color
      ctx.fillRect(0, 0, 1, 1)
      const [r, g, b, a] = ctx.getImageData(0, 0, 1, 1).data
      return [r!, g!, b!, a! / 255]
    }
    const background = (el: Element | null): [number, number, number] => {
      for (let e = el; e; e = e.parentElement) {
        const [r, g, b, a] = rgba(getComputedStyle(e).backgroundColor)
        if (a > 0.5) return [r, g, b]
      }
      return [255, 255, 255]
    }
    const luminance = ([r, g, b]: number[]) => {
      const c = [r!, g!, b!].map((v) => {
        const x = v / 255
        return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4
      })
      return 0.2126 * c[0]! + 0.7152 * c[1]! + 0.0722 * c[2]!
    }
    const problems: string[] = []
    const roots = Array.from(document.querySelectorAll(scope))
    const controls = roots.flatMap((root) => Array.from(root.querySelectorAll('a[href], button')))
    for (const el of controls) {
      const html = el as HTMLElement
      const text = html.innerText?.trim()
      if (!text || html.closest('[aria-hidden="true"]') || (el as HTMLButtonElement).disabled)
        continue
      const r = html.getBoundingClientRect()
      if (r.width === 0 || r.height === 0) continue
      const style = getComputedStyle(html)
      const [fr, fg, fb] = rgba(style.color)
      const l1 = luminance([fr, fg, fb])
      const l2 = luminance(background(html))
      const ratio = (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05)
      const size = parseFloat(style.fontSize)
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700)
      if (ratio < (large ? 3 : 4.5)) {
        problems.push(`contrast ${ratio.toFixed(2)}:1 for "${text.slice(0, 40)}"`)
      }
    }
    return problems
  }, scope)
}

/** `contrastScope`: the parts whose contrast to check (default: the whole page). */
export async function expectAccessible(page: Page, contrastScope = 'body') {
  expect(await a11yProblems(page)).toEqual([])
  expect(await contrastProblems(page, contrastScope)).toEqual([])
}

/** The shell's own parts of a page whose content belongs to another area. */
export const SHELL_PARTS = 'header, footer, [data-testid=side-bar], nav[aria-label=Breadcrumb]'

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

/** The landing page's headline and tagline, as the specification words them, are shown. */
export async function expectLandingCopy(page: Page): Promise<void> {
  await expect(
    page.getByRole('heading', { name: 'Use your energy more wisely and become faster.' }),
  ).toBeVisible()
  await expect(
    page.getByText(
      'Optimize your pacing strategy and equipment choice to enhance your performance on the bike.',
    ),
  ).toBeVisible()
}

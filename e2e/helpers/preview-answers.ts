// Every answer the optimization page's instant preview shows, as the page showed it. The first
// answer stays on screen only until the refined plan replaces it (about a second on a real
// climb, less on a fast machine, more under load), shorter than Playwright's polling interval
// can be relied on to catch. So the page records each state of the preview the moment React
// commits it (a MutationObserver's callback runs before the next task, so no commit is missed),
// and the test reads that record.
import { expect, type Page } from '@playwright/test'

/** The preview as shown at one moment. */
export type PreviewShown = {
  /** the preview's `data-stage`: first, refined or costs */
  stage: string | null
  status: string
  /** the first answer's steady power and per-segment optimum's time (first stage only) */
  steady: string | null
  bound: string | null
  /** how many predicted times (the refined plan's) are shown */
  predicted: number
}

type Recorded = { __previewShown?: PreviewShown[] }

/** Records the preview's states on every page loaded from now on. */
export async function recordPreview(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as Recorded
    const shown: PreviewShown[] = []
    w.__previewShown = shown
    let last = ''
    const read = () => {
      const preview = document.querySelector('[data-testid="preview"]')
      if (!preview) return
      const text = (id: string) =>
        preview.querySelector(`[data-testid="${id}"]`)?.textContent?.trim() ?? null
      const now: PreviewShown = {
        stage: preview.getAttribute('data-stage'),
        status: text('preview-status') ?? '',
        steady: text('first-steady'),
        bound: text('first-bound-time'),
        predicted: preview.querySelectorAll('[data-testid="predicted-time"]').length,
      }
      const key = JSON.stringify(now)
      if (key === last) return
      last = key
      shown.push(now)
    }
    new MutationObserver(read).observe(document, {
      subtree: true,
      childList: true,
      attributes: true,
      characterData: true,
    })
  })
}

/** How many states have been recorded on the current page so far. */
export async function previewMark(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as Recorded).__previewShown?.length ?? 0)
}

/**
 * The first answer to the latest input as it was shown after `mark`, waiting for it: its status
 * says so (its input is the latest one). Fails when the refined plan came without one.
 */
export async function firstAnswerShown(
  page: Page,
  mark: number,
  timeout = 60_000,
): Promise<PreviewShown> {
  let found: PreviewShown | undefined
  await expect
    .poll(
      async () => {
        const shown = await page.evaluate(
          (from) => (window as unknown as Recorded).__previewShown?.slice(from) ?? [],
          mark,
        )
        found = shown.find((s) => s.stage === 'first' && s.status.startsWith('First answer'))
        return found !== undefined
      },
      { timeout, message: 'the preview shows a first answer to the latest input' },
    )
    .toBe(true)
  return found!
}

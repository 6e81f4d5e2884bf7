import { describe, expect, it } from 'vitest'
import { SCROLL_OFFSET, scrollTarget } from './scroll-manager.tsx'

/** A document with one element `id` whose top is `top` px below the viewport's top. */
const doc = (id: string, top: number) =>
  ({
    getElementById: (wanted: string) =>
      wanted === id ? { getBoundingClientRect: () => ({ top }) } : null,
  }) as unknown as Document

describe('scrolling on navigation (docs/specification.md §2, §9: 70 px offset)', () => {
  it('uses a 70 px offset', () => expect(SCROLL_OFFSET).toBe(70))

  it('puts the hash element 70 px below the top, from wherever the page is scrolled', () => {
    expect(scrollTarget('#runs', doc('runs', 900), 0)).toBe(830)
    expect(scrollTarget('#runs', doc('runs', 300), 1000)).toBe(1230)
  })

  it('decodes the hash', () => {
    expect(scrollTarget('#cdam%20data', doc('cdam data', 400), 0)).toBe(330)
  })

  it('goes to the top without a hash, with an unknown hash, and never above 0', () => {
    expect(scrollTarget('', doc('runs', 900), 500)).toBe(0)
    expect(scrollTarget('#', doc('runs', 900), 500)).toBe(0)
    expect(scrollTarget('#nothing', doc('runs', 900), 500)).toBe(0)
    expect(scrollTarget('#runs', doc('runs', 20), 0)).toBe(0)
  })
})

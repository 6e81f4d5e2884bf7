import { expect, test, type Page } from '@playwright/test'
import { DEMO, screenshotPath, signIn } from '../helpers/auth.ts'
import { needsCourses, uploadCourse } from '../helpers/courses.ts'
import { pageErrors } from '../helpers/page-errors.ts'

// Course sections: automatic Medium on a real course, a split at a distance,
// a split in half, a merge, a moved end, the warning before an automatic level replaces manual edits, save,
// and the sections kept across a reload.

// The real-world files this journey uploads (scripts/test-data.ts): without them it skips,
// naming them.
needsCourses('tt-beton-classic.gpx')

/** The table's rows as [start, end] texts. */
async function bounds(page: Page) {
  const rows = page.getByRole('table', { name: 'Sections' }).locator('tbody tr')
  const out: string[][] = []
  for (const row of await rows.all()) {
    const cells = row.locator('td')
    out.push([await cells.nth(1).innerText(), await cells.nth(2).innerText()])
  }
  return out
}

test('sections: medium, split, merge, warning, save and reload', async ({ page }) => {
  test.setTimeout(120_000)
  const errors = pageErrors(page)
  await signIn(page, DEMO.rider)
  await uploadCourse(page, 'tt-beton-classic.gpx')

  const summary = page.getByTestId('sections-summary')
  const rows = page.getByRole('table', { name: 'Sections' }).locator('tbody tr')
  await page.getByRole('button', { name: 'Medium', exact: true }).click()
  await expect(summary).toContainText('automatic, medium · not stored')
  const medium = await rows.count()
  expect(medium).toBeGreaterThan(1)
  // the sections cover the course: the first starts at 0, the last ends at its length (16.0 km)
  const first = await bounds(page)
  expect(first[0]![0]).toBe('0.00')
  expect(first.at(-1)![1]).toBe('16.00')
  await expect(page.getByTestId('elevation-mark')).toHaveCount(medium - 1)
  await expect(page.getByRole('img', { name: /^Section boundaries on the profile/ })).toBeVisible()

  // split at 1.25 km (inside the first section), then the last section in half
  await page.getByLabel('Split at').fill('1.25')
  await page.getByRole('button', { name: 'Split here' }).click()
  await expect(rows).toHaveCount(medium + 1)
  expect((await bounds(page))[0]).toEqual(['0.00', '1.25'])
  await page.getByRole('button', { name: `Split section ${medium + 1} in half` }).click()
  await expect(rows).toHaveCount(medium + 2)
  await expect(summary).toContainText('edited by hand')
  // a split outside the course is refused with the value named
  await page.getByLabel('Split at').fill('99')
  await page.getByRole('button', { name: 'Split here' }).click()
  await expect(page.getByRole('alert')).toContainText('99000 m is not strictly inside a section')
  await expect(rows).toHaveCount(medium + 2)

  // merge the first section with the next: back to the automatic first boundary
  await page.getByRole('button', { name: 'Merge section 1 with the next' }).click()
  await expect(rows).toHaveCount(medium + 1)
  expect((await bounds(page))[0]).toEqual(first[0])

  // move the end of section 1 to 13 km: the next section starts there
  await page.getByLabel('Section number').fill('1')
  await page.getByLabel('New end').fill('13')
  await page.getByRole('button', { name: 'Move end' }).click()
  const edited = await bounds(page)
  expect(edited[0]).toEqual(['0.00', '13.00'])
  expect(edited[1]![0]).toBe('13.00')

  // Coarse over manual edits asks first; declining keeps them
  let asked = ''
  page.once('dialog', (d) => {
    asked = d.message()
    void d.dismiss()
  })
  await page.getByRole('button', { name: 'Coarse', exact: true }).click()
  await expect.poll(() => asked).toBe('This replaces your manual sections.')
  await expect(rows).toHaveCount(medium + 1)

  await page.getByRole('button', { name: 'Store sections' }).click()
  await expect(page.getByRole('status')).toContainText(`Stored ${medium + 1} sections.`)
  await page.reload()
  await expect(summary).toContainText(`${medium + 1} sections · edited by hand · stored`)
  expect(await bounds(page)).toEqual(edited)
  await page.getByRole('heading', { name: 'Sections' }).scrollIntoViewIfNeeded()
  await page.screenshot({ path: screenshotPath('simulation-sections'), fullPage: true })
  expect(errors).toEqual([])
})

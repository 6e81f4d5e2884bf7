import { expect, test } from '@playwright/test'
import { DEMO, DEMO_PASSWORD, screenshotPath, signIn, submitCredentials } from '../helpers/auth.ts'

// Teams: a coach builds a team in the app and a rider joins it through an invitation
// link (no SMTP_URL in the e2e server, so the link is shown to the coach to copy); a course the
// rider gives the team appears in the coach's open list through the live stream.

const COURSE = 'Col du Team'
/** A small GPX climb (made here: 40 points, 4 m up every ~100 m). */
const gpx = (name: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><gpx version="1.1" creator="e2e" xmlns="http://www.topografix.com/GPX/1/1"><trk><name>${name}</name><trkseg>${Array.from(
    { length: 40 },
    (_, i) =>
      `<trkpt lat="${(45 + i * 0.0009).toFixed(6)}" lon="6.000000"><ele>${700 + i * 4}</ele></trkpt>`,
  ).join('')}</trkseg></trk></gpx>`

test('a coach creates a team, invites the rider, the rider accepts, the coach changes his role and removes him', async ({
  browser,
}) => {
  // Two users in turn through a team's whole life: more steps than the default minute holds.
  test.setTimeout(150_000)
  const coachContext = await browser.newContext()
  await coachContext.grantPermissions(['clipboard-read', 'clipboard-write'])
  const coach = await coachContext.newPage()
  await signIn(coach, DEMO.coach)

  // The account page creates the team; it becomes the team the coach works in.
  await coach.goto('/account')
  await coach.getByLabel('New team').fill('Alpine Racing')
  await coach.getByRole('button', { name: 'Create team' }).click()
  await expect(coach.getByRole('list', { name: 'Your teams' })).toContainText('Alpine Racing')
  await expect(coach.getByLabel('Work in')).toHaveValue(/[0-9a-f-]{36}/)
  await coach.screenshot({ path: screenshotPath('teams-account'), fullPage: true })

  // The members page invites by e-mail and shows the link to copy.
  await coach.getByRole('link', { name: 'Members of Alpine Racing' }).click()
  await expect(coach.getByRole('heading', { name: 'Alpine Racing' })).toBeVisible()
  await coach.getByLabel('E-mail address').fill(DEMO.rider)
  await coach.getByRole('button', { name: 'Send invitation' }).click()
  await expect(coach.getByText('nothing was sent')).toBeVisible()
  await coach.getByRole('button', { name: 'Copy link' }).click()
  await expect(coach.getByRole('button', { name: 'Copied' })).toBeVisible()
  const link = await coach.evaluate(() => navigator.clipboard.readText())
  expect(link).toMatch(/\/account\/invitations\/[\w-]{43}$/)
  await expect(coach.getByLabel('Invitation link')).toHaveValue(link)
  await expect(coach.getByRole('list', { name: 'Open invitations' })).toContainText(DEMO.rider)
  await coach.screenshot({ path: screenshotPath('teams-invited'), fullPage: true })

  // The rider opens the link signed out, signs in from there, comes back to it and accepts.
  const riderContext = await browser.newContext()
  const rider = await riderContext.newPage()
  await rider.goto(new URL(link).pathname)
  await expect(
    rider.getByRole('heading', { name: 'You are invited to a team on Veloptima' }),
  ).toBeVisible()
  await rider.screenshot({ path: screenshotPath('teams-invitation-signed-out'), fullPage: true })
  await rider.getByRole('button', { name: 'Sign in to accept' }).click()
  await rider.waitForURL(/\/interaction\//)
  await submitCredentials(rider, DEMO.rider, DEMO_PASSWORD)
  await rider.waitForSelector('html[data-auth="signed-in"]')
  expect(new URL(rider.url()).pathname).toBe(new URL(link).pathname)
  await expect(rider.getByRole('heading', { name: 'Join Alpine Racing' })).toBeVisible()
  await expect(rider.getByTestId('invitation')).toContainText(`The invitation is for ${DEMO.rider}`)
  await rider.screenshot({ path: screenshotPath('teams-invitation'), fullPage: true })
  await rider.getByRole('button', { name: 'Accept and join' }).click()
  await expect(rider.getByRole('heading', { name: 'Welcome to Alpine Racing' })).toBeVisible()
  // The team is now in the rider's user menu, as the team he works in.
  await rider
    .getByRole('button', { name: /user menu/i })
    .first()
    .click()
  await expect(rider.getByRole('menuitem', { name: 'Alpine Racing' })).toHaveAttribute(
    'aria-current',
    'true',
  )
  await rider.screenshot({ path: screenshotPath('teams-rider-menu'), fullPage: true })
  await rider.keyboard.press('Escape')

  // The same link does not work twice.
  await rider.goto(new URL(link).pathname)
  await expect(
    rider.getByRole('heading', { name: 'This invitation has already been used' }),
  ).toBeVisible()

  // Both see a team course appear live: their course lists are open while the rider adds a
  // course to the team; it appears in both without a reload.
  const membersPage = coach.url()
  await coach.goto('/simulation/courses')
  await expect(coach.getByRole('heading', { name: 'Courses', level: 1 })).toBeVisible()
  await expect(coach.getByRole('link', { name: COURSE })).toHaveCount(0)
  // A marker that a reload would erase.
  await coach.evaluate(() => ((window as unknown as { stillHere: boolean }).stillHere = true))
  // The rider's course, straight into the team (the upload form imports to his own courses),
  // through the API with the session token his browser uses.
  const teamId = /\/account\/teams\/([0-9a-f-]{36})/.exec(membersPage)![1]!
  const riderToken = rider.waitForRequest((r) =>
    Boolean(r.url().includes('/api/') && r.headers().authorization?.startsWith('Bearer ')),
  )
  await rider.goto('/simulation/courses')
  const authorization = (await riderToken).headers().authorization!
  await expect(rider.getByRole('heading', { name: 'Courses', level: 1 })).toBeVisible()
  await rider.evaluate(() => ((window as unknown as { stillHere: boolean }).stillHere = true))
  const imported = await rider.request.post(`/api/courses/import?owner=${teamId}`, {
    headers: { authorization },
    multipart: {
      file: {
        name: 'col-du-team.gpx',
        mimeType: 'application/gpx+xml',
        buffer: Buffer.from(gpx(COURSE)),
      },
    },
  })
  expect(imported.status(), await imported.text()).toBe(201)
  // Both lists show it as the team's; a member may not move the team's course.
  const riderItem = rider.getByRole('listitem').filter({ hasText: COURSE })
  await expect(riderItem).toContainText('Alpine Racing')
  await expect(riderItem.getByRole('combobox')).toHaveCount(0)
  const coachItem = coach.getByRole('listitem').filter({ hasText: COURSE })
  await expect(coachItem).toContainText('Alpine Racing')
  // Neither page was reloaded: the lists followed the live stream.
  for (const p of [coach, rider]) {
    expect(await p.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(
      true,
    )
  }
  await coach.screenshot({ path: screenshotPath('teams-course-live'), fullPage: true })

  // The coach sees the rider among the members and makes him an admin.
  await coach.goto(membersPage)
  const riderRow = coach.getByTestId(`member-${DEMO.rider}`)
  await expect(riderRow).toContainText(DEMO.rider)
  await expect(coach.getByRole('list', { name: 'Open invitations' })).toHaveCount(0)
  await riderRow.getByRole('combobox').selectOption('admin')
  await coach.reload()
  await expect(coach.getByTestId(`member-${DEMO.rider}`).getByRole('combobox')).toHaveValue('admin')
  await coach.screenshot({ path: screenshotPath('teams-members'), fullPage: true })

  // The coach removes the rider (after the browser's confirmation); the team is gone for him.
  coach.once('dialog', (d) => void d.accept())
  await coach.getByTestId(`member-${DEMO.rider}`).getByRole('button', { name: 'Remove' }).click()
  await expect(coach.getByTestId(`member-${DEMO.rider}`)).toHaveCount(0)
  await expect(coach.getByRole('heading', { name: 'Members (1)' })).toBeVisible()
  // The rider's open course list loses the team's course at once (he left the team).
  await expect(rider.getByRole('link', { name: COURSE })).toHaveCount(0)
  expect(await rider.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(
    true,
  )
  await rider.goto(new URL(coach.url()).pathname)
  await expect(rider.getByRole('alert')).toContainText('The team was not found.')

  // The delete dialog says what goes with the team.
  await coach.getByRole('button', { name: 'Delete team…' }).click()
  const dialog = coach.getByRole('dialog')
  await expect(dialog).toContainText('1 member loses access')
  await expect(dialog.getByRole('button', { name: 'Delete the team and its items' })).toBeDisabled()
  await coach.screenshot({ path: screenshotPath('teams-delete-dialog'), fullPage: true })
  await dialog.getByLabel("Type the team's name to confirm").fill('Alpine Racing')
  await dialog.getByRole('button', { name: 'Delete the team and its items' }).click()
  await coach.waitForURL((url) => url.pathname === '/account')
  await expect(coach.getByRole('list', { name: 'Your teams' })).not.toContainText('Alpine Racing')

  await coachContext.close()
  await riderContext.close()
})

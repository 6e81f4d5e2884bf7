// Team members see the team's items live: a member's new course reaches the other
// members' live streams as a `team-item` event naming the collection and the team, never an
// outsider's; the course import (which writes no NOTIFY itself) is found by the hub's poll.
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testDriver } from '@veloptima/db/testing'
import { postFile, syntheticGpx } from './files-helpers.ts'
import { startTestApp, type TestApp } from './helpers.ts'
import { caller, courseBody, deviceBody, type Caller } from './platform-fixtures.ts'
import { SseClient } from './sse-client.ts'

type TeamItems = { collection: string; team_id: string }
const tokenOf = (link: string) => link.slice(link.lastIndexOf('/') + 1)

describe(`live: team items reach every member on ${testDriver()}`, () => {
  let t: TestApp
  let base: string
  let teamId: string
  const people: Record<string, { api: Caller; token: string }> = {}
  const streams: SseClient[] = []
  const stream = async (uid: string) => {
    const c = await SseClient.open(`${base}/api/live?access_token=${people[uid]!.token}`)
    streams.push(c)
    // The first pump (the profile) is the baseline of the team lists.
    await c.until((e) => e.some((x) => x.event === 'rider-profile'), 10_000, `${uid}'s profile`)
    return c
  }
  const teamItems = (c: SseClient) => c.of<TeamItems>('team-item')

  beforeAll(async () => {
    // The poll backs up NOTIFY for writers that do not send one (the course import).
    t = await startTestApp({ LIVE_POLL_MS: '300', PUBLIC_URL: 'https://veloptima.example' })
    await t.app.listen({ port: 0, host: '127.0.0.1' })
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`
    for (const uid of ['coach', 'rider', 'stranger']) {
      const bearer = await t.bearer({ uid })
      people[uid] = { api: caller(t, bearer), token: bearer.authorization.slice(7) }
      await people[uid].api.get('/api/teams')
    }
    const coach = people.coach!.api
    teamId = (await coach.post('/api/teams', { name: 'Live Club' })).body.id as string
    const inv = await coach.post(`/api/teams/${teamId}/invitations`, {
      email: 'rider@example.com',
    })
    const ok = await people.rider!.api.post('/api/invitations/accept', {
      token: tokenOf(inv.body.link as string),
    })
    expect(ok.status).toBe(200)
  })
  afterAll(async () => {
    for (const c of streams) c.close()
    await t.close()
  })

  it('a member’s new team course reaches the coach’s stream; a personal one and outsiders do not', async () => {
    const coachLive = await stream('coach')
    const strangerLive = await stream('stranger')
    const rider = people.rider!.api
    // A personal course first: nothing for the team.
    expect((await rider.post('/api/courses', courseBody('Rider’s own'))).status).toBe(201)
    const made = await rider.post('/api/courses', { ...courseBody('Team loop'), owner: teamId })
    expect(made.status).toBe(201)
    await coachLive.until((e) => e.some((x) => x.event === 'team-item'), 10_000, 'team-item')
    expect(teamItems(coachLive)).toEqual([{ collection: 'courses', team_id: teamId }])
    // The list the event asks to reload holds the new course.
    const list = await people.coach!.api.get(`/api/courses?owner=${teamId}`)
    expect(list.body.items.map((c: { name: string }) => c.name)).toEqual(['Team loop'])
    // The stranger's stream woke for nothing of theirs.
    await new Promise((r) => setTimeout(r, 700))
    expect(teamItems(strangerLive)).toEqual([])
  })

  it('edits, deletions and moves out of the team are told too, per collection', async () => {
    const riderLive = await stream('rider')
    const coach = people.coach!.api
    const device = await coach.post('/api/devices', { ...deviceBody('LIVE-1'), owner: teamId })
    expect(device.status).toBe(201)
    await riderLive.until(() => teamItems(riderLive).length >= 1, 10_000, 'device created')
    expect(teamItems(riderLive).at(-1)).toEqual({ collection: 'devices', team_id: teamId })
    expect((await coach.patch(`/api/devices/${device.body.id}`, { name: 'Renamed' })).status).toBe(
      200,
    )
    await riderLive.until(() => teamItems(riderLive).length >= 2, 10_000, 'device renamed')
    const moved = await coach.post(`/api/devices/${device.body.id}/move`, { owner: 'coach' })
    expect(moved.status, JSON.stringify(moved.body)).toBe(200)
    await riderLive.until(() => teamItems(riderLive).length >= 3, 10_000, 'device moved out')
    const course = (await people.rider!.api.get(`/api/courses?owner=${teamId}`)).body.items[0]
    expect((await coach.del(`/api/courses/${course.id}`)).status).toBe(204)
    await riderLive.until(
      () => teamItems(riderLive).some((x) => x.collection === 'courses'),
      10_000,
      'course deleted',
    )
    expect(new Set(teamItems(riderLive).map((x) => x.collection))).toEqual(
      new Set(['devices', 'courses']),
    )
  })

  it('a course imported from a file into the team (no NOTIFY of its own) reaches the others by the poll', async () => {
    const coachLive = await stream('coach')
    const rider = await t.bearer({ uid: 'rider', claims: { 'create:simulations': true } })
    const res = await postFile(t.app, '/api/courses/import', rider, 'team.gpx', syntheticGpx(), {
      owner: teamId,
    })
    expect(res.statusCode, res.body).toBe(201)
    await coachLive.until((e) => e.some((x) => x.event === 'team-item'), 10_000, 'imported course')
    expect(teamItems(coachLive)).toEqual([{ collection: 'courses', team_id: teamId }])
  })

  it('a member removed (or added) has the team’s lists reloaded too', async () => {
    const riderLive = await stream('rider')
    // The imported course above is the team's: the rider's course list holds it.
    expect((await people.coach!.api.del(`/api/teams/${teamId}/members/rider`)).status).toBe(204)
    await riderLive.until(() => teamItems(riderLive).length >= 1, 10_000, 'removed')
    expect(teamItems(riderLive)).toEqual([{ collection: 'courses', team_id: teamId }])
    const back = await people.coach!.api.post(`/api/teams/${teamId}/members`, { uid: 'rider' })
    expect(back.status).toBe(201)
    await riderLive.until(() => teamItems(riderLive).length >= 2, 10_000, 'added back')
  })
})

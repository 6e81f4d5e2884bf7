import { beforeAll, describe, expect, it } from 'vitest'
import {
  autoSections,
  checkSections,
  mergeSections,
  splitSection,
  summarizeSections,
} from '@veloptima/engine'
import { importCourse } from '@veloptima/formats'
import { suiteApp } from './helpers.ts'
import { postFile, tempDir } from './files-helpers.ts'
import { syntheticClimb } from '../../../packages/formats/test/fixtures/synthetic-climb.ts'
import { needs } from '../../../scripts/test-data.ts'
import { itWith } from '../../../scripts/test-data-vitest.ts'

// Real-world courses (scripts/test-data.ts: skipped, naming them, when absent) and the self-made
// climb.
const climbGpx = Buffer.from(syntheticClimb().gpx)
const shared = (file: string) =>
  file === 'synthetic-climb.gpx' ? climbGpx : needs(`courses/${file}`).read(`courses/${file}`)
const SIM = { 'create:simulations': true }

describe('automatic sections on courses', () => {
  for (const file of [
    'synthetic-climb.gpx',
    'alpe-dhuez.gpx',
    'tt-beton-classic.gpx',
    'mont-ventoux-bedoin.gpx',
  ]) {
    const real = file === 'synthetic-climb.gpx' ? [] : [`courses/${file}`]
    itWith(
      real,
      `${file}: contiguous, cover the course, coarse ≤ medium ≤ fine, split + merge = identity`,
      () => {
        const { course } = importCourse(shared(file), file)
        const total = course.start[course.n]!
        const counts = (['coarse', 'medium', 'fine'] as const).map((level) => {
          const sections = autoSections(course, level)
          checkSections(sections, 0, total)
          // every section but a lone one reaches the level's minimum length
          const min = { coarse: 2000, medium: 800, fine: 250 }[level]
          if (sections.length > 1)
            expect(Math.min(...sections.map((s) => s.endM - s.startM))).toBeGreaterThanOrEqual(min)
          return sections.length
        })
        expect(counts[0]).toBeLessThanOrEqual(counts[1]!)
        expect(counts[1]).toBeLessThanOrEqual(counts[2]!)
        const medium = autoSections(course, 'medium')
        const mid = (medium[0]!.startM + medium[0]!.endM) / 2
        expect(mergeSections(splitSection(medium, mid), 0)).toEqual(medium)
      },
    )
  }

  itWith(
    ['courses/alpe-dhuez.gpx'],
    "L'Alpe d'Huez is mostly a steep climb at the coarse level",
    () => {
      const { course } = importCourse(shared('alpe-dhuez.gpx'), 'alpe-dhuez.gpx')
      const coarse = summarizeSections(course, autoSections(course, 'coarse'))
      const longest = coarse.reduce((a, b) => (b.lengthM > a.lengthM ? b : a))
      expect(longest.terrain).toBe('steep climb')
      expect(longest.lengthM).toBeGreaterThan(0.6 * course.start[course.n]!)
    },
  )
})

describe('course sections: PATCH /api/courses/:id settings.sections', () => {
  const t = suiteApp({ FILES_DIR: tempDir('sections') })
  const auth: Record<string, { authorization: string }> = {}
  let id: string
  let total: number

  beforeAll(async () => {
    for (const uid of ['ann', 'ben']) auth[uid] = await t.signIn({ uid, claims: SIM })
    const res = await postFile(t.app, '/api/courses/import', auth.ann, 'climb.gpx', climbGpx, {})
    expect(res.statusCode).toBe(201)
    id = res.json().id
    const course = await t.app.inject({
      method: 'GET',
      url: `/api/courses/${id}`,
      headers: auth.ann,
    })
    total = course.json().segments.at(-1).end
  })

  const patch = (uid: string, settings: unknown) =>
    t.app.inject({
      method: 'PATCH',
      url: `/api/courses/${id}`,
      headers: auth[uid],
      payload: { settings },
    })

  it('stores contiguous sections with the other settings and returns them', async () => {
    const sections = [
      { start_m: 0, end_m: 1000, name: 'Start' },
      { start_m: 1000, end_m: total },
    ]
    const res = await patch('ann', { surface: 'smooth', segmentation: 'manual', sections })
    expect(res.statusCode).toBe(200)
    const got = await t.app.inject({ method: 'GET', url: `/api/courses/${id}`, headers: auth.ann })
    expect(got.json().settings).toEqual({ surface: 'smooth', segmentation: 'manual', sections })
  })

  it('rejects gaps, empty sections and unknown fields with the section named', async () => {
    const gap = await patch('ann', {
      sections: [
        { start_m: 0, end_m: 1000 },
        { start_m: 1200, end_m: total },
      ],
    })
    expect(gap.statusCode).toBe(400)
    expect(gap.json().code).toBe('invalid-request')
    expect(gap.json().message).toMatch(/section 2 starts at 1200 m but section 1 ends at 1000 m/)
    const empty = await patch('ann', { sections: [{ start_m: 500, end_m: 500 }] })
    expect(empty.statusCode).toBe(400)
    expect(empty.json().message).toMatch(/end_m must be greater than start_m/)
    const extra = await patch('ann', { sections: [{ start_m: 0, end_m: 10, grade: 1 }] })
    expect(extra.statusCode).toBe(400)
    expect((await patch('ann', { sections: [] })).statusCode).toBe(400)
  })

  it("answers 404 for someone else's course", async () => {
    const res = await patch('ben', { sections: [{ start_m: 0, end_m: total }] })
    expect(res.statusCode).toBe(404)
  })
})

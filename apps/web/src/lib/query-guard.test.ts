// The lint rule that keeps one way to read server state (eslint.config.js): a component that
// loads from the API in an effect is refused, useQuery with a queryOptions is not.
import { fileURLToPath } from 'node:url'
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../../../../', import.meta.url))
const eslint = new ESLint({ cwd: root })

/** The lines the one-way rule refuses in `code`, as a page of the simulation feature. */
async function refusals(code: string): Promise<number[]> {
  const [result] = await eslint.lintText(code, {
    filePath: `${root}apps/web/src/features/simulation/pages/sample-page.tsx`,
  })
  const lines = result!.messages.filter((m) => m.ruleId === 'no-restricted-syntax')
  return [...new Set(lines.map((m) => m.line))]
}

const imports = `import { useEffect, useState } from 'react'
import { useMutation, useQuery } from '@tanstack/react-query'
import { api } from '../../../lib/api-client.ts'
import { courseListQuery } from '../lib/queries.ts'
`

describe('one way to read server state', () => {
  it('refuses an effect that requests the API and keeps the answer in state', async () => {
    const code = `${imports}
export function Courses() {
  const [items, setItems] = useState<unknown[]>([])
  useEffect(() => {
    void api<unknown[]>('/api/courses').then(setItems)
  }, [])
  return items.length
}
`
    expect(await refusals(code)).toEqual([9])
  })

  it('refuses an async effect that fetches, and a hand-rolled loader of any promise', async () => {
    const code = `${imports}
export function useLoaded<T>(load: () => Promise<T>) {
  const [state, setState] = useState<T>()
  useEffect(() => {
    let live = true
    load().then((data) => live && setState(data))
    return () => {
      live = false
    }
  }, [load])
  useEffect(() => {
    const run = async () => (await fetch('/api/courses')).json()
    void run()
  }, [])
  return state
}
`
    expect(await refusals(code)).toEqual([10, 16])
  })

  it('refuses a feature API object called in an effect', async () => {
    const code = `${imports}
declare const aeroApi: { sessions(): Promise<unknown[]> }
export function Sessions() {
  const [items, setItems] = useState<unknown[]>([])
  useEffect(() => {
    void aeroApi.sessions().then((s) => setItems(s))
  }, [])
  return items.length
}
`
    expect(await refusals(code)).toEqual([10])
  })

  it('accepts useQuery with a queryOptions, a write in a mutation and effects that load nothing', async () => {
    const code = `${imports}
export function Courses() {
  const courses = useQuery(courseListQuery())
  const remove = useMutation({
    mutationFn: (id: string) => api('/api/courses/' + id, { method: 'DELETE' }),
  })
  const [now, setNow] = useState(0)
  useEffect(() => {
    const timer = setInterval(() => setNow((n) => n + 1), 1000)
    return () => clearInterval(timer)
  }, [])
  return courses.data?.length ?? (remove.isPending ? now : 0)
}
`
    expect(await refusals(code)).toEqual([])
  })
})

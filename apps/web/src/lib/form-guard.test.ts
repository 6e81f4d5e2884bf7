// The lint rule that keeps one way to hold a form (eslint.config.js): a <form> submits through
// react-hook-form's handleSubmit; a form that reads its own state on submit is refused.
import { fileURLToPath } from 'node:url'
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../../../../', import.meta.url))
const eslint = new ESLint({ cwd: root })

/** The lines the one-way rule refuses in `code`, as a page of the account feature. */
async function refusals(code: string): Promise<number[]> {
  const [result] = await eslint.lintText(code, {
    filePath: `${root}apps/web/src/features/account/sample-form.tsx`,
  })
  const lines = result!.messages.filter((m) => m.ruleId === 'no-restricted-syntax')
  return [...new Set(lines.map((m) => m.line))]
}

describe('one way to hold a form', () => {
  it('refuses a form that submits through its own handler over string state', async () => {
    const code = `import { useState } from 'react'
export function NameForm({ save }: { save: (name: string) => void }) {
  const [name, setName] = useState('')
  return (
    <form onSubmit={(e) => { e.preventDefault(); save(name) }}>
      <input value={name} onChange={(e) => setName(e.target.value)} />
    </form>
  )
}
`
    expect(await refusals(code)).toEqual([5])
  })

  it('refuses a form without a submit handler', async () => {
    const code = `export function Empty() {
  return <form><input name="q" /></form>
}
`
    expect(await refusals(code)).toEqual([2])
  })

  it('accepts a react-hook-form form, as a member call or a destructured handleSubmit', async () => {
    const code = `import { useForm } from 'react-hook-form'
export function NameForm({ save }: { save: (v: { name: string }) => void }) {
  const form = useForm<{ name: string }>()
  const { handleSubmit, register } = useForm<{ name: string }>()
  return (
    <>
      <form onSubmit={form.handleSubmit(save)}><input {...form.register('name')} /></form>
      <form onSubmit={handleSubmit(save)}><input {...register('name')} /></form>
    </>
  )
}
`
    expect(await refusals(code)).toEqual([])
  })
})

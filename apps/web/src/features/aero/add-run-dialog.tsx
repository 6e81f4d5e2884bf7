import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { buttonClass } from '../../components/button.ts'
import { api, ApiError } from '../../lib/api-client.ts'

/** The sessions' add-run dialog: a name, an optional configuration note, baseline or not. */
export function AddRunDialog({
  sessionId,
  nextPosition,
}: {
  sessionId: string
  nextPosition: number
}) {
  const [open, setOpen] = useState(false)
  const [name, setName] = useState('')
  const [setup, setSetup] = useState('')
  const [baseline, setBaseline] = useState(false)
  const client = useQueryClient()
  const create = useMutation({
    mutationFn: () =>
      api(`/api/aero-sessions/${encodeURIComponent(sessionId)}/runs`, {
        method: 'POST',
        body: {
          name: name.trim(),
          position: nextPosition,
          is_baseline: baseline,
          configuration: setup.trim() ? { setup: setup.trim() } : {},
        },
      }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: ['aero-runs', sessionId] })
      setOpen(false)
      setName('')
      setSetup('')
      setBaseline(false)
    },
  })
  const input =
    'mt-1 block w-full rounded-lg border-0 px-3 py-2 text-sm ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-brand-600'
  return (
    <>
      <button type="button" className={buttonClass.secondary} onClick={() => setOpen(true)}>
        Add run
      </button>
      <Dialog open={open} onClose={() => setOpen(false)} className="relative z-50">
        <div className="fixed inset-0 bg-slate-900/30" aria-hidden="true" />
        <div className="fixed inset-0 flex items-center justify-center p-4">
          <DialogPanel className="w-full max-w-md rounded-2xl bg-white p-6 shadow-xl">
            <DialogTitle className="text-lg font-semibold text-slate-900">Add run</DialogTitle>
            <form
              className="mt-4 space-y-4"
              onSubmit={(e) => {
                e.preventDefault()
                if (name.trim()) create.mutate()
              }}
            >
              <div>
                <label htmlFor="run-name" className="text-sm font-medium text-slate-700">
                  Run name
                </label>
                <input
                  id="run-name"
                  required
                  value={name}
                  onChange={(e) => setName(e.target.value)}
                  className={input}
                />
              </div>
              <div>
                <label htmlFor="run-setup" className="text-sm font-medium text-slate-700">
                  Configuration
                </label>
                <input
                  id="run-setup"
                  value={setup}
                  placeholder="e.g. aero helmet, 60 mm wheels"
                  onChange={(e) => setSetup(e.target.value)}
                  className={input}
                />
              </div>
              <label className="flex items-center gap-2 text-sm text-slate-700">
                <input
                  type="checkbox"
                  checked={baseline}
                  onChange={(e) => setBaseline(e.target.checked)}
                  className="h-4 w-4 rounded border-slate-300 text-brand-600"
                />
                Baseline run
              </label>
              {create.isError && (
                <p role="alert" className="text-sm text-red-700">
                  {create.error instanceof ApiError
                    ? create.error.message
                    : 'The run could not be added.'}
                </p>
              )}
              <div className="flex justify-end gap-3">
                <button type="button" className={buttonClass.ghost} onClick={() => setOpen(false)}>
                  Cancel
                </button>
                <button
                  type="submit"
                  disabled={create.isPending || !name.trim()}
                  className={buttonClass.primary}
                >
                  Add run
                </button>
              </div>
            </form>
          </DialogPanel>
        </div>
      </Dialog>
    </>
  )
}

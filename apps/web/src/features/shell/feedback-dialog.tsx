import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react'
import { zodResolver } from '@hookform/resolvers/zod'
import { useState } from 'react'
import { useForm, useWatch } from 'react-hook-form'
import { useLocation } from 'react-router'
import { feedbackFormSchema, type FeedbackForm } from '@veloptima/contracts'
import { buttonClass } from '../../components/button.ts'
import { FieldLabel, FormError } from '../../components/form.tsx'
import { CloseIcon } from '../../components/icons.tsx'
import { api, ApiError } from '../../lib/api-client.ts'

/** Width of the feedback popup (docs/specification.md §9). */
const POPUP_WIDTH = 400

/**
 * The feedback popup: the configured survey (with e-mail and uid), or, without one, the built-in
 * form that stores the answer (POST /api/feedback).
 */
export function FeedbackDialog({
  onClose,
  surveySrc,
}: {
  onClose: () => void
  surveySrc: string | undefined
}) {
  return (
    <Dialog open onClose={onClose} className="relative z-50">
      <div className="fixed inset-0 bg-slate-900/30" aria-hidden="true" />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        <DialogPanel
          style={{ width: POPUP_WIDTH, maxWidth: '100%' }}
          className="rounded-2xl bg-white p-6 shadow-xl"
          data-testid="feedback-popup"
        >
          <div className="flex items-start justify-between">
            <DialogTitle className="text-lg font-semibold text-slate-900">
              Tell us what you think
            </DialogTitle>
            <button
              type="button"
              onClick={onClose}
              className="rounded-md p-1 text-slate-500 hover:bg-slate-100"
            >
              <CloseIcon className="h-5 w-5" />
              <span className="sr-only">Close</span>
            </button>
          </div>
          {surveySrc ? (
            <iframe
              title="Feedback survey"
              src={surveySrc}
              className="mt-4 h-[480px] w-full rounded-lg border border-slate-200"
            />
          ) : (
            <FeedbackForm onDone={onClose} />
          )}
        </DialogPanel>
      </div>
    </Dialog>
  )
}

function FeedbackForm({ onDone }: { onDone: () => void }) {
  const location = useLocation()
  const { register, handleSubmit, setValue, control, formState } = useForm<FeedbackForm>({
    resolver: zodResolver(feedbackFormSchema),
    defaultValues: { text: '' },
    // the message stays until the next send, as the API's does
    reValidateMode: 'onSubmit',
  })
  const rating = useWatch({ control, name: 'rating' })
  const [state, setState] = useState<'idle' | 'sending' | 'sent'>('idle')
  const [sendError, setSendError] = useState<string>()
  const error = formState.errors.text?.message ?? sendError

  const send = async (values: FeedbackForm) => {
    setState('sending')
    setSendError(undefined)
    try {
      await api('/api/feedback', {
        method: 'POST',
        body: {
          text: values.text,
          page: location.pathname,
          ...(values.rating ? { rating: values.rating } : {}),
        },
      })
      setState('sent')
    } catch (err) {
      setState('idle')
      setSendError(err instanceof ApiError ? err.message : 'Sending failed; try again.')
    }
  }

  if (state === 'sent') {
    return (
      <div className="mt-4" role="status">
        <p className="text-sm text-slate-700">Thank you — your feedback has reached the team.</p>
        <button type="button" className={`${buttonClass.secondary} mt-4`} onClick={onDone}>
          Close
        </button>
      </div>
    )
  }
  return (
    <form onSubmit={handleSubmit(send)} className="mt-4 space-y-4" noValidate>
      <fieldset>
        <legend className="text-sm font-medium text-slate-700">
          How useful is Veloptima to you?
        </legend>
        <div className="mt-2 flex gap-2">
          {[1, 2, 3, 4, 5].map((n) => (
            <button
              key={n}
              type="button"
              aria-pressed={rating === n}
              aria-label={`${n} out of 5`}
              onClick={() => setValue('rating', n)}
              className={`h-9 w-9 rounded-lg text-sm font-semibold ring-1 ring-inset ${
                rating === n
                  ? 'bg-brand-700 text-white ring-brand-700'
                  : 'text-slate-700 ring-slate-300 hover:bg-slate-50'
              }`}
            >
              {n}
            </button>
          ))}
        </div>
      </fieldset>
      <div>
        <FieldLabel htmlFor="feedback-text">Your feedback</FieldLabel>
        <textarea
          id="feedback-text"
          rows={5}
          {...register('text')}
          className="mt-1 block w-full rounded-lg border-0 px-3 py-2 text-sm text-slate-900 ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-brand-600"
          placeholder="What works, what is missing, what got in your way?"
        />
      </div>
      <FormError message={error} />
      <button type="submit" disabled={state === 'sending'} className={buttonClass.primary}>
        {state === 'sending' ? 'Sending…' : 'Send feedback'}
      </button>
    </form>
  )
}

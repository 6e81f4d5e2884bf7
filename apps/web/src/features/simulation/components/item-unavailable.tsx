// What a page about one item (a course, a rider setup, an optimization, a result) shows until it
// has the item: why it cannot be shown, or that it is loading.
import { ErrorBox, Loading, Page } from './ui.tsx'

export function NotYours({ what, message }: { what: string; message: string }) {
  return (
    <ErrorBox>
      <p className="font-semibold">This {what} cannot be shown.</p>
      <p>{message} It may have been deleted, or it belongs to another account.</p>
    </ErrorBox>
  )
}

/** The page while its item is not there: the refusal's `error` when there is one, else loading. */
export function ItemUnavailable({
  what,
  error,
  loading,
}: {
  /** The item, e.g. "rider setup". */
  what: string
  error: string | undefined
  /** What is loading, e.g. "the rider setup". */
  loading: string
}) {
  return (
    <Page>
      {error !== undefined ? <NotYours what={what} message={error} /> : <Loading what={loading} />}
    </Page>
  )
}

/** A result opened under another optimization's address. */
export const WRONG_PARENT = 'This result belongs to another optimization.'

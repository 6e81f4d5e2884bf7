// What a page about one item (a course, a rider setup, an optimization, a result) shows until it
// has the item: why it cannot be shown, or that it is loading.
import { useApiData, type OptimizationResult } from '../lib/api.ts'
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
  /** What is loading; by default "the <what>". */
  loading?: string
}) {
  return (
    <Page>
      {error !== undefined ? (
        <NotYours what={what} message={error} />
      ) : (
        <Loading what={loading ?? `the ${what}`} />
      )}
    </Page>
  )
}

/**
 * The result `id` of optimization `simId`, and what its page shows instead while it cannot show
 * it: the refusal (also when the result is another optimization's), or `loading`.
 */
export function useResultOf(simId: string | undefined, id: string | undefined, loading: string) {
  const loaded = useApiData<OptimizationResult>(`/api/optimization-results/${id}`)
  const r = loaded.data
  const wrongParent = r !== undefined && r.optimization_id !== simId
  const refusal =
    loaded.error?.message ??
    (wrongParent ? 'This result belongs to another optimization.' : undefined)
  const unavailable =
    refusal !== undefined || !r ? (
      <ItemUnavailable what="result" error={refusal} loading={loading} />
    ) : null
  return { loaded, unavailable }
}

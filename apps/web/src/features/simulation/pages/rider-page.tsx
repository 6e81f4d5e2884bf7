// New / edit rider setup: loads the stored setup (or, for a new one, the rider profile it starts
// from) and shows its form (components/rider-form).
import { useParams } from 'react-router'
import { useLive } from '../../../lib/live.tsx'
import { Loading, Page } from '../components/ui.tsx'
import { useApiData, type RiderSetup } from '../lib/api.ts'
import { ItemUnavailable } from '../components/item-unavailable.tsx'
import { RiderForm } from '../components/rider-form/rider-form.tsx'

export function RiderPage() {
  const { id } = useParams()
  const existing = useApiData<RiderSetup>(id ? `/api/rider-setups/${id}` : null)
  const { riderProfile } = useLive()
  if (id && (existing.error || !existing.data))
    return <ItemUnavailable what="rider setup" error={existing.error?.message} />
  if (!id && riderProfile === undefined) {
    return (
      <Page>
        <Loading what="your rider profile" />
      </Page>
    )
  }
  return <RiderForm key={id ?? 'new'} setup={existing.data} profile={riderProfile ?? null} />
}

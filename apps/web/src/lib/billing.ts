import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import type {
  BillingConfig,
  BillingRedirect,
  BillingSubscription,
  CheckoutRequest,
  Notification,
} from '@veloptima/contracts'
import { api } from './api-client.ts'
import { useAuth } from './auth.ts'
import { useLive } from './live.tsx'

export const PLAN_NAMES: Record<BillingSubscription['plan'], string> = {
  individual: 'Individual',
  team: 'Team',
  aero: 'Aero add-on',
}

/** Whether payment is on and which plans and periods can be bought (public). */
export function useBillingConfig() {
  return useQuery({
    queryKey: ['billing-config'],
    queryFn: () => api<BillingConfig>('/api/billing/config'),
    staleTime: 5 * 60_000,
  })
}

export const billingSubscriptionsKey = (uid: string | undefined) => ['billing-subscriptions', uid]

/** The caller's plans and their teams', with Stripe's status. */
export function useBillingSubscriptions() {
  const uid = useAuth().user?.uid
  return useQuery({
    queryKey: billingSubscriptionsKey(uid),
    queryFn: () => api<{ items: BillingSubscription[] }>('/api/billing/subscriptions'),
    enabled: Boolean(uid),
  })
}

/** Sends the browser to Stripe's hosted Checkout page. */
export function useCheckout() {
  return useMutation({
    mutationFn: (body: CheckoutRequest) =>
      api<BillingRedirect>('/api/billing/checkout', { method: 'POST', body }),
    onSuccess: ({ url }) => window.location.assign(url),
  })
}

/** Sends the browser to Stripe's customer portal (cards, invoices, cancel, seats). */
export function usePortal() {
  return useMutation({
    mutationFn: (teamId?: string) =>
      api<BillingRedirect>('/api/billing/portal', {
        method: 'POST',
        body: teamId ? { team_id: teamId } : {},
      }),
    onSuccess: ({ url }) => window.location.assign(url),
  })
}

/**
 * A plan changed (the webhook wrote a notification with data.kind = 'claims'; the live
 * provider renews the session token for every page): re-read the plans shown on this page.
 */
export function useClaimsFollowPlans() {
  const live = useLive()
  const client = useQueryClient()
  const uid = useAuth().user?.uid
  useEffect(
    () =>
      live.subscribe('notification', (data) => {
        if ((data as Notification).data?.kind !== 'claims') return
        void client.invalidateQueries({ queryKey: billingSubscriptionsKey(uid) })
        void client.invalidateQueries({ queryKey: ['subscriptions', uid] })
      }),
    [live, client, uid],
  )
}

import type { BillingSubscription } from '@veloptima/contracts'

const PLAN_NAMES: Record<BillingSubscription['plan'], string> = {
  individual: 'Individual',
  team: 'Team',
  aero: 'Aero add-on',
}

/** What the home page says about a bought plan that lapses or has lapsed (docs/billing.md). */
export type PlanNotice = {
  key: string
  tone: 'warning' | 'info'
  title: string
  text: string
}

/** The day of an ISO time, as the notifications write it (YYYY-MM-DD, UTC). */
const day = (iso: string) => iso.slice(0, 10)

/**
 * The notices of the home page: for each plan (kind and holder, own or a team's) bought through
 * Stripe, its newest subscription says whether it lapses at its period's end (payment past due, or
 * cancelled at the period's end) or has lapsed (no current subscription of that plan any more).
 * A plan that runs on, and plans an administrator granted (no Stripe status), say nothing.
 */
export function planNotices(subs: BillingSubscription[]): PlanNotice[] {
  const newest = new Map<string, BillingSubscription>()
  for (const s of subs) {
    if (s.stripe_status === null) continue
    const key = `${s.team_id ?? 'own'}/${s.plan}`
    const seen = newest.get(key)
    // A current subscription wins over any ended one; among equals the later end.
    if (
      !seen ||
      (s.current && !seen.current) ||
      (s.current === seen.current && s.ends_at > seen.ends_at)
    ) {
      newest.set(key, s)
    }
  }
  const notices: PlanNotice[] = []
  for (const [key, s] of newest) {
    const Plan = `${s.team_id ? 'Your team’s' : 'Your'} ${PLAN_NAMES[s.plan]} plan`
    // A team's plan is managed by the team's owners and admins (Manage the team's subscription).
    const who = s.team_id ? 'The team’s owners and admins can' : 'You can'
    if (s.current && s.stripe_status === 'past_due') {
      notices.push({
        key,
        tone: 'warning',
        title: `A payment failed: ${Plan.replace(/^Your/, 'your')} lapses on ${day(s.ends_at)}`,
        text: `${who} update the card in Manage subscription on the account page to keep it. Your data is kept either way.`,
      })
    } else if (s.current && s.cancel_at_period_end) {
      notices.push({
        key,
        tone: 'info',
        title: `${Plan} ends on ${day(s.ends_at)}`,
        text: `It was cancelled and stays active until then. Afterwards your data is kept, read-only. ${who} resume it in Manage subscription on the account page.`,
      })
    } else if (!s.current) {
      notices.push({
        key,
        tone: 'warning',
        title: `${Plan} ended on ${day(s.ends_at)}`,
        text: `Your data is kept, read-only. ${s.team_id ? 'The team’s owners and admins can subscribe' : 'Subscribe'} again to edit and run it.`,
      })
    }
  }
  return notices
}

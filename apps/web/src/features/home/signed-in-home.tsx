import { useQuery } from '@tanstack/react-query'
import { Link } from 'react-router'
import { pacingGaps, type Page, type RiderSetup } from '@veloptima/contracts'
import { buttonClass } from '../../components/button.ts'
import { ChartIcon, CheckIcon, GearIcon, WrenchIcon } from '../../components/icons.tsx'
import { PageSpinner } from '../../components/spinner.tsx'
import { api } from '../../lib/api-client.ts'
import { useAuth } from '../../lib/auth.ts'
import { useLive } from '../../lib/live.tsx'
import { useUserDoc } from '../../lib/user.ts'
import { LandingHero } from './components/landing-hero.tsx'
import { PlanNotices } from './plan-notices.tsx'
import { homeState, type ChecklistStep, type HomeState, type ReadinessSetup } from './readiness.ts'

/**
 * The caller's rider setups (theirs and their current team's), newest first, page after page until
 * one is ready for a pacing plan: the checklist needs one such setup, or else the newest one to
 * say what it lacks.
 */
async function readinessSetups(owners: string): Promise<ReadinessSetup[]> {
  const out: ReadinessSetup[] = []
  let cursor: string | null = null
  do {
    const query = `owner=${encodeURIComponent(owners)}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`
    const page: Page<RiderSetup> = await api<Page<RiderSetup>>(`/api/rider-setups?${query}`)
    out.push(...page.items)
    if (page.items.some((s) => pacingGaps(s).length === 0)) break
    cursor = page.next_cursor
  } while (cursor)
  return out
}

/** The home page of a signed-in user: subscribe, get ready or ready (docs/specification.md §2). */
export function SignedInHome() {
  const auth = useAuth()
  const live = useLive()
  const userDoc = useUserDoc()
  const uid = auth.user?.uid
  const team = userDoc.data?.current_team
  const canSimulate = auth.claims['create:simulations'] === true
  const owners = [uid, team].filter(Boolean).join(',')
  const setups = useQuery({
    queryKey: ['rider-setups', 'readiness', owners],
    queryFn: () => readinessSetups(owners),
    enabled: Boolean(uid) && canSimulate && userDoc.isSuccess,
  })

  if (auth.isLoading || (auth.loggingIn && !auth.user))
    return <PageSpinner label="Checking your session" />
  const state = homeState({
    signedIn: Boolean(auth.user),
    claims: auth.claims,
    profile: live.riderProfile,
    setups: setups.data,
  })
  if (state.kind === 'signed-out') return <LandingHero />
  return (
    <>
      <PlanNotices />
      <HomeBody state={state} name={auth.user?.displayName} setups={setups} />
    </>
  )
}

function HomeBody({
  state,
  name,
  setups,
}: {
  state: Exclude<HomeState, { kind: 'signed-out' }>
  name: string | undefined
  setups: { isError: boolean; error: Error | null }
}) {
  switch (state.kind) {
    case 'subscribe':
      return <Subscribe name={name} />
    case 'loading':
      return setups.isError ? (
        <p role="alert" className="mx-auto max-w-xl px-6 py-20 text-center text-slate-700">
          Your rider setups could not be loaded: {setups.error?.message}
        </p>
      ) : (
        <PageSpinner label="Loading your workspace" />
      )
    case 'get-ready':
      return <GetReady steps={state.steps} />
    case 'ready':
      return <Ready name={name} />
  }
}

function Section({ children }: { children: React.ReactNode }) {
  return <div className="mx-auto w-full max-w-5xl px-6 py-14 lg:px-8">{children}</div>
}

function Subscribe({ name }: { name: string | undefined }) {
  return (
    <Section>
      <div className="rounded-3xl bg-white p-8 shadow-sm ring-1 ring-slate-200 sm:p-12">
        <p className="text-sm font-semibold text-brand-700">Welcome{name ? `, ${name}` : ''}</p>
        <h1 className="mt-2 text-3xl font-bold tracking-tight text-slate-900">Subscribe</h1>
        <p className="mt-4 max-w-2xl text-base leading-7 text-slate-600">
          Pacing and equipment optimization come with a Veloptima plan. Pick the one that fits you —
          the Individual plan starts with a free trial. The standalone tools are yours already.
        </p>
        <div className="mt-8 flex flex-wrap gap-4">
          <Link to="/pricing" className={buttonClass.primary}>
            Select a plan
          </Link>
          <Link to="/tools" className={buttonClass.secondary}>
            Open the tools
          </Link>
        </div>
      </div>
    </Section>
  )
}

const stepDetails: Record<ChecklistStep['key'], { text: string; link?: string; action?: string }> =
  {
    subscription: { text: 'Your plan includes performance simulation.' },
    profile: {
      text: 'Your height and weight let the simulations estimate your drag and climbing speed.',
      link: '/account',
      action: 'Complete your profile',
    },
    setup: {
      text: 'A rider setup holds your bike, positions, masses and power limits (CP and W′): all a first pacing plan needs.',
      link: '/simulation/riders/new',
      action: 'Create a rider setup',
    },
  }

/** "CP", "CP and W′", "a, b and c". */
const listOf = (items: string[]) =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`

function GetReady({ steps }: { steps: ChecklistStep[] }) {
  const done = steps.filter((s) => s.complete).length
  return (
    <Section>
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">Get ready</h1>
      <p className="mt-3 text-base text-slate-600">
        {done} of {steps.length} steps done. A few details and your first optimization is one click
        away.
      </p>
      <ol className="mt-8 space-y-4" aria-label="Get ready checklist">
        {steps.map((step, i) => {
          const d = stepDetails[step.key]
          return (
            <li
              key={step.key}
              data-testid={`step-${step.key}`}
              data-complete={step.complete}
              className={`flex flex-col gap-4 rounded-2xl bg-white p-6 ring-1 sm:flex-row sm:items-center ${
                step.complete ? 'ring-slate-200' : 'ring-brand-200 shadow-sm'
              }`}
            >
              <span
                className={`flex h-10 w-10 shrink-0 items-center justify-center rounded-full text-sm font-bold ${
                  step.complete ? 'bg-emerald-600 text-white' : 'bg-brand-50 text-brand-700'
                }`}
              >
                {step.complete ? <CheckIcon /> : i + 1}
              </span>
              <div className="flex-1">
                <h2 className="text-base font-semibold text-slate-900">
                  {step.title}
                  <span className="sr-only">{step.complete ? ' (complete)' : ' (to do)'}</span>
                </h2>
                <p className="mt-1 text-sm text-slate-600">{d.text}</p>
                {step.unfinished ? (
                  <p className="mt-1 text-sm text-slate-800" data-testid="setup-gaps">
                    “{step.unfinished.name}” still needs{' '}
                    {listOf(step.unfinished.gaps.map((g) => g.label))} before a pacing plan can run.
                  </p>
                ) : null}
              </div>
              {!step.complete && step.unfinished ? (
                <Link
                  to={`/simulation/riders/${step.unfinished.id}`}
                  className={buttonClass.primary}
                >
                  Complete the rider setup
                </Link>
              ) : !step.complete && d.link ? (
                <Link to={d.link} className={buttonClass.primary}>
                  {d.action}
                </Link>
              ) : null}
              {step.complete && <span className="text-sm font-medium text-emerald-700">Done</span>}
            </li>
          )
        })}
      </ol>
    </Section>
  )
}

/** The links of an optimization type's card: start a new one, or list those there are. */
function optimizationLinks(type: 'pacing' | 'equipment') {
  return [
    { label: 'Create new', to: `/simulation/optimizations/new?type=${type}` },
    { label: 'List existing', to: `/simulation/optimizations?type=${type}` },
  ]
}

/** What a returning user can work on, one card each. */
const READY_CARDS = [
  {
    icon: <ChartIcon />,
    title: 'Pacing optimization',
    text: 'The power plan that gets you to the finish fastest.',
    links: optimizationLinks('pacing'),
  },
  {
    icon: <GearIcon />,
    title: 'Equipment optimization',
    text: 'Which equipment is fastest on your course, and by how much.',
    links: optimizationLinks('equipment'),
  },
  {
    icon: <WrenchIcon />,
    title: 'Standalone tools',
    text: 'Tyre pressure and wheel depth recommendations.',
    links: [{ label: 'Open tools', to: '/tools' }],
  },
]

function Ready({ name }: { name: string | undefined }) {
  const link = 'text-sm font-semibold text-brand-700 hover:text-brand-800'
  return (
    <Section>
      <p className="text-sm font-semibold text-brand-700">{name ? `Hi ${name}` : 'Welcome back'}</p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight text-slate-900">You are ready to go</h1>
      <p className="mt-3 text-base text-slate-600">What do you want to work on today?</p>
      <ul className="mt-10 grid gap-6 md:grid-cols-3">
        {READY_CARDS.map((card) => (
          <Card key={card.title} icon={card.icon} title={card.title} text={card.text}>
            {card.links.map((l) => (
              <Link key={l.to} className={link} to={l.to}>
                {l.label}
              </Link>
            ))}
          </Card>
        ))}
      </ul>
    </Section>
  )
}

function Card({
  icon,
  title,
  text,
  children,
}: {
  icon: React.ReactNode
  title: string
  text: string
  children: React.ReactNode
}) {
  return (
    <li className="flex flex-col rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
      <span className="flex h-10 w-10 items-center justify-center rounded-lg bg-brand-50 text-brand-600">
        {icon}
      </span>
      <h2 className="mt-4 text-lg font-semibold text-slate-900">{title}</h2>
      <p className="mt-2 flex-1 text-sm leading-6 text-slate-600">{text}</p>
      <div className="mt-6 flex gap-5">{children}</div>
    </li>
  )
}

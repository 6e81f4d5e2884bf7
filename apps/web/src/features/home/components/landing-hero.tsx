import { Link, useLocation } from 'react-router'
import { buttonClass } from '../../../components/button.ts'
import { ChartIcon, GearIcon, WrenchIcon } from '../../../components/icons.tsx'
import { useAuth } from '../../../lib/auth.ts'
import { HeroIllustration } from './hero-illustration.tsx'

const highlights = [
  {
    icon: ChartIcon,
    title: 'Pacing optimization',
    text: 'Where to push and where to save on your course, within your critical power and W′.',
  },
  {
    icon: GearIcon,
    title: 'Equipment optimization',
    text: 'Which wheels, tyres and position are fastest on this course — ranked with the time each one costs.',
  },
  {
    icon: WrenchIcon,
    title: 'Standalone tools',
    text: 'Tyre pressure and wheel depth recommendations for your weight, road and wind.',
  },
]

/** The signed-out home: the landing hero of the specification (§1). */
export function LandingHero() {
  const { login, loggingIn, isLoading } = useAuth()
  const location = useLocation()
  return (
    <div className="relative isolate overflow-hidden bg-white">
      <div
        aria-hidden="true"
        className="absolute inset-x-0 -top-40 -z-10 h-[36rem] bg-gradient-to-b from-brand-50 via-white to-white"
      />
      <div className="mx-auto max-w-6xl px-6 pt-20 pb-16 sm:pt-28 lg:px-8">
        <div className="grid items-center gap-12 lg:grid-cols-2">
          <div>
            <p className="text-sm font-semibold tracking-widest text-brand-700 uppercase">
              Veloptima · Performance. Perfected.
            </p>
            <h1 className="mt-4 max-w-3xl text-4xl font-bold tracking-tight text-slate-900 sm:text-6xl lg:text-5xl">
              Use your energy more wisely and become faster.
            </h1>
            <p className="mt-6 max-w-2xl text-lg leading-8 text-slate-600">
              Optimize your pacing strategy and equipment choice to enhance your performance on the
              bike.
            </p>
            <div className="mt-10 flex flex-wrap items-center gap-x-6 gap-y-4">
              <button
                type="button"
                disabled={loggingIn || isLoading}
                onClick={() => void login(location.pathname + location.search + location.hash)}
                className={`${buttonClass.primary} px-6 py-3 text-base`}
              >
                Get started
              </button>
              <Link
                to="/pricing"
                className="text-sm leading-6 font-semibold text-slate-900 hover:text-brand-700"
              >
                Learn more <span aria-hidden="true">→</span>
              </Link>
            </div>
          </div>
          <div className="hidden lg:block">
            <HeroIllustration />
          </div>
        </div>
        <ul className="mt-20 grid gap-6 sm:grid-cols-3">
          {highlights.map(({ icon: Icon, title, text }) => (
            <li key={title} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
              <span className="flex h-10 w-10 items-center justify-center rounded-lg bg-brand-50 text-brand-600">
                <Icon />
              </span>
              <h2 className="mt-4 text-base font-semibold text-slate-900">{title}</h2>
              <p className="mt-2 text-sm leading-6 text-slate-600">{text}</p>
            </li>
          ))}
        </ul>
      </div>
    </div>
  )
}

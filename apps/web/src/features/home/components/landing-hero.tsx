/** The signed-out home: the landing hero of the specification (§1). */
export function LandingHero() {
  return (
    <main className="mx-auto flex min-h-screen max-w-5xl flex-col justify-center px-6 py-24">
      <p className="text-sm font-semibold tracking-widest text-brand-600 uppercase">
        Veloptima · Performance. Perfected.
      </p>
      <h1 className="mt-4 text-4xl font-bold tracking-tight text-slate-900 sm:text-6xl">
        Use your energy more wisely and become faster.
      </h1>
      <p className="mt-6 max-w-2xl text-lg leading-8 text-slate-600">
        Optimize your pacing strategy and equipment choice to enhance your performance on the bike.
      </p>
      <div className="mt-10 flex items-center gap-x-6">
        <a
          href="/pricing"
          className="text-sm leading-6 font-semibold text-slate-900 hover:text-brand-600"
        >
          Learn more <span aria-hidden="true">→</span>
        </a>
      </div>
    </main>
  )
}

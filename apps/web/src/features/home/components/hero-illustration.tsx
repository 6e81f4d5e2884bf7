// A drawing of what the product does: a course profile with a pacing plan above it (more power
// on the climbs, less on the descents). Decorative; the text beside it says the same.

/** Elevation of the drawn course at x ∈ [0, 1] (a rolling profile with one long climb). */
const elevation = (x: number) =>
  0.35 + 0.25 * Math.sin(x * 5.2) * Math.exp(-((x - 0.55) ** 2) * 3) + 0.18 * x

const N = 48
const W = 480
const H = 220

export function HeroIllustration() {
  const xs = Array.from({ length: N + 1 }, (_, i) => i / N)
  const ground = xs.map((x) => [x * W, H - elevation(x) * 140] as const)
  const profile = `M0 ${H} ${ground.map(([x, y]) => `L${x.toFixed(1)} ${y.toFixed(1)}`).join(' ')} L${W} ${H} Z`
  // The plan: power follows the gradient (above average uphill, below downhill), in steps.
  const steps = xs.slice(0, -1).map((x, i) => {
    const grade = (elevation(xs[i + 1]!) - elevation(x)) * N
    return { x: x * W, w: W / N, y: 70 - Math.max(-1, Math.min(1, grade * 0.7)) * 32 }
  })
  const plan = steps
    .map((s) => `L${s.x.toFixed(1)} ${s.y.toFixed(1)} L${(s.x + s.w).toFixed(1)} ${s.y.toFixed(1)}`)
    .join(' ')
  return (
    <div aria-hidden="true" className="rounded-3xl bg-white p-5 shadow-xl ring-1 ring-slate-200">
      <div className="flex items-center justify-between text-xs font-semibold text-slate-500">
        <span>Pacing plan</span>
        <span className="flex items-center gap-3">
          <span className="flex items-center gap-1">
            <span className="h-0.5 w-4 rounded bg-brand-500" /> Power
          </span>
          <span className="flex items-center gap-1">
            <span className="h-2 w-4 rounded-sm bg-slate-200" /> Elevation
          </span>
        </span>
      </div>
      <svg viewBox={`0 0 ${W} ${H}`} className="mt-3 h-auto w-full">
        <defs>
          <linearGradient id="hero-ground" x1="0" x2="0" y1="0" y2="1">
            <stop offset="0" stopColor="#cbd5e1" />
            <stop offset="1" stopColor="#f1f5f9" />
          </linearGradient>
        </defs>
        <path d={profile} fill="url(#hero-ground)" />
        <line x1="0" x2={W} y1="70" y2="70" stroke="#94a3b8" strokeDasharray="4 6" />
        <path
          d={`M0 ${steps[0]!.y.toFixed(1)} ${plan}`}
          fill="none"
          stroke="#f97316"
          strokeWidth="3"
          strokeLinejoin="round"
        />
      </svg>
    </div>
  )
}

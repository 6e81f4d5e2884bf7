import { TyrePressureCalculator } from './tyre-pressure-calculator.tsx'
import { WheelCalculator } from './wheel-calculator.tsx'

/**
 * /tools: the tyre-pressure and wheel-depth calculators side by side (stacked on small
 * screens), inside the shell's plain page (breadcrumbs, width, padding). Both run the engine in
 * the browser and recompute as the user types.
 */
export function ToolsPage() {
  return (
    <div className="mt-4">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">Tools</h1>
      <p className="mt-2 max-w-3xl text-sm text-slate-600">
        Two quick calculators that show their assumptions. Both are our models, built on published
        measurements; every number recomputes as you type, in your units.
      </p>
      <div className="mt-6 grid grid-cols-1 items-start gap-6 lg:grid-cols-2">
        <TyrePressureCalculator />
        <WheelCalculator />
      </div>
    </div>
  )
}

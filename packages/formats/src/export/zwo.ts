// The plan as a Zwift workout (.zwo, also read by TrainerRoad, MyWhoosh and Golden Cheetah): one
// SteadyState block per run of equal target power along the plan's predicted time (erg.ts), its
// power a fraction of the rider's FTP, taken as their CP (docs/web-app.md: CP = FTP). Zwift reads
// durations in whole seconds: each block ends at the plan's elapsed time rounded to the second,
// so the blocks add up to the plan's time within half a second.
import { checkFtp, timedSteps } from './erg.ts'
import type { PlanExport } from './types.ts'

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
}
const xmlText = (s: string) => s.replace(/[&<>"']/g, (c) => ENTITIES[c]!)

export function writePlanZwo(plan: PlanExport, options: { cpW: number; author?: string }): string {
  const ftp = checkFtp(options.cpW, 'ZWO')
  const steps = timedSteps(plan)
  const blocks = steps
    .map((s) => ({ seconds: Math.round(s.endS) - Math.round(s.startS), powerW: s.powerW }))
    .filter((b) => b.seconds > 0)
    .map((b) => `    <SteadyState Duration="${b.seconds}" Power="${(b.powerW / ftp).toFixed(3)}"/>`)
  const total = steps.at(-1)!.endS
  const description =
    `Race plan: ${blocks.length} blocks over the predicted ${(total / 60).toFixed(1)} min, ` +
    `powers relative to an FTP of ${Math.round(ftp)} W (the rider's CP).`
  return `<?xml version="1.0" encoding="UTF-8"?>
<workout_file>
  <author>${xmlText(options.author ?? 'Veloptima')}</author>
  <name>${xmlText(plan.name)}</name>
  <description>${xmlText(description)}</description>
  <sportType>bike</sportType>
  <tags/>
  <workout>
${blocks.join('\n')}
  </workout>
</workout_file>
`
}

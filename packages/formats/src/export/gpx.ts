import { planTargets, sectionTargetKeys, targetStarts } from './targets.ts'
import { checkPoints, checkSections, pointAt, sectionAt, type PlanExport } from './types.ts'

export const PLAN_XMLNS = 'https://veloptima.app/xmlns/plan/1'

const esc = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/**
 * GPX 1.1 track of the course with the plan: a waypoint where each target starts (named by its
 * power, "310 W", typed "Target A" as on the race sheet), the sections in the metadata's
 * extensions (`vo:plan`/`vo:section`, with their target's key when known) and each point's target
 * power (`vo:power`), so a tool that reads GPX extensions can show the target along the route;
 * others still get a valid route with the waypoints.
 */
export function writePlanGpx(plan: PlanExport): string {
  checkSections(plan)
  const points = checkPoints(plan)
  const targets = planTargets(plan.sections)
  const keys = plan.sections.every((s) => s.target !== undefined)
    ? sectionTargetKeys(targets, plan.sections.length)
    : null
  const sections = plan.sections
    .map(
      (s, i) =>
        `      <vo:section start_m="${s.startM.toFixed(1)}" end_m="${s.endM.toFixed(1)}" power_w="${Math.round(s.powerW)}"${s.speedMps !== undefined ? ` speed_mps="${s.speedMps.toFixed(3)}"` : ''}${s.durationS !== undefined ? ` duration_s="${s.durationS.toFixed(1)}"` : ''}${s.label ? ` label="${esc(s.label)}"` : ''}${keys ? ` target="${keys[i]}"` : ''}/>`,
    )
    .join('\n')
  const km = (m: number) => (m / 1000).toFixed(1)
  const wpts = targetStarts(targets)
    .map(({ target: t, range }) => {
      const p = pointAt(points, range.startM)
      return `  <wpt lat="${p.lat.toFixed(7)}" lon="${p.lon.toFixed(7)}"><ele>${p.ele.toFixed(1)}</ele><name>${Math.round(t.powerW)} W</name><desc>${esc(`Target ${t.key}: ${Math.round(t.powerW)} W, ${t.label}, km ${km(range.startM)}–${km(range.endM)}`)}</desc><type>Target ${t.key}</type></wpt>`
    })
    .join('\n')
  const trkpts = points
    .map((p) => {
      const power = Math.round(sectionAt(plan.sections, p.distanceM).powerW)
      return `      <trkpt lat="${p.lat.toFixed(7)}" lon="${p.lon.toFixed(7)}"><ele>${p.ele.toFixed(1)}</ele><extensions><vo:power>${power}</vo:power><vo:distance>${p.distanceM.toFixed(1)}</vo:distance></extensions></trkpt>`
    })
    .join('\n')
  return `<?xml version="1.0" encoding="UTF-8"?>
<gpx version="1.1" creator="Veloptima" xmlns="http://www.topografix.com/GPX/1/1" xmlns:vo="${PLAN_XMLNS}">
  <metadata>
    <name>${esc(plan.name)}</name>
    <extensions>
    <vo:plan>
${sections}
    </vo:plan>
    </extensions>
  </metadata>
${wpts}
  <trk>
    <name>${esc(plan.name)}</name>
    <trkseg>
${trkpts}
    </trkseg>
  </trk>
</gpx>
`
}

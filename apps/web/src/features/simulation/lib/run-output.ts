// The result of a run, in the shape the server stores, and the same summary computed in the
// browser for the preview, so one set of components shows both. The conversion lives in the
// engine (optimize/run-output.ts), shared with the API's job.
export { equipmentOutput, pacingOf, pacingOutput } from '@veloptima/engine'
export type {
  EquipmentOutput,
  PacingOutput,
  RankedOutput,
  RideSeries,
  RunOutput,
  RunPlanSection as PlanSection,
} from '@veloptima/engine'

/** "Wheels: Deep carbon, Tyres: Latex" for a combination. */
export const choicesLabel = (choices: Record<string, string>) =>
  Object.entries(choices)
    .map(([g, o]) => `${g}: ${o}`)
    .join(', ')

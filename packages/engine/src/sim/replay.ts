// Replaying a recorded ride: the recording's power per segment (sim/recorded.ts), ridden by the
// model from a standstill, compared with the recording's own moving times.
//
// Stops are not part of the model: the recording's stationary time (intervals slower than the
// stop speed) is reported apart and never predicted. A segment where the recorded power cannot
// keep the modelled rider moving (braking to a stop, a push up a wall, a power dropout from a
// standstill) is ridden at the recorded moving speed instead and counted in `pinned*`, so the
// moving-time prediction never stalls and says how much of it was taken from the recording.
import type { Course } from '../course/types.ts'
import type { Environment, Rider } from './model.ts'
import type { RecordedSegments, ReplaySummary } from './recorded.ts'
import { simulate } from './simulate.ts'
import type { SimulationOptions, SimulationResult } from './simulate.ts'

export interface ReplayReport extends ReplaySummary {
  /** The underlying simulation (pacing 'recorded'). */
  simulation: SimulationResult
}

export interface ReplayInput {
  course: Course
  recorded: RecordedSegments
  rider: Rider
  environment?: Environment
  options?: SimulationOptions
}

/**
 * Replays a recording on its course: the model rides each segment with the recorded power
 * (`simulate` with pacing 'recorded', from a standstill) and the result is compared with the
 * recording's moving time, in total and per kilometre. Never stalls (see the file's header).
 * The recorded series must have one value per course segment (EngineInputError otherwise).
 */
export function replayRecorded(input: ReplayInput): ReplayReport {
  const { course, recorded } = input
  const sim = simulate({
    course,
    rider: input.rider,
    environment: input.environment ?? {},
    options: input.options ?? {},
    pacing: {
      type: 'recorded',
      powerW: recorded.powerW,
      movingTimeS: recorded.movingTimeS,
      stationaryTimeS: recorded.stationaryTimeS,
    },
  })
  return { ...sim.replay!, simulation: sim }
}

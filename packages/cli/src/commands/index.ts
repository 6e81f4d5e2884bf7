// The command table: one line per command. Each `run` returns the exit code; it may throw
// UsageError, EngineInputError or ImportError for bad input (printed as one line, exit 2).
import { aeroCommand } from './aero.ts'
import { airDensityCommand } from './air-density.ts'
import { calibrateCommand } from './calibrate.ts'
import { courseCommand } from './course.ts'
import { durabilityCommand } from './durability.ts'
import { EXPORT_FORMATS, exportCommand } from './export.ts'
import { optimizeCommand } from './optimize.ts'
import { simulateCommand } from './simulate.ts'
import { tyrePressureCommand } from './tyre-pressure.ts'
import { wbalCommand } from './wbal.ts'
import { wheelsCommand } from './wheels.ts'

export interface Command {
  usage: string
  run: (args: string[]) => Promise<number>
}

export const commands: Record<string, Command> = {
  course: { usage: 'course FILE [--segment-length-m M]', run: courseCommand },
  simulate: { usage: 'simulate SCENARIO.json   ("-" reads stdin)', run: simulateCommand },
  optimize: { usage: 'optimize SCENARIO.json', run: optimizeCommand },
  export: {
    usage: `export --format ${EXPORT_FORMATS.join('|')} [--out FILE] [--cp W] [--course FILE] [--name NAME] RESULT.json`,
    run: exportCommand,
  },
  'air-density': {
    usage: 'air-density --temperature-c T [--pressure-pa P | --altitude-m H] [--humidity RH]',
    run: airDensityCommand,
  },
  wbal: {
    usage: 'wbal --cp W --w-prime J [--model skiba2015|skiba2012] POWER.csv',
    run: wbalCommand,
  },
  'tyre-pressure': { usage: 'tyre-pressure INPUT.json', run: tyrePressureCommand },
  wheels: { usage: 'wheels INPUT.json', run: wheelsCommand },
  aero: {
    usage: 'aero SCENARIO.json   (file, mass_kg, air; prints CdA and Crr per run as JSON)',
    run: aeroCommand,
  },
  calibrate: {
    usage:
      'calibrate SCENARIO.json   (ride file, mass_kg, bike_mass_kg, air; prints CdA, Crr, wind)',
    run: calibrateCommand,
  },
  durability: {
    usage: 'durability RIDE.fit [RIDE2.fit …]   (power lost per 1,000 kJ of work, as JSON)',
    run: durabilityCommand,
  },
}

// `veloptima air-density --temperature-c T --pressure-pa P --humidity H`: humid-air density.
// Humidity is a fraction (0–1); values above 1 are read as percent. Without --pressure-pa the
// ISA pressure at --altitude-m (default 0) is used.
import { airDensity, isaPressurePa } from '@veloptima/engine'
import { numberFlag, parseArgs, printJson, requireFlag, UsageError } from '../args.ts'

export async function airDensityCommand(args: string[]): Promise<number> {
  const p = parseArgs(args, ['temperature-c', 'pressure-pa', 'humidity', 'altitude-m'])
  if (p.positionals.length > 0) throw new UsageError(`unexpected argument "${p.positionals[0]}"`)
  const t = requireFlag(
    numberFlag(p, 'temperature-c', -60, 60),
    'temperature-c',
    'the air temperature in °C',
  )
  const altitude = numberFlag(p, 'altitude-m', -500, 9000) ?? 0
  const pressure = numberFlag(p, 'pressure-pa', 30000, 120000) ?? isaPressurePa(altitude)
  let h = numberFlag(p, 'humidity', 0, 100) ?? 0
  if (h > 1) h /= 100
  printJson({ air_density_kg_m3: Math.round(airDensity(t, pressure, h) * 1e6) / 1e6 })
  return 0
}

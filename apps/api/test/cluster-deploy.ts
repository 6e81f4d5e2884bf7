// The deploy/ folder as an operator installs it, read for the test cluster (cluster.ts): the
// environment files as systemd reads them and the units' commands and settings. Nothing is
// restated here: a change to deploy/ changes what the multi-process tests start.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { roleCommand, roles } from '../../../scripts/roles.mjs'

const root = new URL('../../../', import.meta.url).pathname
const deploy = (path: string) => join(root, 'deploy', path)

/** KEY=VALUE lines of a systemd EnvironmentFile (comments and blank lines skipped). */
export function readEnvFile(name: string): Record<string, string> {
  const env: Record<string, string> = {}
  for (const line of readFileSync(deploy(`env/${name}`), 'utf8').split('\n')) {
    const text = line.trim()
    if (!text || text.startsWith('#')) continue
    const at = text.indexOf('=')
    if (at < 1) throw new Error(`deploy/env/${name}: not KEY=VALUE: ${text}`)
    env[text.slice(0, at)] = text.slice(at + 1)
  }
  return env
}

export type Unit = {
  /** The ExecStart command line, split on spaces. */
  execStart: string[]
  workingDirectory: string
  /** `Environment=` settings, the instance name %i put in. */
  environment: Record<string, string>
  /** The `EnvironmentFile=` paths, in order (each overrides `Environment=`). */
  environmentFiles: string[]
}

/** A unit of deploy/systemd, for instance `instance` when it is a template. */
export function readUnit(name: string, instance = ''): Unit {
  const unit: Unit = { execStart: [], workingDirectory: '', environment: {}, environmentFiles: [] }
  for (const line of readFileSync(deploy(`systemd/${name}`), 'utf8').split('\n')) {
    const text = line.trim().replaceAll('%i', instance)
    const at = text.indexOf('=')
    if (text.startsWith('#') || at < 1) continue
    const [key, value] = [text.slice(0, at), text.slice(at + 1)]
    if (key === 'ExecStart') unit.execStart = value.split(/\s+/)
    if (key === 'WorkingDirectory') unit.workingDirectory = value
    if (key === 'EnvironmentFile') unit.environmentFiles.push(value)
    if (key === 'Environment') {
      const eq = value.indexOf('=')
      unit.environment[value.slice(0, eq)] = value.slice(eq + 1)
    }
  }
  return unit
}

/**
 * The command a unit starts, run from this checkout: its node (the release's
 * node_modules/.bin/node) is this test's node, its WorkingDirectory the repository; the built
 * file stays, unless the build is older than the sources, when the role's TypeScript source
 * runs through tsx instead (as scripts/roles.mjs decides). Throws unless ExecStart is node on
 * one built file: the process the supervisor watches must be the server itself.
 */
export function unitCommand(unit: Unit, role: 'serve' | 'worker'): string[] {
  const [node, file, ...rest] = unit.execStart
  if (!node?.endsWith('/node') || file !== roles[role].built || rest.length) {
    throw new Error(
      `ExecStart is not node on ${roles[role].built} alone: ${unit.execStart.join(' ')}`,
    )
  }
  return roleCommand(role).args
}

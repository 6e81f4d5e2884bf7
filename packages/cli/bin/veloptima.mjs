#!/usr/bin/env node
// The `veloptima` command line: runs the TypeScript sources through tsx.
import { register } from 'tsx/esm/api'

register()
const { main } = await import('../src/main.ts')
process.exitCode = await main(process.argv.slice(2))

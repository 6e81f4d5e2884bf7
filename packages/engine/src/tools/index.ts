// Standalone tools: tyre-pressure and wheel recommendations (docs/engine/tools.md).
export * from './tyre-pressure.ts'
export { ToolInputError } from './validate.ts'
export * from './wheel-tables.ts'
export * from './stability.ts'
export * from './wheels.ts'

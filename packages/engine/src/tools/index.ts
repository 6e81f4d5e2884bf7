// Standalone tools: tyre-pressure and wheel recommendations (issue 9).
export * from './tyre-pressure.ts'
export { ToolInputError } from './validate.ts'
export * from './wheel-tables.ts'
export * from './stability.ts'
export * from './wheels.ts'

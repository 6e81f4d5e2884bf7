// Standalone tools: tyre-pressure and wheel recommendations (issue 9).
export * from './tyre-pressure.ts'
export { ToolInputError } from './validate.ts'

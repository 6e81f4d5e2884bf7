// The engine's curated public API: see ARCHITECTURE.md.
export {}
export * from './tools/index.ts'

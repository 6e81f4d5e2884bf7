export * from './client.ts'
export * as schema from './schema/index.ts'
export * from './schema/index.ts'
export { PgliteThread, PgliteThreadError } from './pglite-thread-client.ts'

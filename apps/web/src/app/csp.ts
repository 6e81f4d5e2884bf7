// The app runs under a Content-Security-Policy without 'unsafe-eval' (apps/api
// plugins/security.ts). Zod compiles object parsers with `new Function` unless told not to, and
// even its probe for eval is reported as a violation: parse without it. Imported first by
// main.tsx, before any schema is used.
import { config } from 'zod/v4/core'

config({ jitless: true })

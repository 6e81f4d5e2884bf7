// The app runs under a Content-Security-Policy without 'unsafe-eval' (apps/api
// plugins/security.ts). Zod compiles object parsers with `new Function` unless it runs
// "jitless", and even its probe for eval is reported as a violation. Zod keeps its configuration
// in one object on globalThis, shared by every copy, and adopts the object it finds there: it is
// created here, imported first by main.tsx, before any chunk loads zod (which lives in the
// pages' chunks, not in the first page's). csp.spec.ts fails if zod ever reaches for eval.
const shared = globalThis as { __zod_globalConfig?: { jitless?: boolean } }
shared.__zod_globalConfig = { ...shared.__zod_globalConfig, jitless: true }

export {}

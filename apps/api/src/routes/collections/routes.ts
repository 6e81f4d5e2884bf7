import type { FastifyInstance } from 'fastify'
import type { SQL } from 'drizzle-orm'
import { listQuerySchema, optimizationListQuerySchema } from '@veloptima/contracts'
import type { z } from 'zod'
import { callerOf } from '../../plugins/authenticate.ts'
import { optimizationsOfType } from '../../repositories/collection.ts'
import {
  aeroSessionSpec,
  courseSpec,
  deviceSpec,
  fileSpec,
  optimizationSpec,
  riderSetupSpec,
} from '../../services/collection-specs.ts'
import { CollectionService } from '../../services/collections.ts'
import { parse } from '../../services/validation.ts'
import { CLAIMS, user } from '../../plugins/policy.ts'

type Options<Q extends typeof listQuerySchema> = {
  query?: Q
  filter?: (q: z.output<Q>) => SQL | undefined
  /** Files are created by upload and deleted by the files routes. */
  metadataOnly?: boolean
  /** Who may list and read items, and who may create, change, move and delete them. */
  read: ReturnType<typeof user>
  write: ReturnType<typeof user>
}

/** list / get / create / update / delete of one owned collection under `/api/<path>`. */
function collectionRoutes<Row extends { id: string }, Q extends typeof listQuerySchema>(
  app: FastifyInstance,
  path: string,
  service: CollectionService<Row>,
  options: Options<Q>,
) {
  const { read, write } = options
  const querySchema = options.query ?? listQuerySchema
  const id = (request: { params: unknown }) => (request.params as { id: string }).id

  app.get(`/${path}`, read, async (request) => {
    const q = parse(querySchema, request.query, 'query')
    return service.list(callerOf(request).uid, q, options.filter?.(q as z.output<Q>))
  })
  app.patch(`/${path}/:id`, write, async (request) =>
    service.update(callerOf(request).uid, id(request), request.body ?? {}),
  )
  if (options.metadataOnly) return
  app.get(`/${path}/:id`, read, async (request) => service.get(callerOf(request).uid, id(request)))
  app.post(`/${path}`, write, async (request, reply) =>
    reply.status(201).send(await service.create(callerOf(request).uid, request.body ?? {})),
  )
  app.post(`/${path}/:id/move`, write, async (request) =>
    service.move(callerOf(request).uid, id(request), request.body ?? {}),
  )
  app.delete(`/${path}/:id`, write, async (request, reply) => {
    await service.remove(callerOf(request).uid, id(request))
    return reply.status(204).send()
  })
}

export async function collectionsRoutes(app: FastifyInstance) {
  const db = app.deps.database.db
  // The simulation area's collections need its claim; the tools (any signed-in user) read courses.
  const simulation = user({ claims: [CLAIMS.simulations] })
  const aero = user({ claims: [CLAIMS.aero] })
  const either = user({ anyClaim: [CLAIMS.simulations, CLAIMS.aero] })
  collectionRoutes(app, 'rider-setups', new CollectionService(db, riderSetupSpec), {
    read: simulation,
    write: simulation,
  })
  collectionRoutes(app, 'courses', new CollectionService(db, courseSpec), {
    read: user(),
    write: simulation,
  })
  collectionRoutes(app, 'optimizations', new CollectionService(db, optimizationSpec), {
    query: optimizationListQuerySchema,
    filter: (q) => (q.type ? optimizationsOfType(q.type) : undefined),
    read: simulation,
    write: simulation,
  })
  collectionRoutes(app, 'devices', new CollectionService(db, deviceSpec), {
    read: aero,
    write: aero,
  })
  collectionRoutes(app, 'aero-sessions', new CollectionService(db, aeroSessionSpec), {
    read: aero,
    write: aero,
  })
  // Files: uploads of either area; notifications link exports, so anyone signed in lists theirs.
  collectionRoutes(app, 'files', new CollectionService(db, fileSpec), {
    metadataOnly: true,
    read: user(),
    write: either,
  })
}

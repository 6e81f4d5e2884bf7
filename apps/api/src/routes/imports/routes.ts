import type { FastifyInstance } from 'fastify'
import multipart from '@fastify/multipart'
import { z } from 'zod'
import { callerOf } from '../../plugins/authenticate.ts'
import { CLAIMS, user } from '../../plugins/policy.ts'
import { courseSpec } from '../../services/collection-specs.ts'
import { readUpload } from '../files/routes.ts'
import { importCourseFile } from './service.ts'

const importQuery = z.object({ owner: z.string().optional(), name: z.string().max(200).optional() })

export async function importRoutes(app: FastifyInstance) {
  await app.register(multipart)

  app.post('/courses/import', user({ claims: [CLAIMS.simulations] }), async (request, reply) => {
    const caller = callerOf(request)
    const query = importQuery.parse(request.query)
    const upload = await readUpload(request, app.deps.config.MAX_UPLOAD_BYTES)
    const owner = await app.files.resolveOwner(caller.uid, query.owner ?? upload.fields.owner)
    const { course, cleaning, warnings } = await importCourseFile(
      app.deps.database,
      app.files,
      owner,
      {
        filename: upload.filename,
        bytes: upload.bytes,
        name: query.name ?? upload.fields.name,
      },
      app.jobs.interactivePool(),
    )
    return reply.status(201).send({
      ...(courseSpec.listJson!(course) as Record<string, unknown>),
      segment_count: course.segments.length,
      cleaning: {
        points_read: cleaning.pointsRead,
        points_used: cleaning.pointsUsed,
        elevation_filled: cleaning.elevationFilled,
        spikes_removed: cleaning.spikesRemoved,
        distance_source: cleaning.distanceSource,
        position_spikes_removed: cleaning.positionSpikes.length,
      },
      warnings,
    })
  })
}

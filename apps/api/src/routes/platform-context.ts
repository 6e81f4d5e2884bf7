import type { FastifyRequest } from 'fastify'
import type { Db } from '@veloptima/db'
import { callerOf } from '../plugins/authenticate.ts'
import { AeroService } from '../services/aero.ts'
import { NotificationService } from '../services/notifications.ts'
import { ResultService } from '../services/results.ts'
import { TeamService } from '../services/teams.ts'
import { UserService } from '../services/users.ts'

/** The services behind the platform routes (one set per app). */
export type PlatformServices = {
  users: UserService
  teams: TeamService
  notifications: NotificationService
  results: ResultService
  aero: AeroService
}

export function createPlatformServices(db: Db, trialDays?: number): PlatformServices {
  return {
    users: new UserService(db, trialDays),
    teams: new TeamService(db),
    notifications: new NotificationService(db),
    results: new ResultService(db),
    aero: new AeroService(db),
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    platform: PlatformServices
  }
}

export const uidOf = (request: FastifyRequest) => callerOf(request).uid
export const param = (request: FastifyRequest, name: string) =>
  (request.params as Record<string, string>)[name] ?? ''

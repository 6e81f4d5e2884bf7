import {
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core'
import { createdAt, generatedId, parentId } from './columns.ts'
import type { JsonObject, SessionDevice } from './json-types.ts'
import { ownerColumns, ownerConstraints, timestamps } from './owner.ts'
import { files } from './simulation.ts'

/** A registered aero sensor. */
export const devices = pgTable(
  'devices',
  {
    id: generatedId(),
    ...ownerColumns(),
    serial: text('serial').notNull(),
    name: text('name').notNull(),
    model: text('model'),
    firmware: text('firmware'),
    /** Calibration factors (e.g. air-speed factor, pitot offset). */
    calibration: jsonb('calibration').$type<JsonObject>().notNull().default({}),
    ...timestamps(),
  },
  (t) => [...ownerConstraints('devices', t)],
)

export const aeroSessionFormat = pgEnum('aero_session_format', ['v5', 'v6'])

/** A test day (track or road) with its devices and runs. */
export const aeroSessions = pgTable(
  'aero_sessions',
  {
    id: generatedId(),
    ...ownerColumns(),
    name: text('name').notNull(),
    format: aeroSessionFormat('format').notNull().default('v6'),
    startedAt: timestamp('started_at', { withTimezone: true }),
    location: text('location'),
    notes: text('notes'),
    devices: jsonb('devices').$type<SessionDevice[]>().notNull().default([]),
    /** Temperature, pressure, humidity, wind… measured on the day. */
    environment: jsonb('environment').$type<JsonObject>().notNull().default({}),
    sourceFileId: uuid('source_file_id').references(() => files.id, { onDelete: 'set null' }),
    ...timestamps(),
  },
  (t) => [...ownerConstraints('aero_sessions', t)],
)

/** One run of a session: a time range (or lap) ridden in one configuration. */
export const aeroRuns = pgTable(
  'aero_runs',
  {
    id: generatedId(),
    sessionId: parentId('session_id', () => aeroSessions.id),
    name: text('name').notNull(),
    position: integer('position').notNull().default(0),
    /** Position, helmet, wheels… as labelled by the tester. */
    configuration: jsonb('configuration').$type<Record<string, string>>().notNull().default({}),
    isBaseline: boolean('is_baseline').notNull().default(false),
    /** Seconds from the start of the session's data. */
    startTime: doublePrecision('start_time'),
    endTime: doublePrecision('end_time'),
    lap: integer('lap'),
    /** CdA, Crr with their uncertainty, ΔCdA to baseline… */
    results: jsonb('results').$type<JsonObject>(),
    ...timestamps(),
  },
  (t) => [index('aero_runs_session_idx').on(t.sessionId, t.position)],
)

/** v6: `cdam` (CdA measurement windows) and `run` (a run's aggregate); v5: `raw` sensor data. */
export const aeroBlockKind = pgEnum('aero_block_kind', ['cdam', 'run', 'raw'])

export const aeroDataBlocks = pgTable(
  'aero_data_blocks',
  {
    id: generatedId(),
    sessionId: parentId('session_id', () => aeroSessions.id),
    runId: uuid('run_id').references(() => aeroRuns.id, { onDelete: 'cascade' }),
    deviceId: uuid('device_id').references(() => devices.id, { onDelete: 'set null' }),
    kind: aeroBlockKind('kind').notNull(),
    /** Order of the block within its session. */
    sequence: integer('sequence').notNull().default(0),
    startTime: doublePrecision('start_time'),
    endTime: doublePrecision('end_time'),
    /** Columns of samples ({t:[…], power:[…], speed:[…]…}) or a run's aggregate values. */
    data: jsonb('data').$type<JsonObject>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('aero_data_blocks_session_idx').on(t.sessionId, t.kind, t.sequence),
    index('aero_data_blocks_run_idx').on(t.runId),
  ],
)

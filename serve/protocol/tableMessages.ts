/**
 * The protocol's messages about a table as a whole (protocol.ts holds the unions): its id, what
 * table_created, resumed and joined tell of it, and the messages of tables people join (issue 42):
 * join_table, start_table, joined, started, seats, and next_table (playing again with the same people).
 */
import { z } from 'zod';
import { presetNameSchema, ruleOverridesSchema } from '../../env/index.js';
import { text } from '../../support/zod.js';
import { requestIdSchema, seatInfoSchema } from './protocolParts.js';

export const tableId = text(64).describe('A table id from table_created.');

export const joinTable = z
  .strictObject({
    type: z.literal('join_table'),
    id: requestIdSchema,
    code: text(100).describe('The invite code of table_created.invite (a link carries it as ?join=CODE).'),
    name: text(40).optional().describe('What the other players see for this seat (default: "Guest" and the seat number).'),
  })
  .describe(
    "Takes a guest seat of another connection's table with its invite; answered by joined (this seat's own token) and, once the game runs, this seat's states.",
  )
  .meta({ id: 'JoinTable' });

export const startTable = z
  .strictObject({ type: z.literal('start_table'), id: requestIdSchema, table: tableId })
  .describe(
    "The table's creator starts a table waiting in its lobby: guest seats nobody joined are played by the stand-in bot. Answered by started.",
  )
  .meta({ id: 'StartTable' });

// ---------------------------------------------------------------- server → client

const tableInfo = {
  table: z.string(),
  token: z.string().describe('Keep it: resume takes the table back after a reconnect.'),
  preset: presetNameSchema,
  rules: ruleOverridesSchema.describe('The overrides given.'),
  settledRules: z.record(z.string(), z.unknown()).describe('Every rule option as settled for this table.'),
  players: z.int(),
  seats: z.array(seatInfoSchema),
  thinkMs: z.int(),
  moveDeadlineMs: z.int().nullable(),
  lobby: z.boolean().describe('The table waits for start_table (guest seats to join).'),
};

const inviteInfo = z
  .strictObject({
    code: z.string().describe('Give it to friends: join_table takes a guest seat with it (the page links it as ?join=CODE).'),
    expiresAt: z.int().describe('When the invite stops taking joins (ms since 1970).'),
  })
  .nullable()
  .describe('The invite of a table with guest seats, told only to its creator; null without guest seats.');

export const tableCreated = z
  .strictObject({ type: z.literal('table_created'), id: requestIdSchema, ...tableInfo, invite: inviteInfo })
  .meta({ id: 'TableCreated' });
export const resumed = z
  .strictObject({
    type: z.literal('resumed'),
    id: requestIdSchema,
    ...tableInfo,
    counter: z.int(),
    invite: inviteInfo,
    seat: z.int().nullable().describe("The guest seat a guest's token took back; null for the creator, who plays the client seats."),
  })
  .meta({ id: 'Resumed' });
export const joined = z
  .strictObject({
    type: z.literal('joined'),
    id: requestIdSchema,
    ...tableInfo,
    token: z.string().describe("This seat's own token: resume takes the seat back after a reconnect."),
    seat: z.int().describe('The guest seat taken.'),
    counter: z.int(),
  })
  .describe('The answer to join_table.')
  .meta({ id: 'Joined' });
export const nextTable = z
  .strictObject({
    type: z.literal('next_table'),
    follows: z.string().describe('The table played before, which this connection has now left.'),
    ...tableInfo,
    token: z.string().describe("This seat's own token at the new table: resume takes the seat back after a reconnect."),
    seat: z.int().describe('The guest seat taken at the new table (the same seat as before).'),
    counter: z.int(),
  })
  .describe(
    'Told to each guest still at a table when its creator plays again with friends (create_table with follows): the guest now holds the same seat at the new table, with its own token, as if it had joined it; the table before is left. A guest who had left is told nothing.',
  )
  .meta({ id: 'NextTable' });
export const started = z
  .strictObject({ type: z.literal('started'), id: requestIdSchema, table: z.string() })
  .describe('The answer to start_table; the state of each seat follows.')
  .meta({ id: 'Started' });
export const seatsMessage = z
  .strictObject({
    type: z.literal('seats'),
    table: z.string(),
    seats: z.array(seatInfoSchema),
    lobby: z.boolean(),
  })
  .describe('Told to every person at a table with guest seats when someone joins, leaves, returns, or the table starts.')
  .meta({ id: 'Seats' });

export const tableClosed = z
  .strictObject({
    type: z.literal('table_closed'),
    table: z.string(),
    reason: z
      .enum(['idle', 'resumed_elsewhere', 'shutdown', 'creator_left'])
      .describe('creator_left: the creator of a table with guests left it.'),
  })
  .describe('The server closed a table of this connection (or it moved to another connection).')
  .meta({ id: 'TableClosed' });

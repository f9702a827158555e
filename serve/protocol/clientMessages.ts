/**
 * The protocol's client side (serve/protocol/protocol.ts assembles the rest): its version and
 * subprotocols, every message a client may send as one zod discriminated union (validated at one
 * edge, `parseClientMessage`), and the lighter union the edge checks on the event loop.
 */
import { z } from 'zod';
import {
  ACTION_COUNT,
  DEFAULT_PRESET,
  HAND_CAP,
  MAX_PLAYERS,
  MIN_PLAYERS,
  presetNameSchema,
  ruleOverridesSchema,
} from '../../env/index.js';
import { intFrom, text } from '../../support/zod.js';
import { cardSchema, viewJsonSchema } from './viewJson.js';
import { outlookRequestSchema, requestIdSchema } from './protocolParts.js';
import { joinTable, startTable, tableId } from './tableMessages.js';

export const PROTOCOL_VERSION = 1;
export const SUBPROTOCOLS = { json: 'yaniv.v1.json', msgpack: 'yaniv.v1.msgpack' } as const;
export type Encoding = keyof typeof SUBPROTOCOLS;

const seat = intFrom(0, MAX_PLAYERS - 1);
const seed = intFrom(-(2 ** 31), 2 ** 31 - 1);
const agentName = text(200).describe('One of welcome.agents[].name (default: the first).');

const hello = z
  .strictObject({
    type: z.literal('hello'),
    id: requestIdSchema,
    version: z.int({ error: 'must be an integer' }).describe(`The protocol version the client speaks: ${PROTOCOL_VERSION}.`),
    client: text(100).optional().describe("The client's name and version, for the logs."),
  })
  .describe('First message on a connection (only ping may come before it). Answered by welcome, or unsupported_version.')
  .meta({ id: 'Hello' });

const ping = z
  .strictObject({ type: z.literal('ping'), id: requestIdSchema })
  .describe('Application-level ping for browsers (which cannot send protocol pings). Answered by pong.')
  .meta({ id: 'Ping' });

const createTable = z
  .strictObject({
    type: z.literal('create_table'),
    id: requestIdSchema,
    preset: presetNameSchema
      .optional()
      .describe(
        `Rule preset (default "${DEFAULT_PRESET}"; with neither preset nor rules, the server's default rules, welcome.limits.preset/rules).`,
      ),
    rules: ruleOverridesSchema.optional().describe('Rule option overrides on top of the preset (schema: welcome.ruleOptions).'),
    seats: z
      .array(text(200), { error: 'must be a list with "client" or an agent name for each seat' })
      .min(MIN_PLAYERS, { error: `must list ${MIN_PLAYERS} to ${MAX_PLAYERS} seats` })
      .max(MAX_PLAYERS, { error: `must list ${MIN_PLAYERS} to ${MAX_PLAYERS} seats` })
      .describe(
        'One entry per seat, in seat order: "client" for a seat this connection plays, "guest" for a seat a friend joins with the invite (join_table), or the agent that plays it.',
      ),
    standIn: agentName
      .optional()
      .describe(
        'The bot that plays a guest seat nobody has joined (once the table starts), or whose person is away (left, disconnected, or out of time for a step) until they return (default: the first agent).',
      ),
    seed: seed.optional().describe('Seeds the deals and the bots (default: random). Revealed with the record at the end.'),
    follows: tableId
      .optional()
      .describe(
        'Play again with friends: a table this connection created. Each guest still at it takes the same guest seat at the new table (told next_table, with its own token), and the table before is left, as with leave.',
      ),
    thinkMs: intFrom(0, 10_000).optional().describe("Delay before each bot step, in ms (default: the server's, welcome.limits.thinkMs)."),
    moveDeadlineMs: intFrom(100, 3_600_000)
      .nullable()
      .optional()
      .describe(
        'Time a client seat has for each step, in ms; null for none (default: welcome.limits.moveDeadlineMs). When it runs out the server plays the default action.',
      ),
  })
  .describe(
    'Opens a table; answered by table_created, then a state message for each client seat. With guest seats the table waits in its lobby (seats messages tell who joined) until start_table.',
  )
  .meta({ id: 'CreateTable' });

const act = z
  .strictObject({
    type: z.literal('act'),
    id: requestIdSchema,
    table: tableId,
    seat: seat.optional().describe('The seat acting (needed only when the connection plays several seats of the table).'),
    action: intFrom(0, ACTION_COUNT - 1)
      .optional()
      .describe('An action id from state.legal (give this or cards).'),
    cards: z
      .array(cardSchema, { error: 'must be a list of card names' })
      .min(1, { error: 'must name at least one card' })
      .max(HAND_CAP, { error: `must name at most ${HAND_CAP} cards` })
      .optional()
      .describe(
        'A discard by its cards, in the order laid (give this or action): the server finds its action id, or refuses it with illegal_action and the reason.',
      ),
    counter: intFrom(0, Number.MAX_SAFE_INTEGER).describe('The counter of the state the action was chosen in.'),
  })
  .superRefine((message, ctx) => {
    if ((message.action === undefined) === (message.cards === undefined))
      ctx.addIssue({
        code: 'custom',
        path: message.action === undefined ? ['action'] : ['cards'],
        message: 'give exactly one of action (an id from state.legal) or cards (a discard by its cards)',
      });
  })
  .describe('Plays one step for a client seat; answered by acted (then event and state messages) or an error.')
  .meta({ id: 'Act' });

const adviseFields = {
  type: z.literal('advise'),
  id: requestIdSchema,
  agent: agentName.optional(),
  seed: seed.optional().describe('Seeds the agent and the Assaf-risk samples (default 0): the same request gets the same answer.'),
  outlook: outlookRequestSchema,
  table: tableId.optional().describe("Advice for a client seat at one of this connection's tables."),
  seat: seat.optional().describe('With table: the seat (when the connection plays several); with position: whose view.'),
  view: viewJsonSchema.optional().describe('The position as the seat sees it (yaniv-view/1).'),
  position: z
    .record(z.string(), z.unknown(), { error: 'must be a yaniv-position/1 object' })
    .optional()
    .describe('A yaniv-position/1 document (docs/env.md); give seat too.'),
};

type AdviseSources = { table?: unknown; view?: unknown; position?: unknown; seat?: unknown };
/** What is wrong with an advise's choice of position (none: it is right); the refinement of both advise schemas. */
export function adviseSourceIssues(message: AdviseSources): { path: string[]; message: string }[] {
  const issues: { path: string[]; message: string }[] = [];
  const sources = (['table', 'view', 'position'] as const).filter((key) => message[key] !== undefined);
  if (sources.length !== 1)
    issues.push({ path: sources.length > 1 ? [sources[1]] : [], message: 'give exactly one of table, view or position' });
  if (message.position !== undefined && message.seat === undefined)
    issues.push({ path: ['seat'], message: 'a position needs the seat whose view is advised' });
  return issues;
}

const checkAdviseSource = (message: AdviseSources, ctx: z.RefinementCtx) =>
  adviseSourceIssues(message).forEach((issue) => ctx.addIssue({ code: 'custom', ...issue }));

const advise = z
  .strictObject(adviseFields)
  .superRefine(checkAdviseSource)
  .describe('Asks an agent what to play: for a table seat, a yaniv-view/1, or a yaniv-position/1 and seat. Answered by advice.')
  .meta({ id: 'Advise' });

const resume = z
  .strictObject({
    type: z.literal('resume'),
    id: requestIdSchema,
    table: tableId,
    token: text(100).describe('The token table_created gave.'),
  })
  .describe('Takes a table over on this connection (after a reconnect); answered by resumed and the state of each client seat.')
  .meta({ id: 'Resume' });

const leave = z
  .strictObject({ type: z.literal('leave'), id: requestIdSchema, table: tableId })
  .describe('Closes a table (a guest leaving gives the seat back to the stand-in bot until they resume); answered by left.')
  .meta({ id: 'Leave' });

export const clientMessageSchema = z
  .discriminatedUnion('type', [hello, ping, createTable, act, advise, resume, leave, joinTable, startTable])
  .describe('Any message a client sends.')
  .meta({ id: 'ClientMessage' });
export type ClientMessage = z.output<typeof clientMessageSchema>;

/**
 * What the server checks on the event loop as a message arrives: all of it but an advise's view
 * beyond its head (format, rules, table size: what picks the model); the rest is checked where
 * the advice is decided (`parseViewJson`, on a worker under load: docs/design.md).
 */
const viewHeadSchema = viewJsonSchema.pick({ format: true, preset: true, rules: true, players: true }).loose();
/** An advise at the edge before its refinement (`adviseSourceIssues`): what the edge's compiled check covers. */
export const adviseAtEdgeFieldsSchema = z.strictObject({ ...adviseFields, view: viewHeadSchema.optional() });
export const clientMessageAtEdgeSchema = z.discriminatedUnion('type', [
  hello,
  ping,
  createTable,
  act,
  adviseAtEdgeFieldsSchema.superRefine(checkAdviseSource),
  resume,
  leave,
  joinTable,
  startTable,
]);
export type ClientMessageAtEdge = z.output<typeof clientMessageAtEdgeSchema>;
export type ClientMessageType = ClientMessage['type'];
export const CLIENT_MESSAGE_TYPES = clientMessageSchema.options.map((o) => o.shape.type.value);

/**
 * The protocol of `yaniv serve`, version 1: every message a client may send as one zod
 * discriminated union (validated at one edge, `parseClientMessage`), every message the server
 * sends as another, and the JSON Schema of both generated from them (`protocolJsonSchema`,
 * committed as serve/protocol.schema.json). serve/PROTOCOL.md explains it with examples.
 */
import { z } from 'zod';
import { MODEL_FITS } from '../../agents/models/catalog.js';
// One line until this file is split by concept (the layout move lengthened its paths).
// prettier-ignore
import { ACTION_COUNT, DEFAULT_PRESET, HAND_CAP, MAX_PLAYERS, MIN_PLAYERS, presetNameSchema, ruleOverridesSchema } from '../../env/index.js';
import { SCORE_KINDS } from '../../agents/registry.js';
import { ERROR_CODES, ERROR_MEANINGS } from './errors.js';
import { intFrom, text } from '../../support/zod.js';
import { cardSchema, viewJsonSchema } from './viewJson.js';
import { tableClosed, joinTable, startTable, tableId, tableCreated, resumed, joined, started, seatsMessage } from './tableMessages.js';
import {
  adviceMovesSchema,
  advisedMoveSchema,
  adviceWorldsSchema,
  outlookRequestSchema,
  winChanceSchema,
  legalActionSchema,
  playedModelSchema,
  welcomeLevelsSchema,
  rankedActionSchema,
  requestIdSchema,
  seatInfoSchema,
  welcomeLimitsSchema,
} from './protocolParts.js';

export const PROTOCOL_VERSION = 1;
export const SUBPROTOCOLS = { json: 'yaniv.v1.json', msgpack: 'yaniv.v1.msgpack' } as const;
export type Encoding = keyof typeof SUBPROTOCOLS;

const seat = intFrom(0, MAX_PLAYERS - 1);
const seed = intFrom(-(2 ** 31), 2 ** 31 - 1);
const agentName = text(200).describe('One of welcome.agents[].name (default: the first).');

// ---------------------------------------------------------------- client → server

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

// ---------------------------------------------------------------- server → client

const welcome = z
  .strictObject({
    type: z.literal('welcome'),
    id: requestIdSchema,
    version: z.literal(PROTOCOL_VERSION),
    server: z.strictObject({ name: z.string(), version: z.string() }),
    encoding: z.enum(['json', 'msgpack']).describe("This connection's encoding (from the subprotocol)."),
    encodings: z.record(z.string(), z.string()).describe('Encoding → subprotocol.'),
    actionSpace: z.string().describe('The action-id layout (yaniv-actions/1, README).'),
    formats: z.strictObject({ view: z.string(), position: z.string(), record: z.string() }),
    presets: z.array(z.strictObject({ name: z.string(), description: z.string(), options: z.record(z.string(), z.unknown()) })),
    ruleOptions: z.unknown().describe('The JSON Schema of the rule options.'),
    agents: z.array(
      z.strictObject({
        name: z.string().describe('What to name in seats, advise.agent.'),
        description: z.string(),
        explains: z.boolean().describe('Whether advice from it ranks every legal action with scores (else only its pick is known).'),
        scores: z
          .enum(SCORE_KINDS)
          .describe(
            "What its advice scores are (advice.scores): a trained model's probabilities, its own scores, or none (only its pick).",
          ),
        model: z
          .record(z.string(), z.unknown())
          .optional()
          .describe(
            'For trained models: rules, players, training episodes, evaluation figures, the reward and return horizon, the adviser, and mismatch.',
          ),
        modelVersion: z
          .int()
          .optional()
          .describe(
            'The published version served to new tables and advice (yaniv publish-model); absent: the model the server started with. A table keeps the version it started with to the end of its game.',
          ),
        plays: z
          .record(
            z.string(),
            z.record(
              z.string(),
              playedModelSchema.omit({ version: true }).extend({
                fit: z
                  .enum(MODEL_FITS)
                  .describe(
                    'trained: trained for this preset at this size; nearest-size: the preset’s nearest trained size; default: the default model.',
                  ),
              }),
            ),
          )
          .optional()
          .describe(
            'For an agent that plays the shipped models (plain neural): by preset, then by table size, the model that plays there (agents/models/catalog.ts). Tables and advice play it unless a model was published (modelVersion).',
          ),
      }),
    ),
    limits: welcomeLimitsSchema,
    store: z
      .enum(['memory', 'redis'])
      .describe(
        'Where tables are kept: memory (this process alone: a table lives as long as it does) or redis (shared by every process of a cluster: a resume on any of them takes a table over).',
      ),
    models: z
      .array(z.strictObject({ model: z.string(), card: z.record(z.string(), z.unknown()) }))
      .describe(
        'The catalog of shipped models (models/): each folder with its card (the rules and table sizes it was trained for, its adviser, reward and benchmark).',
      ),
    levels: welcomeLevelsSchema,
  })
  .describe('The answer to hello: what this server offers.')
  .meta({ id: 'Welcome' });

const pong = z
  .strictObject({ type: z.literal('pong'), id: requestIdSchema, time: z.int().describe('Server time, ms since 1970.') })
  .meta({ id: 'Pong' });

const error = z
  .strictObject({
    type: z.literal('error'),
    id: requestIdSchema.nullable().describe("The request's id, or null when it could not be read."),
    code: z.enum(ERROR_CODES).describe(
      Object.entries(ERROR_MEANINGS)
        .map(([code, meaning]) => `${code}: ${meaning}`)
        .join(' '),
    ),
    message: z.string().describe('For people: names the field or the move.'),
    field: z.string().optional().describe('The field at fault, as a path (view.hand[2]).'),
    reason: z
      .string()
      .optional()
      .describe(
        'illegal_action: the engine\'s reason alone, for people, without the action id ("4D 6H is not a legal group: …", "the game is over").',
      ),
    counter: z.int().optional().describe("stale_state: the table's current counter."),
  })
  .describe('A request failed; nothing was applied.')
  .meta({ id: 'Error' });

const state = z
  .strictObject({
    type: z.literal('state'),
    table: z.string(),
    seat: z.int().describe('The client seat this state is for.'),
    counter: z.int().describe('Steps played at the table; send it back with act.'),
    view: viewJsonSchema.describe("What the seat knows (yaniv-view/1), the seat's own playerView."),
    toMove: z.int().nullable().describe('The seat to move, null once the game is over.'),
    legal: z.array(legalActionSchema).describe("The seat's legal actions when it is to move, else empty."),
    deadlineMs: z.int().nullable().describe('Time left for this step when the seat is to move and the table has a deadline.'),
  })
  .describe("A client seat's view after every step.")
  .meta({ id: 'State' });

const event = z
  .strictObject({
    type: z.literal('event'),
    table: z.string(),
    seat: z.int().describe('The client seat this event is told to.'),
    counter: z.int().describe("The table's counter after the step."),
    actor: z.int().describe('The seat that acted.'),
    action: z.int(),
    kind: legalActionSchema.shape.kind,
    text: z.string(),
    cards: z
      .array(cardSchema)
      .describe(
        'discard: the group laid; take: the card taken; quick: the card added; a deck draw: the card, told only to its drawer; else empty.',
      ),
    reshuffled: z.boolean().describe('A deck draw found the deck empty and the pile was reshuffled.'),
    timeout: z.boolean().describe('The server played this default action because the deadline ran out.'),
  })
  .describe('A step that was played (by anyone).')
  .meta({ id: 'Event' });

const roundEnd = z
  .strictObject({
    type: z.literal('round_end'),
    table: z.string(),
    seat: z.int(),
    counter: z.int(),
    round: z.int(),
    outcome: z.enum(['yaniv', 'assaf', 'slapdown', 'exhausted']),
    caller: z.int().nullable(),
    hands: z.array(z.array(cardSchema).nullable()).describe('Every hand at the showdown (null: out of the game).'),
    handValues: z.array(z.int().nullable()),
    points: z.array(z.int().nullable()),
    totals: z.array(z.int()),
    eliminated: z.array(z.int()),
    winner: z.int().describe('The round winner.'),
  })
  .describe('A round ended: the showdown, points, totals.')
  .meta({ id: 'RoundEnd' });

const gameOver = z
  .strictObject({
    type: z.literal('game_over'),
    table: z.string(),
    counter: z.int(),
    winner: z.int().describe('The winner; for a game stopped at the turn cap, the lowest total still in the game (ties: the lowest seat).'),
    truncated: z
      .boolean()
      .describe('The game was stopped unfinished at the turn cap (welcome.limits.maxTurns whole turns), a guard against endless play.'),
    totals: z.array(z.int()),
    record: z.record(z.string(), z.unknown()).describe('The whole game, yaniv-record/1 (replays with yaniv replay).'),
    seed: z.int().describe('The table seed.'),
  })
  .describe('The game ended; the record and the seed are revealed.')
  .meta({ id: 'GameOver' });

const acted = z.strictObject({ type: z.literal('acted'), id: requestIdSchema, table: z.string(), counter: z.int() }).meta({ id: 'Acted' });

const advice = z
  .strictObject({
    type: z.literal('advice'),
    id: requestIdSchema,
    agent: z.string().describe('The agent (or model) that answered.'),
    model: playedModelSchema.nullable().describe('The trained model that answered for this table, or null for agents without one.'),
    seat: z.int(),
    phase: z.enum(['turn', 'draw', 'afterDraw']),
    pick: legalActionSchema.describe('What the agent plays.'),
    actions: z
      .array(rankedActionSchema)
      .describe(
        'The actions the agent ranked, best first (its pick first), with scores: every legal action for strong and trained models, the candidates it searched for rollout, only its pick (score 0) for agents that do not explain.',
      ),
    legal: z.array(legalActionSchema).describe('Every legal action, in id order.'),
    moves: adviceMovesSchema,
    worlds: adviceWorldsSchema,
    scores: z
      .enum(SCORE_KINDS)
      .describe("probability: a trained model's policy; score: the agent's own scores (PROTOCOL.md); none: the agent gives only its pick."),
    value: z.number().nullable().describe("The agent's value estimate for the seat, in its own units (PROTOCOL.md)."),
    assaf: z
      .strictObject({
        risk: z
          .number()
          .describe("The chance that calling now would be Assaf'ed, the hidden hands dealt from the cards the seat has not seen."),
        exact: z
          .boolean()
          .describe(
            'true: computed exactly; false (big tables with a high threshold only): the share of Assafs in 4,096 deals from a fixed seed.',
          ),
      })
      .nullable()
      .describe('When Yaniv may be called: the chance of Assaf (the same for the same view).'),
    win: winChanceSchema,
    winReason: z
      .string()
      .nullable()
      .describe('Why there is no chance to win, in words for a player (null when win is given). A version-1 addition.'),
  })
  .describe('The answer to advise.')
  .meta({ id: 'Advice' });

const left = z.strictObject({ type: z.literal('left'), id: requestIdSchema, table: z.string() }).meta({ id: 'Left' });
const reconnect = z
  .strictObject({
    type: z.literal('reconnect'),
    reason: z.enum(['draining']).describe('draining: this server process is stopping (a deploy or a scale-down).'),
    tables: z
      .array(z.string())
      .describe('The tables this connection held, now in the store: resume each with its token after reconnecting.'),
    retryMs: z.int().describe('Reconnect after about this long (a few hundred ms: the tables are already handed over).'),
  })
  .describe(
    "The server process is stopping: it has handed this connection's tables over to the table store and closes the connection (1012). Reconnect (through the load balancer, to another process) and resume each table.",
  )
  .meta({ id: 'Reconnect' });

export const serverMessageSchema = z
  .discriminatedUnion('type', [
    welcome,
    pong,
    error,
    tableCreated,
    resumed,
    state,
    event,
    roundEnd,
    gameOver,
    acted,
    advice,
    left,
    tableClosed,
    reconnect,
    joined,
    started,
    seatsMessage,
  ])
  .describe('Any message the server sends.')
  .meta({ id: 'ServerMessage' });
export type ServerMessage = z.output<typeof serverMessageSchema>;
export type Msg<T extends ServerMessage['type']> = Extract<ServerMessage, { type: T }>;

/**
 * The reply each request gets when it succeeds (any request may get `error` instead): the one
 * place that pairs them, typed so that a request type without a reply does not compile.
 */
export const REPLY_TYPES = {
  hello: 'welcome',
  ping: 'pong',
  create_table: 'table_created',
  act: 'acted',
  advise: 'advice',
  resume: 'resumed',
  leave: 'left',
  join_table: 'joined',
  start_table: 'started',
} as const satisfies Record<ClientMessageType, ServerMessage['type']>;
/** A request of one type, as a client writes it (optional fields may be left out). */
export type Request<T extends ClientMessageType> = Extract<z.input<typeof clientMessageSchema>, { type: T }>;
/** The success reply to a request of type T. */
export type ReplyTo<T extends ClientMessageType> = Msg<(typeof REPLY_TYPES)[T]>;
export type LegalAction = z.output<typeof legalActionSchema>;
export type AdvisedMove = z.output<typeof advisedMoveSchema>;
export type RankedAction = z.output<typeof rankedActionSchema>;
export type SeatInfo = z.output<typeof seatInfoSchema>;
export type PlayedModel = z.output<typeof playedModelSchema>;
export type RequestId = z.output<typeof requestIdSchema>;

/** The JSON Schema of the whole protocol (both directions), generated from the zod schemas. */
export function protocolJsonSchema(): Record<string, unknown> {
  const generated = z.toJSONSchema(z.strictObject({ client: clientMessageSchema, server: serverMessageSchema }), {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
  });
  const { $defs } = generated as { $defs: Record<string, unknown> };
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'yaniv-serve-protocol-v1',
    title: `yaniv serve protocol, version ${PROTOCOL_VERSION}`,
    description: `Messages over WebSocket, subprotocol ${SUBPROTOCOLS.json} (JSON text frames) or ${SUBPROTOCOLS.msgpack} (MessagePack binary frames, plain maps). A client sends a ClientMessage, the server a ServerMessage. Generated from serve/protocol/protocol.ts by \`yaniv schema\`; serve/PROTOCOL.md explains it.`,
    anyOf: [{ $ref: '#/$defs/ClientMessage' }, { $ref: '#/$defs/ServerMessage' }],
    $defs,
  };
}

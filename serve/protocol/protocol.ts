/**
 * The protocol of `yaniv serve`, version 1: every message the server sends as one zod
 * discriminated union, beside the client's (serve/protocol/clientMessages.ts, re-exported here),
 * the replies each request gets, and the JSON Schema of both generated from them
 * (`protocolJsonSchema`, committed as serve/protocol.schema.json). serve/PROTOCOL.md explains it with examples.
 */
import { z } from 'zod';
import { MODEL_FITS } from '../../agents/models/catalog.js';
import { SCORE_KINDS } from '../../agents/registry.js';
import { isRuleOverrides, ruleOverridesJsonSchema } from '../../env/index.js';
import { type ClientMessageType, PROTOCOL_VERSION, SUBPROTOCOLS, clientMessageSchema } from './clientMessages.js';

export * from './clientMessages.js';
import { ERROR_CODES, ERROR_MEANINGS } from './errors.js';
import { cardSchema, viewJsonSchema } from './viewJson.js';
import { tableClosed, tableCreated, resumed, joined, started, seatsMessage, nextTable } from './tableMessages.js';
import {
  adviceMovesSchema,
  advisedMoveSchema,
  adviceWorldsSchema,
  winChanceSchema,
  legalActionSchema,
  playedModelSchema,
  welcomeLevelsSchema,
  rankedActionSchema,
  requestIdSchema,
  seatInfoSchema,
  welcomeLimitsSchema,
} from './protocolParts.js';

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
        'The catalog of shipped models (models/): each folder with its card (the rules and table sizes it was trained for, its adviser, reward, benchmark and held-out panel results).',
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
    pick: legalActionSchema.describe(
      'The suggested move: what the agent plays, unless the moves played out (moves) rate another better beyond the noise, then that move; with outlook: false, what the agent plays.',
    ),
    agentPick: legalActionSchema.describe(
      'What the agent alone plays (its own choice, the first of actions), whatever the moves played out say.',
    ),
    actions: z
      .array(rankedActionSchema)
      .describe(
        'The actions the agent ranked, best first (its own pick, agentPick, first), with scores: every legal action for strong and trained models, the candidates it searched for rollout, only its pick (score 0) for agents that do not explain.',
      ),
    legal: z.array(legalActionSchema).describe('Every legal action, in id order.'),
    moves: adviceMovesSchema,
    worlds: adviceWorldsSchema,
    scores: z
      .enum(SCORE_KINDS)
      .describe("probability: a trained model's policy; score: the agent's own scores (PROTOCOL.md); none: the agent gives only its pick."),
    value: z
      .number()
      .nullable()
      .describe(
        "The agent's value estimate for the seat, in its own units (PROTOCOL.md): the agent's, not a figure of the moves played out.",
      ),
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
    nextTable,
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
    // Rule overrides are checked by resolveRules (with the preset), not at the edge: documented once, with every option's range.
    override: ({ zodSchema, jsonSchema }) => {
      if (!isRuleOverrides(zodSchema)) return;
      for (const key of ['type', 'propertyNames', 'additionalProperties']) delete jsonSchema[key];
      jsonSchema.$ref = '#/$defs/RuleOverrides';
    },
  });
  const $defs = { ...(generated as { $defs: Record<string, unknown> }).$defs, RuleOverrides: ruleOverridesJsonSchema() };
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'yaniv-serve-protocol-v1',
    title: `yaniv serve protocol, version ${PROTOCOL_VERSION}`,
    description: `Messages over WebSocket, subprotocol ${SUBPROTOCOLS.json} (JSON text frames) or ${SUBPROTOCOLS.msgpack} (MessagePack binary frames, plain maps). A client sends a ClientMessage, the server a ServerMessage. Generated from serve/protocol/protocol.ts by \`yaniv schema\`; serve/PROTOCOL.md explains it.`,
    anyOf: [{ $ref: '#/$defs/ClientMessage' }, { $ref: '#/$defs/ServerMessage' }],
    $defs,
  };
}

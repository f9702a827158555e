/**
 * The parts several protocol messages share (serve/protocol/protocol.ts assembles the messages): the
 * request id, a legal action readably (and ranked), the seats of a table and the model a bot
 * plays, and the limits welcome tells. The stored table record (serve/tables/tableRecord.ts) keeps seats
 * in the same form.
 */
import { z } from 'zod';
import { MODEL_FITS } from '../../agents/models/catalog.js';
import { REASON_KINDS, STANDINGS } from '../../agents/equity/moveOutlook.js';
import { MOVE_KIND_NAMES, presetNameSchema, ruleOverridesSchema } from '../../env/index.js';
import { bool, intFrom, text } from '../../support/zod.js';
import { cardSchema } from './viewJson.js';

export const requestIdSchema = z
  .union([text(64).min(1, { error: 'must not be empty' }), intFrom(0, Number.MAX_SAFE_INTEGER)], {
    error: 'must be a string (up to 64 characters) or a non-negative integer',
  })
  .describe('Chosen by the client; echoed by the reply.')
  .meta({ id: 'RequestId' });
export const legalActionSchema = z
  .strictObject({
    action: z.int().describe('The action id to send in act.'),
    kind: z.enum(MOVE_KIND_NAMES).describe('The move kind (the action layout\'s, README "Actions").'),
    cards: z.array(cardSchema).describe('discard: the group in laid order; take: the card; quick: the card drawn; else empty.'),
    text: z.string().describe('The move for people: "discard 5S 6S 7S", "take 7H", "draw from the deck", "Yaniv".'),
  })
  .describe('A legal action, by id and readably.')
  .meta({ id: 'LegalAction' });

const estimateSchema = (what: string, min: number, max?: number) => {
  const bounded = (n: z.ZodNumber) => (max === undefined ? n.min(min) : n.min(min).max(max));
  return z
    .strictObject({
      mean: bounded(z.number()).describe(`The estimate of ${what}.`),
      low: bounded(z.number()).describe('The low end of its 95% interval (from the worlds played out).'),
      high: bounded(z.number()).describe('The high end of its 95% interval.'),
    })
    .describe(`${what}, with a 95% interval: low ≤ mean ≤ high.`);
};

export const advisedMoveSchema = legalActionSchema
  .extend({
    win: estimateSchema('the chance to win the game after this move', 0, 1)
      .nullable()
      .describe('The chance to win the game after this move; null where there is none (advice.winReason says why).'),
    points: estimateSchema('the points this round adds to the seat’s total (before milestones)', 0),
    standing: z
      .enum(STANDINGS)
      .describe(
        "How the same worlds judge this move: suggested (advice.pick: the agent's pick unless another move played out better beyond the noise), same (the paired difference with the suggestion's 95% interval includes 0: about the same, not ranked), worse (played out worse than the suggestion beyond the noise).",
      ),
    reasons: z
      .array(
        z.strictObject({
          kind: z
            .enum(REASON_KINDS)
            .describe(
              'assaf: the Assaf risk of a call; milestone: lands on a milestone; elimination: passes the elimination limit; nextTakes: the next player may take and use a card of this discard.',
            ),
          text: z.string().describe('The reason in words, for a player.'),
          cards: z.array(cardSchema).optional().describe('nextTakes: the cards the next player may take and use.'),
        }),
      )
      .describe('Short reasons where they weigh on this move, in words.'),
  })
  .describe(
    'A move in a player’s terms: played out from the seat’s view (worlds drawn from what the seat knows, the round played to its end by the strong playout, valued by the game equity).',
  )
  .meta({ id: 'AdvisedMove' });

/** advice.win: the seat's chance to win the game. */
export const winChanceSchema = z
  .strictObject({
    probability: z
      .number()
      .min(0)
      .max(1)
      .describe('The seat\'s chance to win the game ("your chance to win this game: 63%"): the suggested move (advice.pick) played out.'),
    low: z.number().min(0).max(1).describe('The low end of its 95% interval (from the worlds played out).'),
    high: z.number().min(0).max(1).describe('The high end of its 95% interval.'),
    roundStart: z.number().min(0).max(1).describe('The game equity when this round began: every total, who is in, who started it.'),
    equity: z
      .enum(['shipped', 'playouts'])
      .describe('Where the game equity comes from: data shipped for these rules and size, or measured by the server with playouts.'),
  })
  .nullable()
  .describe('The chance to win the game (calibration: models/README.md); null with winReason saying why.');

export const rankedActionSchema = legalActionSchema
  .extend({
    score: z
      .number()
      .describe(
        "The agent's probability or score (higher is better), in its own units: its order, not the move's figures (a move's points and chance to win are in advice.moves).",
      ),
  })
  .meta({ id: 'RankedAction' });

/** The server's limits and default rules as welcome tells them: the server options of these names, as in effect (serve/welcome.ts picks them). */
export const welcomeLimitsSchema = z.strictObject({
  maxTablesPerConnection: z.int(),
  maxMessagesPerSecond: z.number().describe("Per connection (a burst of one second's worth); past it, rate_limited and 1008."),
  maxMessagesPerSecondPerAddress: z
    .int()
    .describe(
      "Shared by all connections of one client address (a burst of one second's worth); the connection whose message is past it gets rate_limited and 1008.",
    ),
  maxPending: z.int(),
  maxPayload: z.int(),
  thinkMs: z.int(),
  moveDeadlineMs: z.int().nullable(),
  idleTableMs: z.int(),
  maxTurns: z.int().describe("Whole turns after which a table's game stops unfinished (game_over with truncated: true)."),
  preset: presetNameSchema.describe('Rules of tables created with neither preset nor rules.'),
  rules: ruleOverridesSchema,
});

export const playedModelSchema = z
  .strictObject({
    model: z
      .string()
      .describe('The model that plays: a shipped folder (models/standard; neural:<model> names it), or a published version.'),
    fit: z
      .enum(MODEL_FITS)
      .nullable()
      .describe(
        'How plain neural picked it: trained (for these rules at this size), nearest-size (the preset’s nearest trained size), default (the default model); null for a published model.',
      ),
    mismatch: z.string().nullable().describe('Why it may play below its measured strength here (other rules or table size), or null.'),
    version: z.int().optional().describe('The published version (yaniv publish-model), when one plays.'),
  })
  .meta({ id: 'PlayedModel' });

/** A seat of a table: the client's or a bot's (the stored table record keeps these too, serve/tables/tableRecord.ts). */
export const seatInfoSchema = z
  .strictObject({
    seat: z.int(),
    player: z
      .enum(['client', 'bot', 'guest'])
      .describe("client: the creator's connection plays it; bot: an agent; guest: a person who joins with the invite."),
    agent: z.string().optional().describe('The bot that plays it (for a guest seat: while nobody sits there).'),
    name: z.string().optional().describe("A guest seat's person, as they named themselves."),
    present: z.boolean().optional().describe('A guest seat: whether its person is connected (else its stand-in bot plays it).'),
    model: playedModelSchema.optional().describe('For a bot that plays a trained model: which, for this table (agents/resolve.ts).'),
  })
  .meta({ id: 'SeatInfo' });

/** welcome.levels: the difficulty levels a table may seat, per preset and table size, with their ratings. */
export const welcomeLevelsSchema = z
  .array(
    z.strictObject({
      preset: z.string(),
      players: z.int(),
      best: z.string().describe('The agent the levels play (the best shipped bot), its top level.'),
      anchor: z.string().describe('The agent whose rating is fixed (anchorRating) on this scale.'),
      anchorRating: z.number(),
      ratedBy: z.string().describe('The yaniv rate command that measured the ratings.'),
      levels: z.array(
        z.strictObject({
          name: z.string().describe('What to name in create_table.seats: level:K.'),
          level: z.int(),
          rating: z.number(),
          low: z.number().describe('The 95% interval of the rating.'),
          high: z.number(),
        }),
      ),
    }),
  )
  .describe(
    'The difficulty levels a table may seat (when this server serves `level`), per rule preset and table size, weakest first, each with its measured rating (yaniv rate, README). Advice comes from the advisor asked, whatever level sits at the table.',
  );

/** advise.outlook. */
export const outlookRequestSchema = bool()
  .optional()
  .describe(
    'false: no moves played out (advice.moves absent, win null): the pick, the ranking, the legal actions and the Assaf risk only, for a client that wants the policy alone, several times cheaper (default true). A version-1 addition.',
  );

/** advice.moves: the moves in a player’s terms. */
export const adviceMovesSchema = z
  .array(advisedMoveSchema)
  .min(1)
  .optional()
  .describe(
    'The moves in a player’s terms: the agent’s pick and up to three others worth weighing (a Yaniv call, the agent’s next choices, strong’s best discards; in the draw steps every legal move), each played out in the same worlds drawn from the seat’s view and judged by those figures; the suggestion (advice.pick) first, then the moves about the same, then the worse ones; absent when the request said outlook: false. A version-1 addition.',
  );

/** advice.worlds. */
export const adviceWorldsSchema = z
  .int()
  .optional()
  .describe(
    'How many worlds each move was played out in (absent with outlook: false): one budget at every table size, whatever the server’s load; 0 when the figures are the table model’s own evaluation (its q head, one pass for every move) instead. A version-1 addition.',
  );

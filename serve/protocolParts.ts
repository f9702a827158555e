/**
 * The parts several protocol messages share (serve/protocol.ts assembles the messages): the
 * request id, a legal action readably (and ranked), the seats of a table and the model a bot
 * plays, and the limits welcome tells. The stored table record (serve/tableRecord.ts) keeps seats
 * in the same form.
 */
import { z } from 'zod';
import { MODEL_FITS } from '../agents/catalog.js';
import { MOVE_KIND_NAMES, presetNameSchema, ruleOverridesSchema } from '../env/index.js';
import { intFrom, text } from '../support/zod.js';
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

export const rankedActionSchema = legalActionSchema
  .extend({ score: z.number().describe("The agent's probability or score (higher is better).") })
  .meta({ id: 'RankedAction' });

/** The server's limits and default rules as welcome tells them: the server options of these names (serve/welcome.ts picks them). */
export const welcomeLimitsSchema = z.strictObject({
  maxTablesPerConnection: z.int(),
  maxMessagesPerSecond: z.number(),
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

/** A seat of a table: the client's or a bot's (the stored table record keeps these too, serve/tableRecord.ts). */
export const seatInfoSchema = z
  .strictObject({
    seat: z.int(),
    player: z.enum(['client', 'bot']),
    agent: z.string().optional(),
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

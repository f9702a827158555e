// Every view the protocol's schema accepts gets advice or a bad_message naming the field — never
// `internal` — over the schema's whole ranges: positions from real games (every preset, 2–8 seats),
// then totals, wins, turn and round counters and the activity flags moved anywhere the schema allows.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PRESET_NAMES, YanivEnv, playerView, randomLegalAction, seededRng } from '../../../env/index.js';
import { decideBatch } from '../../../serve/inference/decide.js';
import { viewJsonSchema, viewToJson } from '../../../serve/protocol/viewJson.js';
import { LONG, played } from '../helpers.js';

// Each advice with explanations plays its moves out (and a table size first met fits its equity): 60 views
// keep the file near a minute on a busy 2-core machine; test:long runs 2,000.
const RUNS = LONG ? 2000 : 60;

/** The view of the seat to move after `steps` random legal moves of a game. */
function viewAfter(preset: string, players: number, seed: number, steps: number) {
  const env = new YanivEnv({ players, preset, seed });
  let { info } = env.reset();
  const rng = seededRng(seed);
  for (let i = 0; i < steps && !env.done; i++) ({ info } = env.step(randomLegalAction(info.actionMask, rng)));
  if (env.done) ({ info } = env.reset());
  return viewToJson(playerView(env.state, info.currentPlayer), preset, {});
}

const total = fc.integer({ min: -100_000, max: 100_000 });

describe('advice over the view schema’s ranges', () => {
  it.each(['strong', 'intermediate'])(
    '%s answers every accepted view with advice or a bad_message naming the field',
    async (agent) => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...PRESET_NAMES),
          fc.integer({ min: 2, max: 8 }),
          fc.nat(10_000),
          fc.nat(60),
          fc.record({
            totals: fc.option(fc.array(total, { minLength: 8, maxLength: 8 })),
            yanivWins: fc.option(fc.array(fc.nat(100_000), { minLength: 8, maxLength: 8 })),
            active: fc.option(fc.array(fc.boolean(), { minLength: 8, maxLength: 8 })),
            turn: fc.option(fc.nat(1_000_000)),
            round: fc.option(fc.integer({ min: 1, max: 1_000_000 })),
          }),
          async (preset, players, seed, steps, edits) => {
            const view: Record<string, unknown> = { ...viewAfter(preset, players, seed, steps) };
            if (edits.totals) view.totals = edits.totals.slice(0, players);
            if (edits.yanivWins) view.yanivWins = edits.yanivWins.slice(0, players);
            if (edits.active) view.active = edits.active.slice(0, players);
            if (edits.turn !== null) view.turn = edits.turn;
            if (edits.round !== null) view.round = edits.round;
            const parsed = viewJsonSchema.safeParse(view);
            if (!parsed.success) return;
            const [result] = await decideBatch([
              { agent: played(agent, parsed.data.players), source: { kind: 'view', view: parsed.data }, seed, explain: true },
            ]);
            if (result.ok) return;
            expect(result.code, `${result.message} (field ${result.field})`).not.toBe('internal');
            expect(result.field).toMatch(/^view/);
          },
        ),
        { numRuns: RUNS, seed: 28 },
      );
    },
    LONG ? 3_600_000 : 300_000,
  );
});

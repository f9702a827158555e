import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ACTION_COUNT } from '../../../env/gym/actionLayout.js';
import { MaskScratch, writeActionMask } from '../../../env/gym/actionMask.js';
import { actionToMove } from '../../../env/gym/actionMoves.js';
import { applyAction } from '../../../env/rules/actions.js';
import { KIND_COUNT, deckComposition } from '../../../env/rules/cards.js';
import { determinize } from '../../../env/rules/determinize.js';
import { DiscardList } from '../../../env/rules/discards.js';
import { newGame, startRound } from '../../../env/rules/engine.js';
import { seededRng } from '../../../env/rules/random.js';
import { resolveRules } from '../../../env/rules/rules.js';
import { type GameState, HAND_CAP, PHASE_AFTER_DRAW, PHASE_TURN, PHASE_DRAW } from '../../../env/rules/state.js';
import { playerView } from '../../../env/rules/view.js';
import { RUNS, VARIANTS, randomPositions } from '../gym/envPositions.js';

const scratch = new MaskScratch(new DiscardList());
function maskOf(s: GameState): string {
  const mask = new Uint8Array(ACTION_COUNT);
  writeActionMask(s, scratch, mask, 0);
  return Buffer.from(mask).toString('hex');
}

function inRound(s: GameState): boolean {
  return s.phase === PHASE_TURN || s.phase === PHASE_DRAW || s.phase === PHASE_AFTER_DRAW;
}

describe('determinize', () => {
  const positions = VARIANTS.flatMap(({ options }, v) => randomPositions(options, 200 + v, 80)).filter(inRound);

  it("samples states whose view is the seat's view, with every card accounted for and the same legal actions", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: positions.length - 1 }), fc.integer({ min: 0, max: 7 }), fc.integer(), (index, pick, seed) => {
        const s = positions[index];
        const seat = s.phase === PHASE_AFTER_DRAW ? s.current : pick % s.players;
        const view = playerView(s, seat);
        const sample = determinize(view, seededRng(seed));
        expect(playerView(sample, seat)).toEqual(view);
        const used = new Uint8Array(KIND_COUNT);
        const count = (cards: ArrayLike<number>) => {
          for (const c of Array.from(cards)) used[c]++;
        };
        for (let p = 0; p < sample.players; p++) count(sample.hands.subarray(p * HAND_CAP, p * HAND_CAP + sample.handLength[p]));
        count(sample.deck.subarray(0, sample.deckLength));
        count(sample.pile.subarray(0, sample.pileLength));
        count(sample.prev.subarray(0, sample.prevLength));
        count(sample.laid.subarray(0, sample.laidLength));
        const composition = deckComposition(s.rules.decks, s.rules.jokersPerDeck);
        used.forEach((n, k) => expect(n).toBeLessThanOrEqual(composition[k]));
        if (seat === s.current) {
          expect(maskOf(sample)).toBe(maskOf(s));
          const mask = new Uint8Array(ACTION_COUNT);
          writeActionMask(sample, scratch, mask, 0);
          const id = mask.indexOf(1);
          applyAction(sample, actionToMove(sample, id));
        }
      }),
      { numRuns: 300 * RUNS, seed: 7 },
    );
  });

  it('deals the unknown cards evenly (chi-square on a fixed position)', () => {
    const rules = resolveRules({ players: 2 });
    const s = newGame({ rules, players: 2, seed: 3 });
    startRound(s);
    const view = playerView(s, 0);
    const rng = seededRng(99);
    const inHand = new Float64Array(KIND_COUNT);
    const onTop = new Float64Array(KIND_COUNT);
    const samples = 4000;
    for (let i = 0; i < samples; i++) {
      const sample = determinize(view, rng);
      for (let j = 0; j < sample.handLength[1]; j++) inHand[sample.hands[HAND_CAP + j]]++;
      onTop[sample.deck[sample.deckLength - 1]]++;
    }
    const unseen = deckComposition(1, 2);
    for (const card of [...view.hand, ...view.previous.cards]) unseen[card]--;
    const pool = unseen.reduce((a, b) => a + b, 0);
    const chiSquare = (observed: Float64Array, perCard: number) => {
      let chi = 0;
      unseen.forEach((copies, k) => {
        const expected = (perCard * copies) / pool;
        if (copies === 0) expect(observed[k]).toBe(0);
        else chi += (observed[k] - expected) ** 2 / expected;
      });
      return chi;
    };
    // Degrees of freedom: the unseen kinds less one; the bound is about the 99.9% quantile, and a
    // statistic far below the degrees of freedom would mean the samples are too regular to be random.
    const df = unseen.filter((copies) => copies > 0).length - 1;
    const bound = df + 3.1 * Math.sqrt(2 * df);
    for (const chi of [chiSquare(inHand, samples * 5), chiSquare(onTop, samples)]) {
      expect(chi).toBeLessThan(bound);
      expect(chi).toBeGreaterThan(df / 3);
    }
  });

  it('refuses what it cannot sample', () => {
    const s = newGame({ rules: resolveRules({ players: 2 }), players: 2 });
    expect(() => determinize(playerView(s, 0), seededRng(1))).toThrow(/inside a round/);
  });
});

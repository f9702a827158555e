// Action features (env/gym/actionFeatures.ts): the fast context against the one read from the
// seat's view, and every legal action's features against a plain reference that applies the
// engine move the id stands for to the hand.
import { describe, expect, it } from 'vitest';
import {
  ACTION_CONTEXT_SEGMENTS,
  ACTION_CONTEXT_SIZE,
  ACTION_FEATURES,
  ACTION_FEATURE_SIZE,
  ADVISER_FEATURE,
  CTX,
  actionFeatureWidth,
  readsAdviser,
  actionContextOfView,
  writeActionContext,
  writeActionFeatures,
  writeLegalActionFeatures,
} from '../../../env/gym/actionFeatures.js';
import { ACTION_COUNT } from '../../../env/gym/actionLayout.js';
import { MaskScratch, legalActionIds, writeActionMask } from '../../../env/gym/actionMask.js';
import { actionToMove } from '../../../env/gym/actionMoves.js';
import { type Card, valueTable } from '../../../env/rules/cards.js';
import { playerView, type PlayerView } from '../../../env/rules/view.js';
import { VARIANTS, randomPositions } from './envPositions.js';

/** The features of one action computed plainly: the engine move applied to a copy of the hand. */
function referenceFeatures(view: PlayerView, id: number): number[] {
  const values = valueTable(view.rules.jackValue);
  const worth = (cards: readonly Card[]) => cards.reduce((sum, card) => sum + values[card], 0);
  const hand = [...view.hand];
  const remove = (card: Card) => hand.splice(hand.indexOf(card), 1);
  const move = actionToMove(view, id);
  let take = 0;
  let cards = hand.length;
  if (move.type === 'discard') {
    move.cards.forEach(remove);
    const pickable = view.previous.pickable.map((card) => values[card]);
    take = pickable.length > 0 ? Math.min(...pickable) : 0;
    cards = hand.length + 1;
  } else if (move.type === 'draw') {
    if (move.source !== 'deck') hand.push(move.source);
    cards = hand.length + (move.source === 'deck' ? 1 : 0);
  } else if (move.type === 'quick') {
    remove(view.drawn as Card);
    cards = hand.length;
  }
  const points = move.type === 'slapdown' ? 0 : worth(hand);
  const best = points + take;
  const total = view.totals[view.seat];
  const { yanivThreshold, eliminationLimit, milestones } = view.rules;
  const lowering = milestones.filter(([at, to]) => to < at).map(([at]) => at);
  const clip = (x: number, low: number, high: number) => Math.min(high, Math.max(low, x));
  return [
    points / 50,
    best / 50,
    cards / 7,
    best <= yanivThreshold ? 1 : 0,
    clip((yanivThreshold - best) / 10, -3, 1),
    lowering.includes(total + best) ? 1 : 0,
    lowering.includes(total + points) ? 1 : 0,
    total + best > eliminationLimit ? 1 : 0,
    clip((eliminationLimit - total - best) / 50, -1, 1),
  ];
}

/** The legal mask and the mover's action context of a game's first position. */
function firstPosition(players: number, seed: number): { mask: Uint8Array; context: Int16Array } {
  const [state] = randomPositions({ players }, seed, 0);
  const mask = new Uint8Array(ACTION_COUNT);
  writeActionMask(state, new MaskScratch(), mask, 0);
  const context = new Int16Array(ACTION_CONTEXT_SIZE);
  writeActionContext(state, state.current, context);
  return { mask, context };
}

describe('action features', () => {
  it('the context is the sum of its named segments; the features are numbered in order', () => {
    let start = 0;
    for (const segment of ACTION_CONTEXT_SEGMENTS) {
      expect(segment.start).toBe(start);
      start += segment.size;
    }
    expect(ACTION_CONTEXT_SIZE).toBe(start);
    expect(ACTION_FEATURES.map((f) => f.index)).toEqual(Array.from({ length: ACTION_FEATURE_SIZE }, (_, i) => i));
  });

  for (const { name, options } of VARIANTS) {
    it(`${name}: the context from the state equals the one from the view, and every legal action's features the reference`, () => {
      const scratch = new MaskScratch();
      const mask = new Uint8Array(ACTION_COUNT);
      const context = new Int16Array(ACTION_CONTEXT_SIZE);
      const features = new Float32Array(ACTION_FEATURE_SIZE);
      let checked = 0;
      for (const state of randomPositions(options, 17, 120)) {
        if (writeActionMask(state, scratch, mask, 0) === 0) continue;
        const view = playerView(state, state.current);
        writeActionContext(state, state.current, context);
        expect(Array.from(context)).toEqual(Array.from(actionContextOfView(view)));
        for (const id of legalActionIds(mask)) {
          writeActionFeatures(context, 0, id, features, 0);
          const want = referenceFeatures(view, id);
          want.forEach((x, k) => expect([k, features[k]]).toEqual([k, expect.closeTo(x, 6)]));
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(120);
    });
  }

  it('lands on a milestone exactly where total + the hand after the best visible draw is one', () => {
    // Hand of value 20 after a discard (slots 0..2 hold 5, 5, 10), the cheapest pickable card 0 (a joker): total 30 lands on 50.
    const context = new Int16Array(ACTION_CONTEXT_SIZE);
    context.set([5, 5, 10, 10, -1, -1, -1], CTX.slotValues);
    context[CTX.handValue] = 30;
    context[CTX.handCards] = 4;
    context[CTX.pickableMin] = 0;
    context[CTX.drawnValue] = -1;
    context[CTX.total] = 30;
    context[CTX.limit] = 200;
    context[CTX.threshold] = 7;
    context[CTX.jackValue] = 10;
    context.set([50, 100, 0, 0], CTX.milestones);
    const out = new Float32Array(ACTION_FEATURE_SIZE);
    // Discard of slot 3 alone (the single 10): DISCARD ids of singles are the first 7, slot order.
    writeActionFeatures(context, 0, 1 + 3, out, 0);
    expect(out[0] * 50).toBeCloseTo(20, 5);
    expect(out[5]).toBe(1);
    expect(out[7]).toBe(0);
    // Laying a 5 instead leaves 25: no landing.
    writeActionFeatures(context, 0, 1 + 0, out, 0);
    expect(out[5]).toBe(0);
  });

  it('writes the dense layout at legal entries only', () => {
    const { mask, context } = firstPosition(2, 3);
    const dense = new Float32Array(ACTION_COUNT * ACTION_FEATURE_SIZE).fill(Number.NaN);
    writeLegalActionFeatures(context, 1, mask, dense);
    for (let a = 0; a < ACTION_COUNT; a++) {
      const row = dense.subarray(a * ACTION_FEATURE_SIZE, (a + 1) * ACTION_FEATURE_SIZE);
      expect(row.every((x) => Number.isNaN(x))).toBe(!mask[a]);
    }
  });

  it("with an adviser: one feature more, 1 at the adviser's choice and 0 at every other legal action, the game's features unchanged", () => {
    const { mask, context } = firstPosition(3, 5);
    const legal = legalActionIds(mask);
    expect(legal.length).toBeGreaterThan(1);
    const chosen = legal[legal.length - 1];
    const width = actionFeatureWidth(true);
    expect(width).toBe(ACTION_FEATURE_SIZE + 1);
    expect(ADVISER_FEATURE.index).toBe(ACTION_FEATURE_SIZE);
    const plain = new Float32Array(ACTION_COUNT * ACTION_FEATURE_SIZE);
    writeLegalActionFeatures(context, 1, mask, plain);
    // A reused buffer: stale adviser entries of an earlier row must be overwritten.
    const advised = new Float32Array(ACTION_COUNT * width).fill(7);
    writeLegalActionFeatures(context, 1, mask, advised, [chosen]);
    for (const a of legal) {
      expect(Array.from(advised.subarray(a * width, a * width + ACTION_FEATURE_SIZE))).toEqual(
        Array.from(plain.subarray(a * ACTION_FEATURE_SIZE, (a + 1) * ACTION_FEATURE_SIZE)),
      );
      expect([a, advised[a * width + ADVISER_FEATURE.index]]).toEqual([a, a === chosen ? 1 : 0]);
    }
  });

  it('tells a network with an adviser by its width, and names a width that fits neither', () => {
    expect(readsAdviser(ACTION_FEATURE_SIZE)).toBe(false);
    expect(readsAdviser(ACTION_FEATURE_SIZE + 1)).toBe(true);
    expect(() => readsAdviser(3)).toThrow(/scores actions from 3 features; the game gives 9, or 10 with an adviser/);
  });

  it('names an id outside the action space', () => {
    expect(() => writeActionFeatures(new Int16Array(ACTION_CONTEXT_SIZE), 0, ACTION_COUNT, new Float32Array(9), 0)).toThrow(
      /not an id of the action space/,
    );
  });
});

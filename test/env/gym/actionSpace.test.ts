import { describe, expect, it } from 'vitest';
import { game } from '../helpers.js';
import {
  ACTION_COUNT,
  ACTION_RANGES,
  ACTION_RANGE_LIST,
  MOVE_KIND_NAMES,
  ACTION_SPACE_VERSION,
  DISCARD_COUNT,
  DISCARD_FIRST,
  DISCARD_LAST,
  DISCARD_MASK,
  DISCARD_START,
  HandSlots,
  discardId,
  discardIdOf,
} from '../../../env/gym/actionLayout.js';
// The special ids as the package's entry exports them.
import { DRAW_DECK_ACTION, PASS_ACTION, QUICK_ACTION, SLAPDOWN_ACTION, TAKE_START, YANIV_ACTION } from '../../../env/index.js';
import { MaskScratch, clearLegalActions, legalActionIds, markLegalActions, writeActionMask } from '../../../env/gym/actionMask.js';
import { actionRangeOf, actionToMove, describeAction, moveToAction } from '../../../env/gym/actionMoves.js';
import { YanivEnv } from '../../../env/gym/yanivEnv.js';
import { randomInt, seededRng } from '../../../env/rules/random.js';
import { type Action, actionError, legalActions } from '../../../env/rules/actions.js';
import { JOKER, RANK_OF, parseCard } from '../../../env/rules/cards.js';
import { DiscardList, generateDiscards } from '../../../env/rules/discards.js';
import { RUN } from '../../../env/rules/groups.js';
import { type GameState, HAND_CAP, PHASE_NAMES, PHASE_TURN } from '../../../env/rules/state.js';
import { playerView } from '../../../env/rules/view.js';
import { expectSameValues } from '../../sameValues.js';
import { RUNS, VARIANTS, randomPositions } from './envPositions.js';

const cards = (text: string) => text.split(' ').map((name) => parseCard(name) as number);

function maskOf(s: GameState): Uint8Array {
  const mask = new Uint8Array(ACTION_COUNT);
  writeActionMask(s, new MaskScratch(new DiscardList()), mask, 0);
  return mask;
}

describe('the action table', () => {
  it('has the documented sizes and ranges', () => {
    expect(ACTION_SPACE_VERSION).toBe('yaniv-actions/1');
    expect(DISCARD_COUNT).toBe(1351);
    expect(ACTION_COUNT).toBe(1409);
    expect([YANIV_ACTION, DISCARD_START, DRAW_DECK_ACTION, TAKE_START, PASS_ACTION, QUICK_ACTION, SLAPDOWN_ACTION]).toEqual([
      0, 1, 1352, 1353, 1406, 1407, 1408,
    ]);
    expect(ACTION_RANGES.TAKE.size).toBe(53);
  });

  it('maps every discard id to (mask, first, last) and back', () => {
    const seen = new Set<string>();
    for (let i = 0; i < DISCARD_COUNT; i++) {
      const [mask, first, last] = [DISCARD_MASK[i], DISCARD_FIRST[i], DISCARD_LAST[i]];
      expect(discardId(mask, first, last)).toBe(DISCARD_START + i);
      expect((mask >> first) & 1).toBe(1);
      expect((mask >> last) & 1).toBe(1);
      expect(first === last).toBe((mask & (mask - 1)) === 0);
      seen.add(`${mask}/${first}/${last}`);
    }
    expect(seen.size).toBe(DISCARD_COUNT);
    expect(discardId(0b11, 0, 0)).toBe(-1);
  });

  it('reads discard ids against the hand sorted by kind, the lowest slots of a kind first', () => {
    const slots = new HandSlots();
    const hand = cards('JK 7S 5S 6S 5S');
    slots.load(hand, 0, hand.length);
    expect(Array.from(slots.cards.subarray(0, 5))).toEqual(cards('5S 5S 6S 7S JK'));
    const run = cards('5S 6S 7S');
    expect(discardIdOf(slots, run, 0, 3)).toBe(discardId(0b01101, 0, 3));
    expect(discardIdOf(slots, cards('JK 5S 6S'), 0, 3)).toBe(discardId(0b10101, 4, 2));
    expect(discardIdOf(slots, cards('5S 5S'), 0, 2)).toBe(discardId(0b00011, 0, 1));
    expect(discardIdOf(slots, cards('8S'), 0, 1)).toBe(-1);
  });
});

describe('ids and moves in real positions', () => {
  for (const { name, options } of VARIANTS) {
    it(`every legal group has one id that reads back as it (${name})`, () => {
      const list = new DiscardList();
      for (const s of randomPositions(options, 11, 400 * RUNS)) {
        const mask = maskOf(s);
        const ids = legalActionIds(mask);
        expect(ids.length).toBeGreaterThan(0);
        const readable = legalActions(s);
        const fromReadable = new Set(readable.map((a) => moveToAction(s, a)));
        expect([...fromReadable].sort((a, b) => a - b)).toEqual(ids);
        for (const id of ids) {
          const move = actionToMove(s, id);
          expect(actionError(s, move)).toBeNull();
          expect(moveToAction(s, move)).toBe(id);
          expect(moveToAction(playerView(s, s.current), move)).toBe(id);
        }
        if (s.phase !== PHASE_TURN) continue;
        generateDiscards(s.hands, s.current * HAND_CAP, s.handLength[s.current], s.rules, list);
        const firstOfId = new Map<number, number[]>();
        for (let g = 0; g < list.count; g++) {
          const group = list.group(g);
          const id = moveToAction(s, { type: 'discard', cards: group });
          const earlier = firstOfId.get(id);
          if (earlier) {
            // Only runs with both ends jokers share an id; the id means the first (lowest) placement.
            expect(list.groupType(g)).toBe(RUN);
            expect([group[0], group[group.length - 1]]).toEqual([JOKER, JOKER]);
            expect(RANK_OF[earlier.find((c) => c !== JOKER) as number]).toBeLessThanOrEqual(
              RANK_OF[group.find((c) => c !== JOKER) as number],
            );
          } else {
            firstOfId.set(id, group);
            expect(actionToMove(s, id)).toEqual({ type: 'discard', cards: group });
          }
        }
        expect(firstOfId.size + (mask[YANIV_ACTION] ? 1 : 0)).toBe(ids.length);
      }
    });
  }

  it('names actions in words', () => {
    const s = game({ hands: ['5S 6S 7S KH JK', '2C 3C 4C 5C 6C'], discard: '7H', deck: '9D 9C', starter: 0 });
    const discard = (text: string) => moveToAction(s, { type: 'discard', cards: cards(text) });
    expect(describeAction(discard('5S 6S 7S'), s)).toBe('discard 5S 6S 7S');
    expect(discard('7S 6S 5S')).toBe(discard('5S 6S 7S'));
    expect(discard('6S 5S JK')).toBe(discard('JK 5S 6S'));
    expect(discard('5S KH')).toBe(-1);
    expect(discard('9C')).toBe(-1);
    expect(describeAction(discard('JK 5S 6S'), s)).toBe('discard JK 5S 6S');
    expect(describeAction(TAKE_START + (parseCard('7H') as number))).toBe('take 7H');
    expect(describeAction(DRAW_DECK_ACTION)).toBe('draw from the deck');
    expect(describeAction(YANIV_ACTION)).toBe('Yaniv');
    expect(describeAction(ACTION_COUNT)).toBe(`invalid action ${ACTION_COUNT}`);
    expect(() => actionToMove(s, discardId(0b1000000, 6, 6))).toThrow(/names no group/);
    // Slots of the hand that hold no group: the id reads as those cards, refused with the reason.
    const fiveAndKing = discardId(0b1001, 0, 3);
    expect(describeAction(fiveAndKing, s)).toBe('discard 5S KH');
    expect(() => actionToMove(s, fiveAndKing)).toThrow(
      /^5S KH is not a legal group: two cards of different ranks are not a set, and a run needs three$/,
    );
    expect(() => actionToMove(s, discardId(0b1011, 0, 3))).toThrow(/^5S 6S KH is not a legal group: a run needs cards of one suit$/);
    expect(() => actionToMove(playerView(s, 1), discard('5S 6S 7S'))).toThrow(/cannot read the actions of seat 0/);
  });

  it('pins the legal-action count of a scripted hand ("perft")', () => {
    // Seat 0 holds 5S 6S 7S 7H JK (25 points: no Yaniv) under standard rules: 5 singles, 6 sets,
    // 8 runs (the joker below, inside or above the naturals it joins).
    const s = game({ hands: ['5S 6S 7S 7H JK', '2C 3C 4C 5C 6C'], discard: 'KD', deck: '9D 9C', starter: 0 });
    const ids = legalActionIds(maskOf(s));
    const names = ids.map((id) => describeAction(id, s)).sort();
    expect(names).toEqual([
      'discard 5S',
      'discard 5S 6S 7S',
      'discard 5S 6S 7S JK',
      'discard 5S 6S JK',
      'discard 5S JK',
      'discard 5S JK 7S',
      'discard 6S',
      'discard 6S 7S JK',
      'discard 6S JK',
      'discard 7H',
      'discard 7H JK',
      'discard 7S',
      'discard 7S 7H',
      'discard 7S 7H JK',
      'discard 7S JK',
      'discard JK',
      'discard JK 5S 6S',
      'discard JK 5S 6S 7S',
      'discard JK 6S 7S',
    ]);
    expect(ids.length).toBe(names.length);
    const move: Action = { type: 'discard', cards: cards('5S 6S 7S') };
    expect(ids).toContain(moveToAction(s, move));
  });
});

describe('keeping a mask row current by its legal ids', () => {
  it('clearing the ids listed last time and marking the new ones writes what writeActionMask writes', () => {
    for (const { options } of VARIANTS) {
      const scratch = new MaskScratch();
      const row = new Uint8Array(ACTION_COUNT);
      const rowIds = new Int16Array(ACTION_COUNT);
      const expected = new Uint8Array(ACTION_COUNT);
      const expectedIds = new Int16Array(ACTION_COUNT);
      let count = 0;
      for (const s of randomPositions(options, 12, 200 * RUNS)) {
        clearLegalActions(row, 0, rowIds, 0, count);
        count = markLegalActions(s, scratch, row, 0, rowIds, 0);
        const expectedCount = writeActionMask(s, scratch, expected, 0, expectedIds, 0);
        expect(count).toBe(expectedCount);
        expectSameValues(row, expected, 'mask row');
        expectSameValues(rowIds.subarray(0, count), expectedIds.subarray(0, count), 'legal ids');
      }
    }
  });
});

describe('the move-kind table', () => {
  it('offers each id only in the step its kind is played in, and names every fixed move with its words', () => {
    const env = new YanivEnv({ players: 3, rules: { quickDiscard: true, slapdown: true }, episode: 'game', maxTurns: 300 });
    const rng = seededRng(4);
    let { info } = env.reset({ seed: 9 });
    const seen = new Set<string>();
    for (let step = 0; step < 2000 && !env.done; step++) {
      const phase = PHASE_NAMES[env.getState().phase];
      for (const id of info.legalIds.subarray(0, info.legalCount)) {
        const range = actionRangeOf(id);
        expect(range?.step, `id ${id} in phase ${phase}`).toBe(phase);
        seen.add(`${range?.kind}:${range?.step}`);
      }
      info = env.step(info.legalIds[randomInt(rng, 0, info.legalCount - 1)]).info;
    }
    // Every kind but slapdown (a hand worth 0 right after a draw) comes up in such a game.
    expect(seen.size).toBeGreaterThanOrEqual(ACTION_RANGE_LIST.length - 1);
    expect(MOVE_KIND_NAMES).toEqual(['yaniv', 'discard', 'draw', 'take', 'pass', 'quick', 'slapdown']);
    expect([PASS_ACTION, QUICK_ACTION, SLAPDOWN_ACTION].map((id) => describeAction(id))).toEqual(['pass', 'quick discard', 'slapdown']);
    expect(describeAction(QUICK_ACTION, undefined, parseCard('7H'))).toBe('quick discard 7H');
  });
});

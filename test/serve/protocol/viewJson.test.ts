// yaniv-view/1: every view the engine gives reads back to the same PlayerView, and a view that
// cannot be a position is refused with the field named.
import { describe, expect, it } from 'vitest';
import { YanivEnv, randomLegalAction, seededRng } from '../../../env/index.js';
import { ProtocolError } from '../../../serve/protocol/errors.js';
import { type ViewJson, viewFromJson, viewJsonSchema, viewToJson } from '../../../serve/protocol/viewJson.js';
import { LONG, turnView } from '../helpers.js';

const parse = (json: unknown) => viewFromJson(viewJsonSchema.parse(json));

describe('round trip', () => {
  it.each([
    ['standard', {}, 3],
    ['standard', { quickDiscard: true, slapdown: true }, 4],
    ['norwegian', {}, 5],
    ['nepal', {}, 2],
    ['standard', {}, 7],
  ] as const)('%s %j, %i players: viewFromJson(viewToJson(view)) is the view, for every seat at every step', (preset, rules, players) => {
    const env = new YanivEnv({ players, preset, rules, episode: 'game', maxTurns: LONG ? 2000 : 80 });
    let { info } = env.reset({ seed: players });
    const rng = seededRng(players);
    let checked = 0;
    while (!env.done) {
      for (let seat = 0; seat < players; seat++) {
        const view = env.view(seat);
        if (view.phase === 'afterDraw' && seat !== view.current) continue; // only the mover's view may be read back then
        const back = parse(JSON.parse(JSON.stringify(viewToJson(view, preset, rules))));
        expect(back).toEqual({ ...view, rules: back.rules, lastResult: null, winner: null });
        expect(back.rules).toEqual(view.rules);
        checked++;
      }
      ({ info } = env.step(randomLegalAction(info.actionMask, rng)));
    }
    expect(checked).toBeGreaterThan(100);
  });
});

const base = (): ViewJson => viewJsonSchema.parse(turnView());

function refusal(change: (view: ViewJson) => void): { field?: string; message: string } {
  const view = structuredClone(base());
  change(view);
  try {
    viewFromJson(view);
  } catch (error) {
    if (error instanceof ProtocolError) return { field: error.field, message: error.message };
    throw error;
  }
  throw new Error('accepted');
}

describe('consistency errors name the field', () => {
  it('accepts the base view', () => {
    expect(viewFromJson(base()).handValue).toBe(6);
  });
  it.each<[string, (v: ViewJson) => void, string, RegExp]>([
    [
      'a card more often than the decks hold',
      (v) => {
        v.pile = ['AS'];
        v.deckSize = 44;
      },
      'pile',
      /AS is shown 2 times in all but the decks hold 1/,
    ],
    [
      'sizes that do not add up',
      (v) => {
        v.deckSize = 40;
      },
      'deckSize',
      /the cards do not add up: hands 8 \+ previous 1 \+ laid 0 \+ pile 0 \+ deck 40 = 49, but the decks hold 54/,
    ],
    [
      'a hand of the wrong size',
      (v) => {
        v.handSizes = [4, 5];
      },
      'hand',
      /holds 3 cards but handSizes\[0\] is 4/,
    ],
    [
      'one entry per seat',
      (v) => {
        v.totals = [0, 0, 0];
      },
      'totals',
      /one entry per seat: 2, not 3/,
    ],
    [
      'more known cards than held',
      (v) => {
        v.known = [[], ['5H', '6H', '7H', '8H', '9H', '10H']];
      },
      'known[1]',
      /holds 5 cards but 6 are known/,
    ],
    [
      'a pickable card not in the group',
      (v) => {
        v.previous.pickable = ['QD'];
      },
      'previous.pickable',
      /QD is not among/,
    ],
    [
      'a "set" of cards of two ranks (issue 15)',
      (v) => {
        v.previous = { type: 'set', cards: ['KD', '4C'], pickable: ['KD', '4C'] };
        v.deckSize = 44;
      },
      'previous.cards',
      /KD 4C is not a legal group: two cards of different ranks are not a set, and a run needs three/,
    ],
    [
      'a group of another type than it says',
      (v) => {
        v.previous = { type: 'run', cards: ['KD', 'KC'], pickable: ['KD', 'KC'] };
        v.deckSize = 44;
      },
      'previous.type',
      /is "run", but KD KC is a set/,
    ],
    [
      'the middle card of a run pickable under the ends-only rule (issue 15)',
      (v) => {
        v.previous = { type: 'run', cards: ['5D', '6D', '7D'], pickable: ['6D'] };
        v.deckSize = 43;
      },
      'previous.pickable',
      /is 6D, but the cards that may be taken from the run 5D 6D 7D are 5D 7D \(pickFromRun "ends"\)/,
    ],
    [
      'an empty hand in the turn step (issue 15)',
      (v) => {
        v.hand = [];
        v.handSizes = [0, 5];
        v.deckSize = 48;
      },
      'hand',
      /seat 0 holds no cards in the turn step: a hand is empty only after a quick discard/,
    ],
    [
      'an empty hand of another seat',
      (v) => {
        v.handSizes = [3, 0];
        v.deckSize = 50;
      },
      'handSizes[1]',
      /seat 1 holds no cards in the turn step/,
    ],
    [
      'a hand larger than dealt',
      (v) => {
        v.handSizes = [3, 6];
        v.deckSize = 44;
      },
      'handSizes[1]',
      /seat 1 holds 6 cards, more than it can \(5\)/,
    ],
    [
      'a laid group that is no group',
      (v) => {
        v.phase = 'draw';
        v.laid = { type: 'set', cards: ['9C', '8H'] };
        v.deckSize = 43;
      },
      'laid.cards',
      /9C 8H is not a legal group/,
    ],
    [
      'a laid group in the turn step',
      (v) => {
        v.laid = { type: 'single', cards: ['9C'] };
      },
      'laid',
      /must be null in the turn step/,
    ],
    [
      "another seat's after-draw step",
      (v) => {
        v.phase = 'afterDraw';
        v.current = 1;
        v.laid = { type: 'single', cards: ['9C'] };
        v.drawn = null;
        v.drawnFromDeck = true;
        v.deckSize = 44;
      },
      'seat',
      /only seat 1, who is to move, knows the card drawn/,
    ],
    [
      'an unknown rule option',
      (v) => {
        v.rules = { foo: 1 };
      },
      'rules',
      /unknown rule option "foo"/,
    ],
    [
      'an unknown preset',
      (v) => {
        v.preset = 'chess';
      },
      'preset',
      /unknown preset "chess"/,
    ],
    [
      'a wrong hand value',
      (v) => {
        v.handValue = 7;
      },
      'handValue',
      /is worth 6/,
    ],
    [
      'a seat that does not exist',
      (v) => {
        v.current = 2;
      },
      'current',
      /seat 2 does not exist with 2 players/,
    ],
  ])('%s', (_, change, field, message) => {
    const error = refusal(change);
    expect(error.field).toBe(field);
    expect(error.message).toMatch(message);
  });
});

describe('what the rules allow is accepted', () => {
  it('an empty hand under quickDiscard, and the middle of a run under pickFromRun "any"', () => {
    const empty = structuredClone(base());
    Object.assign(empty, { rules: { quickDiscard: true }, hand: [], handSizes: [0, 5], deckSize: 48 });
    expect(viewFromJson(empty).handValue).toBe(0);
    const middle = structuredClone(base());
    Object.assign(middle, {
      rules: { pickFromRun: 'any' },
      previous: { type: 'run', cards: ['5D', '6D', '7D'], pickable: ['5D', '6D', '7D'] },
      deckSize: 43,
    });
    expect(viewFromJson(middle).previous.pickable).toHaveLength(3);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KIND_COUNT } from '../../../env/rules/cards.js';
import {
  EARLIER_OBSERVATIONS,
  OBS,
  OBSERVATION_SEGMENTS,
  OBSERVATION_SIZE,
  OBSERVATION_VERSION,
  OPPONENT_BLOCK,
  OPPONENTS,
  encodeObservation,
  milestoneGap,
  encodeView,
  splitObservation,
} from '../../../env/gym/observation.js';
import { type Action, applyAction, legalActions } from '../../../env/rules/actions.js';
import { canQuickDiscard, canSlapDown } from '../../../env/rules/engine.js';
import { type GameState, PHASE_AFTER_DRAW, PHASE_DRAW, cloneState } from '../../../env/rules/state.js';
import { playerView } from '../../../env/rules/view.js';
import { type EnvOptions } from '../../../env/gym/episode.js';
import { cards, game } from '../helpers.js';
import { RUNS, VARIANTS, randomPositions, scrambleHidden } from './envPositions.js';

/** The after-draw rules each on their own and together (VARIANTS has them together only). */
const AFTER_DRAW_VARIANTS: EnvOptions[] = [
  { players: 2, rules: { quickDiscard: true } },
  { players: 4, rules: { slapdown: true, jackValue: 0, jokersPerDeck: 4 } },
  { players: 3, rules: { quickDiscard: true, slapdown: true, jokersPerDeck: 4, handSize: 3 } },
  ...VARIANTS.filter(({ options }) => options.rules?.quickDiscard || options.rules?.slapdown).map(({ options }) => options),
];

const bytes = (a: Float32Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('hex');

describe('the observation layout', () => {
  it('is the sum of its named segments', () => {
    expect(OBSERVATION_VERSION).toBe('yaniv-obs/2');
    let start = 0;
    for (const segment of OBSERVATION_SEGMENTS) {
      expect(segment.start).toBe(start);
      start += segment.size;
    }
    expect(start).toBe(OBSERVATION_SIZE);
    expect(OBSERVATION_SIZE).toBe(1184);
    expect(OPPONENT_BLOCK).toBe(5 + KIND_COUNT);
  });

  it('pins each earlier version as a literal width: yaniv-obs/1 was everything before the milestones segment', () => {
    expect(EARLIER_OBSERVATIONS).toEqual({ 'yaniv-obs/1': 1174 });
    expect(EARLIER_OBSERVATIONS['yaniv-obs/1']).toBe(OBS.milestones);
    expect(OBSERVATION_SEGMENTS.at(-1)?.name).toBe('milestones');
  });
});

describe('the fast encoder', () => {
  for (const { name, options } of [
    ...VARIANTS,
    ...AFTER_DRAW_VARIANTS.slice(0, 3).map((o) => ({ name: JSON.stringify(o.rules), options: o })),
  ]) {
    it(`writes the bytes the view encoder computes from playerView alone, for every seat (${name})`, () => {
      const out = new Float32Array(OBSERVATION_SIZE * 2);
      for (const s of randomPositions(options, 5, 300 * RUNS)) {
        for (let seat = 0; seat < s.players; seat++) {
          out.fill(7);
          encodeObservation(s, seat, out, OBSERVATION_SIZE);
          expect(bytes(out.subarray(OBSERVATION_SIZE))).toBe(bytes(encodeView(playerView(s, seat))));
          expect(out[OBSERVATION_SIZE - 1]).toBe(7);
        }
      }
    });
  }

  it('puts the hand by slot, the opponents clockwise, and pads the missing seats', () => {
    const [s] = randomPositions({ players: 3 }, 1, 0);
    const obs = new Float32Array(OBSERVATION_SIZE);
    encodeObservation(s, 1, obs);
    const parts = splitObservation(obs);
    const view = playerView(s, 1);
    view.hand.forEach((card, slot) => expect(parts.handSlots[slot * KIND_COUNT + card]).toBe(1));
    expect(parts.opponents[0]).toBe(1);
    expect(parts.opponents[2]).toBeCloseTo(view.handSizes[2] / 7);
    expect(parts.opponents[OPPONENT_BLOCK + 2]).toBeCloseTo(view.handSizes[0] / 7);
    expect(Array.from(parts.opponents.subarray(2 * OPPONENT_BLOCK)).every((v) => v === 0)).toBe(true);
    expect(obs[OBS.phase]).toBe(1);
  });
});

describe('the milestones segment', () => {
  // Standard milestones: 50 → 25 and 100 → 50. Seat 0 holds 2S 3H = 5 points on a total of 45.
  const s = game({ hands: ['2S 3H', '9C KD', 'AS 4D'], discard: '7H' }, { totals: [45, 60, 100] });

  it('finds the gap to the nearest milestone above a total that lowers it', () => {
    expect([0, 45, 49, 50, 60, 99, 100, 150].map((total) => milestoneGap(total, s.rules))).toEqual([50, 5, 1, 50, 40, 1, 0, 0]);
    expect(milestoneGap(45, { ...s.rules, milestones: [] })).toBe(0);
  });

  it('gives the own gap, whether the hand lands on it and by how much it misses, then the opponents', () => {
    const obs = new Float32Array(OBSERVATION_SIZE);
    encodeObservation(s, 0, obs);
    const m = splitObservation(obs).milestones;
    expect(m.length).toBe(3 + OPPONENTS);
    expect(m[0]).toBeCloseTo(5 / 70);
    expect(m[1]).toBe(1);
    expect(m[2]).toBe(0);
    expect(m[3]).toBeCloseTo(40 / 70); // seat 1 at 60: 100 is 40 away
    expect(m[4]).toBe(0); // seat 2 at 100: no milestone above
    expect(Array.from(m.subarray(5)).every((v) => v === 0)).toBe(true);
    // Seat 1 (9C KD = 19 points, 40 from 100) misses by 21 points less than the gap.
    encodeObservation(s, 1, obs);
    const m1 = splitObservation(obs).milestones;
    expect(m1[1]).toBe(0);
    expect(m1[2]).toBeCloseTo((19 - 40) / 70);
    expect(bytes(obs)).toBe(bytes(encodeView(playerView(s, 1))));
  });
});

/** Seat's observation (fast encoder) and view of a state; equal for two states iff the seat cannot tell them apart. */
function seen(s: GameState, seat: number): { bytes: string; view: unknown } {
  const out = new Float32Array(OBSERVATION_SIZE);
  encodeObservation(s, seat, out);
  return { bytes: bytes(out), view: playerView(s, seat) };
}

describe('no hidden information in the observation', () => {
  it('gives every seat byte-identical observations and equal views of positions that differ only in what it cannot know', () => {
    const positions = [...VARIANTS.map(({ options }) => options), ...AFTER_DRAW_VARIANTS].flatMap((options, v) =>
      randomPositions(options, 100 + v, 60),
    );
    let changed = 0;
    let watching = 0;
    fc.assert(
      fc.property(fc.integer({ min: 0, max: positions.length - 1 }), fc.integer(), (index, seed) => {
        const s = positions[index];
        for (let seat = 0; seat < s.players; seat++) {
          const t = scrambleHidden(s, seat, seed + seat);
          if (t.hands.some((c, i) => c !== s.hands[i]) || t.deck.some((c, i) => c !== s.deck[i])) changed++;
          if (seat !== s.current) watching++;
          expect(seen(t, seat)).toEqual(seen(s, seat));
        }
      }),
      { numRuns: 300 * RUNS, seed: 42 },
    );
    expect(changed).toBeGreaterThan(500);
    expect(watching).toBeGreaterThan(500);
  });

  // The audit's leak: the engine paused after a draw only when a quick discard or a slapdown was
  // on offer, so a seat watching saw the mover in the after-draw step exactly when the card drawn
  // from the deck extended the group just laid, or the mover's hand was worth 0. Here the same
  // public draw is made in two worlds that a watching seat cannot tell apart (the mover's
  // unknown cards and the deck dealt afresh); what the watcher sees next must not differ,
  // through the after-draw step and the pass that ends it.
  it('a seat that is not moving sees the same after the same public draw, whether or not a choice is on offer', () => {
    const positions = AFTER_DRAW_VARIANTS.flatMap((options, v) => randomPositions(options, 300 + v, 400)).filter(
      (s) => s.phase === PHASE_DRAW,
    );
    let offerDiffers = 0;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: positions.length - 1 }),
        fc.integer({ min: 1, max: 7 }),
        fc.nat(),
        fc.integer(),
        (index, watcherPick, drawPick, seed) => {
          const s = cloneState(positions[index]);
          const watcher = (s.current + (watcherPick % (s.players - 1)) + 1) % s.players;
          const t = scrambleHidden(s, watcher, seed);
          const draws = legalActions(s).filter((a) => a.type === 'draw');
          const draw = draws[drawPick % draws.length];
          expect(legalActions(t)).toEqual(legalActions(s));
          applyAction(s, draw);
          applyAction(t, draw);
          const offer = (x: GameState) => x.phase === PHASE_AFTER_DRAW && (canQuickDiscard(x) || canSlapDown(x));
          if (offer(s) !== offer(t)) offerDiffers++;
          expect(seen(t, watcher)).toEqual(seen(s, watcher));
          if (s.phase !== PHASE_AFTER_DRAW) return;
          const pass: Action = { type: 'pass' };
          applyAction(s, pass);
          applyAction(t, pass);
          expect(seen(t, watcher)).toEqual(seen(s, watcher));
        },
      ),
      { numRuns: 400 * RUNS, seed: 7 },
    );
    expect(offerDiffers).toBeGreaterThan(10);
  });
});

describe('the after-draw step, as the other seats see it', () => {
  /** Seat 0 lays `laid` and draws from the deck; the state after the draw. */
  function afterDeckDraw(hands: string[], deck: string, laid: string, rules: EnvOptions['rules']): GameState {
    const s = game({ hands, discard: '3H', deck }, { rules });
    applyAction(s, { type: 'discard', cards: cards(laid) });
    applyAction(s, { type: 'draw', source: 'deck' });
    return s;
  }

  it('quick discard: the card drawn extends the run laid (8S) or not (KD); seat 1 cannot tell', () => {
    const [offered, none] = ['8S 4C', 'KD 4C'].map((deck) =>
      afterDeckDraw(['5S 6S 7S KH', 'AC 2D 9C 9H'], deck, '5S 6S 7S', { quickDiscard: true }),
    );
    expect(legalActions(offered).map((a) => a.type)).toEqual(['pass', 'quick']);
    expect(legalActions(none).map((a) => a.type)).toEqual(['pass']);
    expect(playerView(none, 1).phase).toBe('afterDraw');
    expect(seen(none, 1)).toEqual(seen(offered, 1));
    expect(seen(none, 0)).not.toEqual(seen(offered, 0));
    for (const s of [offered, none]) applyAction(s, { type: 'pass' });
    expect(seen(none, 1)).toEqual(seen(offered, 1));
  });

  it('slapdown: the hand left is worth 0 (JK JK) or not (JK 2H); seat 1 cannot tell', () => {
    const [offered, none] = ['JK 4C', '2H 4C'].map((deck) => afterDeckDraw(['KH JK', 'AC 2D 9C'], deck, 'KH', { slapdown: true }));
    expect(legalActions(offered).map((a) => a.type)).toEqual(['pass', 'slapdown']);
    expect(legalActions(none).map((a) => a.type)).toEqual(['pass']);
    expect(seen(none, 1)).toEqual(seen(offered, 1));
  });

  it('the step follows every deck draw under quickDiscard, every draw under slapdown, and no draw otherwise', () => {
    const hands = ['5S 6S 7S KH', 'AC 2D 9C 9H'];
    const phaseAfter = (rules: EnvOptions['rules'], source: 'deck' | 'take') => {
      const s = game({ hands, discard: '3H', deck: 'KD 4C' }, { rules });
      applyAction(s, { type: 'discard', cards: cards('KH') });
      applyAction(s, { type: 'draw', source: source === 'deck' ? 'deck' : cards('3H')[0] });
      return playerView(s, 1).phase;
    };
    expect(phaseAfter({ quickDiscard: true }, 'deck')).toBe('afterDraw');
    expect(phaseAfter({ quickDiscard: true }, 'take')).toBe('turn');
    expect(phaseAfter({ slapdown: true }, 'deck')).toBe('afterDraw');
    expect(phaseAfter({ slapdown: true }, 'take')).toBe('afterDraw');
    expect(phaseAfter({}, 'deck')).toBe('turn');
  });
});

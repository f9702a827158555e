import { describe, expect, it } from 'vitest';
import { applyAction } from '../../../env/rules/actions.js';
import { SAMPLED_DEALS, assafRisk, assafRiskAtMost } from '../../../env/rules/assafRisk.js';
import { type Card, cardName, cardsFromCounts, fullDeck } from '../../../env/rules/cards.js';
import { determinize } from '../../../env/rules/determinize.js';
import { canCallYaniv } from '../../../env/rules/engine.js';
import { type Rng, randomInt, seededRng, shuffleInPlace } from '../../../env/rules/random.js';
import { type RuleOptionsInput, resolveRules } from '../../../env/rules/rules.js';
import { scoreRound } from '../../../env/rules/scoring.js';
import { PHASE_TURN, ruleTables } from '../../../env/rules/state.js';
import { type PlayerView, playerView, unseenCounts } from '../../../env/rules/view.js';
import { VARIANTS, randomPositions } from '../gym/envPositions.js';
import { cards } from '../helpers.js';

interface Seat {
  /** Cards in hand. */
  size: number;
  /** The cards of it seen taken from the pile. */
  known?: string;
  out?: boolean;
}

/**
 * Seat 0 to call with `hand`; the unseen cards are exactly `unseen` (every other card of the decks
 * lies face up in the pile), and the deck holds what the opponents' unknown slots leave of them.
 */
function tinyView(hand: string, opponents: Seat[], unseen: string, options: RuleOptionsInput = {}): PlayerView {
  const players = opponents.length + 1;
  const rules = resolveRules({ rules: options, players });
  const own = cards(hand);
  const known = [[], ...opponents.map((o) => cards(o.known ?? ''))];
  const pile = fullDeck(rules.decks, rules.jokersPerDeck);
  for (const card of [...own, ...known.flat(), ...cards(unseen)]) pile.splice(pile.indexOf(card), 1);
  const unknown = opponents.reduce((sum, o) => sum + (o.out ? 0 : o.size - known[opponents.indexOf(o) + 1].length), 0);
  const values = ruleTables(rules).values;
  return {
    seat: 0,
    players,
    rules,
    phase: 'turn',
    current: 0,
    round: 1,
    turn: 0,
    dealer: players - 1,
    starter: 0,
    hand: own,
    handValue: own.reduce((sum, card) => sum + values[card], 0),
    handSizes: [own.length, ...opponents.map((o) => (o.out ? 0 : o.size))],
    known: known.map((k, seat) => (opponents[seat - 1]?.out ? [] : k)),
    previous: { type: 'single', cards: [], pickable: [] },
    laid: null,
    drawn: null,
    drawnFromDeck: null,
    deckSize: cards(unseen).length - unknown,
    pile,
    totals: new Array<number>(players).fill(0),
    active: [true, ...opponents.map((o) => !o.out)],
    yanivWins: new Array<number>(players).fill(0),
    lastResult: null,
    winner: null,
  };
}

/** Every way to deal the unseen cards (each copy a card of its own) to the opponents' unknown slots, scored by the rules. */
function bruteForceRisk(view: PlayerView): number {
  const pool = cardsFromCounts(unseenCounts(view));
  const values = ruleTables(view.rules).values;
  const slots: number[] = [];
  for (let seat = 1; seat < view.players; seat++)
    if (view.active[seat]) for (let i = view.known[seat].length; i < view.handSizes[seat]; i++) slots.push(seat);
  const used = new Array<boolean>(pool.length).fill(false);
  const points = view.known.map((k) => k.reduce((sum, card) => sum + values[card], 0));
  points[0] = view.handValue;
  let deals = 0;
  let assafs = 0;
  const deal = (slot: number) => {
    if (slot === slots.length) {
      deals++;
      const handValues = points.map((p, seat) => (view.active[seat] ? p : null));
      const active = (from: number) =>
        Array.from({ length: view.players }, (_, i) => (from + i) % view.players).filter((seat) => view.active[seat]);
      if (scoreRound(view.rules, handValues, { kind: 'call', caller: 0 }, active).outcome === 'assaf') assafs++;
      return;
    }
    for (let i = 0; i < pool.length; i++) {
      if (used[i]) continue;
      used[i] = true;
      points[slots[slot]] += values[pool[i]];
      deal(slot + 1);
      points[slots[slot]] -= values[pool[i]];
      used[i] = false;
    }
  };
  deal(0);
  return assafs / deals;
}

/** A random small position: a few unseen cards, 1–3 opponents, some known cards, some seats out. */
function randomTinyView(rng: Rng, options: RuleOptionsInput): PlayerView {
  const rules = resolveRules({ rules: options, players: 4 });
  const deck = fullDeck(rules.decks, rules.jokersPerDeck);
  shuffleInPlace(rng, deck);
  const take = (n: number) => deck.splice(0, n);
  const name = (list: Card[]) => list.map(cardName).join(' ');
  const hand = name(take(randomInt(rng, 1, 3)));
  const opponents: Seat[] = Array.from({ length: randomInt(rng, 1, 3) }, () => {
    const size = randomInt(rng, 1, 3);
    return { size, known: name(take(randomInt(rng, 0, Math.min(1, size)))), out: randomInt(rng, 0, 5) === 0 };
  });
  const slots = opponents.reduce((sum, o) => sum + (o.out ? 0 : o.size - (o.known ? 1 : 0)), 0);
  const unseen = name(take(slots + randomInt(rng, 0, Math.max(0, 7 - slots))));
  return tinyView(hand, opponents, unseen, options);
}

/** The risk, which on these small positions must be exact. */
function exactRisk(view: PlayerView): number {
  const { risk, exact } = assafRisk(view);
  expect(exact).toBe(true);
  return risk;
}

describe('assafRisk (exact)', () => {
  it('counts the deals of a small position by hand: one opponent, one unknown card', () => {
    // Caller 3 points; the opponent holds 2S (known) and one of AH 4H 5H: Assaf with AH only (3 ≤ 3).
    const view = tinyView('3S', [{ size: 2, known: '2S' }], 'AH 4H 5H');
    expect(exactRisk(view)).toBeCloseTo(1 / 3, 15);
  });

  it('is 1 when an opponent is known to be low, 0 when every opponent is known to be above, 0 without Assaf', () => {
    expect(exactRisk(tinyView('4S', [{ size: 1, known: 'AH' }, { size: 2 }], '9C KD 8H'))).toBe(1);
    expect(exactRisk(tinyView('4S', [{ size: 2, known: '5H' }], 'AH 2H'))).toBe(0);
    expect(exactRisk(tinyView('4S', [{ size: 2 }], 'AH 2H 3H', { assaf: false }))).toBe(0);
  });

  it('counts a tie as an Assaf, also with a tie penalty', () => {
    expect(exactRisk(tinyView('5S', [{ size: 1 }], '5H 6H'))).toBeCloseTo(0.5, 15);
    expect(exactRisk(tinyView('5S', [{ size: 1 }], '5H 6H', { assafTiePenalty: 20 }))).toBeCloseTo(0.5, 15);
  });

  const variants: [string, RuleOptionsInput][] = [
    ['standard', {}],
    ['jacks worth 0, no jokers', { jackValue: 0, jokersPerDeck: 0 }],
    ['two decks, 4 jokers a deck', { decks: 2, jokersPerDeck: 4 }],
    ['tie penalty', { assafTiePenalty: 20 }],
  ];
  it.each(variants)('matches brute-force enumeration of every deal on random small positions (%s)', (_, options) => {
    const rng = seededRng(options.decks ?? 1);
    for (let i = 0; i < 60; i++) {
      const view = randomTinyView(rng, options);
      expect(exactRisk(view), JSON.stringify({ hand: view.hand, sizes: view.handSizes, known: view.known })).toBeCloseTo(
        bruteForceRisk(view),
        12,
      );
    }
  });

  it('matches the share of Assafs over many determinised worlds within sampling error (every variant, 2–8 players)', () => {
    const positions = VARIANTS.flatMap(({ options }, v) => randomPositions(options, 500 + v, 400))
      .filter((s) => s.phase === PHASE_TURN && canCallYaniv(s))
      .filter((_, i) => i % 7 === 0)
      .slice(0, 12);
    expect(positions.length).toBeGreaterThanOrEqual(8);
    const samples = 3000;
    const rng = seededRng(3);
    for (const s of positions) {
      const view = playerView(s, s.current);
      let assafs = 0;
      for (let i = 0; i < samples; i++) {
        const world = determinize(view, rng);
        applyAction(world, { type: 'yaniv' });
        if (world.lastResult?.outcome === 'assaf') assafs++;
      }
      const { risk, exact } = assafRisk(view);
      // Past the work limit (8 seats, threshold 15) the risk itself comes from SAMPLED_DEALS deals.
      const variance = risk * (1 - risk) * (1 / samples + (exact ? 0 : 1 / SAMPLED_DEALS));
      expect(Math.abs(assafs / samples - risk)).toBeLessThanOrEqual(5 * Math.sqrt(variance) + 1e-9);
    }
  });

  it('is the same number every time and for a copy of the view', () => {
    const view = tinyView('AS 2S', [{ size: 2 }, { size: 2, known: 'AH' }, { size: 2 }], 'AD 2D 3D JK 5C 6C 9C KC QH');
    const risk = exactRisk(view);
    expect(risk).toBeGreaterThan(0);
    expect(assafRisk(structuredClone(view))).toEqual({ risk, exact: true });
    expect(bruteForceRisk(view)).toBeCloseTo(risk, 12);
  });

  it("gives each view its own risk when views take turns (the last view's is kept, never another's)", () => {
    const views = [
      tinyView('AS 2S', [{ size: 2 }, { size: 2, known: 'AH' }, { size: 2 }], 'AD 2D 3D JK 5C 6C 9C KC QH'),
      tinyView('AS 3S', [{ size: 1 }], 'AH 2H 9C'),
      tinyView('2S 2H', [{ size: 2 }, { size: 2 }], 'AD 3D 4C 5C 9C KC'),
    ];
    // Each from a copy first: a new object, so nothing kept is read.
    const risks = views.map((view) => assafRisk(structuredClone(view)).risk);
    expect(new Set(risks).size).toBe(views.length);
    for (const i of [0, 1, 1, 2, 0, 2, 1, 0, 0]) expect(assafRisk(views[i]).risk).toBe(risks[i]);
  });
});

describe('assafRiskAtMost (the bounds a calling bot needs)', () => {
  it('answers as the exact risk compared with the bound, on callable positions of every variant at 2–8 players', () => {
    const positions = VARIANTS.flatMap(({ options }, v) => randomPositions(options, 900 + v, 300)).filter(
      (s) => s.phase === PHASE_TURN && canCallYaniv(s),
    );
    let compared = 0;
    for (const s of positions) {
      const view = playerView(s, s.current);
      const { risk, exact } = assafRisk(view);
      if (!exact) continue;
      for (const bound of [0, 0.02, 0.1, 0.3, 0.5, risk, 1]) {
        // A copy each time: a new object, so the last view's kept risk is never what answers.
        expect(assafRiskAtMost(structuredClone(view), bound), JSON.stringify({ risk, bound })).toBe(risk <= bound);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(200);
  });

  it('says no when one opponent alone is likely low, and yes when none can be', () => {
    // One opponent holding one unknown card, the caller at 3 points: low with AH/2H/3H of the pool.
    const likely = tinyView('AS 2S', [{ size: 1 }, { size: 3 }], 'AH 2H 3H 9C 9D KC QH JH');
    expect(exactRisk(likely)).toBeGreaterThan(0.3);
    expect(assafRiskAtMost(structuredClone(likely), 0.1)).toBe(false);
    const unlikely = tinyView('AS', [{ size: 3 }, { size: 3 }], 'AH 9C 9D KC QH JH 10C 10D 8S 8H');
    expect(exactRisk(unlikely)).toBe(0);
    expect(assafRiskAtMost(structuredClone(unlikely), 0)).toBe(true);
  });
});

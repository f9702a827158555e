// Properties over random seeded games (fast-check): every preset, 2–8 players, and a mix of
// the options no preset switches on. `npm test` plays a few games per property; set
// YANIV_PROPERTY_RUNS=long (`npm run test:long`) for thousands.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type Card,
  type GameState,
  JOKER,
  KIND_COUNT,
  PHASE_BETWEEN_ROUNDS,
  PHASE_GAME_OVER,
  PRESET_NAMES,
  RANK_OF,
  SUIT_OF,
  type RoundResult,
  type RuleOptionsInput,
  type TurnMove,
  canDrawFromDeck,
  handOf,
  handValue,
  legalActions,
  parseRecord,
  playGame,
  playTurn,
  replay,
  step,
  turnError,
} from '../../../env/index.js';
import { text, turnLine } from '../helpers.js';

const LONG = process.env.YANIV_PROPERTY_RUNS === 'long';
/** Games per property and preset: about 2,500 games in all when long (~15 min on 2 cores), about 30 otherwise. */
const RUNS = LONG ? 150 : 2;
/** vitest's per-test timeout (vitest.config.ts) is for the short runs. */
const TIMEOUT = LONG ? 3 * 3600_000 : undefined;
/** A guard against a chooser that never ends a round; games with the chooser below end far sooner. */
const MAX_TURNS = 4000;

/** A small seeded PRNG for the chooser and the probes (mulberry32): the same seed, the same game. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(random: () => number, list: readonly T[]): T => list[Math.floor(random() * list.length)];

/**
 * Calls Yaniv most of the time it may, and half of the other turns sheds the most points, so
 * that games reach elimination and their end in a few hundred turns; otherwise any legal turn.
 */
function chooser(seed: number, check?: (s: GameState, turns: TurnMove[], random: () => number) => void) {
  const random = prng(seed);
  return (s: GameState, turns: TurnMove[]): TurnMove => {
    check?.(s, turns, random);
    const call = turns.find((t) => 'yaniv' in t);
    if (call && random() < 0.75) return call;
    const others = turns.filter((t): t is Exclude<TurnMove, { yaniv: true }> => !('yaniv' in t));
    if (others.length === 0) return turns[0];
    if (random() < 0.5) return pick(random, others);
    const shed = (t: (typeof others)[number]) => t.discard.reduce((sum, c) => sum + s.values[c], 0);
    return others.reduce((best, t) => (shed(t) > shed(best) ? t : best));
  };
}

// ---------------------------------------------------------------- independent oracles

/** Whether cards laid in this order form a legal group (RULES.md, "Legal discard groups"), written from the rules. */
function isLegalGroup(laid: readonly Card[]): boolean {
  if (laid.length === 1) return true;
  const naturals = laid.filter((c) => c !== JOKER);
  if (naturals.every((c) => RANK_OF[c] === RANK_OF[naturals[0]])) return true; // a set (also: jokers only, one natural)
  if (laid.length < 3 || naturals.some((c) => SUIT_OF[c] !== SUIT_OF[naturals[0]])) return false;
  for (const direction of [1, -1]) {
    for (let start = 1; start <= 13; start++) {
      const rankAt = (i: number) => start + direction * i;
      const fits = laid.every((c, i) => rankAt(i) >= 1 && rankAt(i) <= 13 && (c === JOKER || RANK_OF[c] === rankAt(i)));
      if (fits) return true;
    }
  }
  return false;
}

/** The cards of the previous group that may be taken, from its laid order and the rules. */
function takeableByRules(s: GameState): Set<Card> {
  const prev = Array.from(s.prev.subarray(0, s.prevLength));
  const naturals = prev.filter((c) => c !== JOKER);
  const isSet = prev.length > 1 && naturals.every((c) => RANK_OF[c] === RANK_OF[naturals[0]]);
  const any = prev.length === 1 || (isSet ? s.rules.pickFromSet === 'any' : s.rules.pickFromRun === 'any');
  return new Set(any ? prev : [prev[0], prev[prev.length - 1]]);
}

const sorted = (cards: Iterable<Card>) => Array.from(cards).sort((a, b) => a - b);

// ---------------------------------------------------------------- invariants

/** Hands, deck, pile, previous group and the group just laid hold exactly the configured decks. */
function checkCards(s: GameState): void {
  const counts = new Int32Array(KIND_COUNT);
  for (let seat = 0; seat < s.players; seat++) for (const c of handOf(s, seat)) counts[c]++;
  for (const c of s.deck.subarray(0, s.deckLength)) counts[c]++;
  for (const c of s.pile.subarray(0, s.pileLength)) counts[c]++;
  for (const c of s.prev.subarray(0, s.prevLength)) counts[c]++;
  for (const c of s.laid.subarray(0, s.laidLength)) counts[c]++;
  expect(Array.from(counts)).toEqual(Array.from(s.composition));
}

function checkHands(s: GameState): void {
  for (let seat = 0; seat < s.players; seat++) {
    expect(s.handLength[seat]).toBeLessThanOrEqual(s.rules.handSize);
    if (!s.active[seat]) expect(s.handLength[seat]).toBe(0);
  }
  expect(s.active[s.current]).toBe(1);
}

/** Every listed turn is accepted; random discards (subsets of the hand in random orders) are accepted exactly when the rules say. */
function checkMoves(s: GameState, turns: TurnMove[], random: () => number): void {
  const before = positionOf(s);
  for (let k = 0; k < 3; k++) expect(turnError(s, pick(random, turns))).toBeNull();
  // A whole turn and the same turn as single actions through the pure `step` agree, and neither touches `s`.
  const chosen = pick(random, turns);
  expect(positionOf(stepTurn(s, chosen))).toEqual(positionOf(playTurn(s, chosen).state));
  expect(positionOf(s)).toEqual(before);
  const hand = Array.from(handOf(s, s.current));
  if (hand.length === 0) {
    expect(turns.map(turnLine)).toEqual(['yaniv']);
    return;
  }
  const listed = new Set(turns.flatMap((t) => ('yaniv' in t ? [] : [text(sorted(t.discard))])));
  const draw: 'deck' | Card = canDrawFromDeck(s) ? 'deck' : Array.from(takeableByRules(s))[0];
  for (let k = 0; k < 4; k++) {
    const subset = hand.filter(() => random() < 0.5);
    if (subset.length === 0) subset.push(pick(random, hand));
    for (let i = subset.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [subset[i], subset[j]] = [subset[j], subset[i]];
    }
    const legal = isLegalGroup(subset);
    const error = turnError(s, { discard: subset, draw });
    expect(error === null, `${text(subset)}: ${error}`).toBe(legal);
    expect(listed.has(text(sorted(subset))), `${text(subset)}: some order listed`).toBe(hasLegalOrder(subset));
  }
  // A random card to take after a listed discard: accepted exactly when the previous group offers it.
  const discard = pick(
    random,
    turns.filter((t): t is Exclude<TurnMove, { yaniv: true }> => !('yaniv' in t)),
  );
  const card = Math.floor(random() * KIND_COUNT);
  const takeable = takeableByRules(s);
  expect(turnError(s, { discard: discard.discard, draw: card }) === null, `take ${text([card])}`).toBe(takeable.has(card));
  const draws = new Set(turns.flatMap((t) => ('yaniv' in t || text(t.discard) !== text(discard.discard) ? [] : [t.draw])));
  expect(draws).toEqual(new Set([...(canDrawFromDeck(s) ? ['deck'] : []), ...takeable]));
}

/** A whole turn as the actions of its phases (discard, draw, then quick / slapdown / pass when offered). */
function stepTurn(s: GameState, move: TurnMove): GameState {
  if ('yaniv' in move) return step(s, { type: 'yaniv' });
  let next = step(step(s, { type: 'discard', cards: move.discard }), { type: 'draw', source: move.draw });
  const offered = legalActions(next);
  if (move.quick) next = step(next, { type: 'quick' });
  else if (move.slapdown) next = step(next, { type: 'slapdown' });
  else if (offered.some((a) => a.type === 'pass')) next = step(next, { type: 'pass' });
  return next;
}

/** Some order of these cards is a legal group (a run laid out of rank order). */
function hasLegalOrder(cards: Card[]): boolean {
  if (isLegalGroup(cards)) return true;
  const naturals = sorted(cards.filter((c) => c !== JOKER));
  const jokers = cards.length - naturals.length;
  const byRank = naturals.sort((a, b) => RANK_OF[a] - RANK_OF[b]);
  // Fill the gaps of the ascending naturals with jokers, the rest on top or below.
  for (let below = 0; below <= jokers; below++) {
    const laid: Card[] = Array(below).fill(JOKER);
    let left = jokers - below;
    let ok = true;
    byRank.forEach((c, i) => {
      if (i > 0) {
        const gap = RANK_OF[c] - RANK_OF[byRank[i - 1]] - 1;
        if (gap < 0 || gap > left) ok = false;
        else for (let g = 0; g < gap; g++, left--) laid.push(JOKER);
      }
      laid.push(c);
    });
    if (ok) {
      for (; left > 0; left--) laid.push(JOKER);
      if (isLegalGroup(laid)) return true;
    }
  }
  return false;
}

/** Round results agree with the totals before them and the rules. */
function checkRound(s: GameState, before: readonly number[], wasActive: readonly boolean[], result: RoundResult): void {
  const { rules } = s;
  expect(result.handValues.map((v) => v !== null)).toEqual(wasActive);
  expect(result.points.map((v) => v !== null)).toEqual(wasActive);
  const caller = result.caller;
  const values = result.handValues;
  if (caller !== null) {
    const c = values[caller] as number;
    const others = values.flatMap((v, seat) => (v !== null && seat !== caller ? [v] : []));
    const m = Math.min(...others);
    if (result.outcome === 'slapdown') expect([c, result.points[caller]]).toEqual([0, 0]);
    else expect(c).toBeLessThanOrEqual(rules.yanivThreshold);
    if (result.outcome === 'yaniv') {
      expect(!rules.assaf || m > c).toBe(true);
      expect(result.points[caller]).toBe(0);
    }
    if (result.outcome === 'assaf') {
      expect(rules.assaf && m <= c).toBe(true);
      const tie = rules.assafTiePenalty !== null && m === c;
      expect(result.points[caller]).toBe(tie ? rules.assafTiePenalty : c + rules.assafPenalty);
      expect(values[result.winner]).toBe(m);
    }
    if (result.outcome !== 'assaf') {
      values.forEach((v, seat) => {
        if (seat !== caller && v !== null) expect(result.points[seat]).toBe(v);
      });
      expect(result.winner).toBe(caller);
    }
  }
  const eliminated: number[] = [];
  for (let seat = 0; seat < s.players; seat++) {
    if (!wasActive[seat]) {
      expect(result.totals[seat]).toBe(before[seat]);
      continue;
    }
    const added = before[seat] + (result.points[seat] as number);
    const milestone = rules.milestones.find(([at]) => at === added);
    const landed = milestone ? milestone[1] : added;
    const robbed = result.totals[seat] - landed;
    if (rules.milestoneRobbery) expect(robbed >= 0 && robbed % 30 === 0, `seat ${seat} robbed ${robbed}`).toBe(true);
    else expect(robbed).toBe(0);
    if (result.totals[seat] > rules.eliminationLimit) eliminated.push(seat);
  }
  expect(result.eliminated).toEqual(eliminated);
}

// ---------------------------------------------------------------- playing

interface Played {
  state: GameState;
  record: ReturnType<typeof playGame>['record'];
  results: RoundResult[];
  turns: number;
}

interface GameSpec {
  preset: string;
  rules?: RuleOptionsInput;
  players: number;
  seed: number;
}

/** Plays a game with every invariant checked before each turn and at each round's end. */
function playChecked({ preset, rules = {}, players, seed }: GameSpec, probe = true): Played {
  const results: RoundResult[] = [];
  let round = 0;
  let before: number[] = [];
  let wasActive: boolean[] = [];
  const closeRound = (s: GameState) => {
    const result = s.lastResult as RoundResult;
    checkRound(s, before, wasActive, result);
    results.push(result);
  };
  const check = (s: GameState, turns: TurnMove[], random: () => number) => {
    if (s.round !== round) {
      if (round > 0) closeRound(s);
      round = s.round;
      before = [...(results.length > 0 ? results[results.length - 1].totals : Array.from(s.totals))];
      wasActive = Array.from(s.active, (a) => a === 1);
    }
    checkCards(s);
    checkHands(s);
    expect(turns.length).toBeGreaterThan(0);
    if (probe) checkMoves(s, turns, random);
  };
  const game = playGame({ preset, rules, players, seed, choose: chooser(seed, check), maxTurns: MAX_TURNS });
  const { state } = game;
  checkCards(state);
  if (state.phase === PHASE_BETWEEN_ROUNDS || state.phase === PHASE_GAME_OVER) closeRound(state);
  return { ...game, results };
}

const OPTION_MIX: fc.Arbitrary<RuleOptionsInput> = fc.record(
  {
    quickDiscard: fc.boolean(),
    slapdown: fc.boolean(),
    milestoneRobbery: fc.boolean(),
    pickFromRun: fc.constantFrom('ends', 'any'),
    pickFromSet: fc.constantFrom('any', 'ends'),
    jokersPerDeck: fc.constantFrom(0, 2, 4),
    handSize: fc.integer({ min: 3, max: 7 }),
    yanivThreshold: fc.integer({ min: 3, max: 12 }),
    gameEnd: fc.constantFrom('lastSurvivor', 'firstOverLimit', 'yanivCount'),
    yanivsToWin: fc.integer({ min: 1, max: 4 }),
    nextStarter: fc.constantFrom('rotate', 'roundWinner', 'lowestHand'),
    eliminationLimit: fc.integer({ min: 40, max: 200 }),
    assafTiePenalty: fc.option(fc.integer({ min: 0, max: 40 })),
    assaf: fc.boolean(),
    assafScoring: fc.constantFrom('lowest', 'othersZero', 'everyone'),
    assafPenalty: fc.integer({ min: 0, max: 40 }),
    jackValue: fc.integer({ min: 0, max: 10 }),
    milestones: fc.constantFrom(
      [],
      [
        [50, 25],
        [100, 50],
      ],
      [
        [50, 0],
        [100, 50],
        [150, 100],
        [200, 150],
      ],
      [
        [20, 60],
        [60, 20],
      ],
    ),
    decks: fc.constant(2), // 1 is the default up to 5 players; 2 decks for a small table still deal
  },
  { requiredKeys: [] },
);

const players = fc.integer({ min: 2, max: 8 });
const seed = fc.integer({ min: 0, max: 2 ** 31 - 1 });

describe('random games', () => {
  it.each(PRESET_NAMES)(
    '%s: cards are conserved, hands and totals stay consistent, moves are accepted exactly when legal',
    (preset) => {
      let finished = 0;
      fc.assert(
        fc.property(players, seed, (n, sd) => {
          const game = playChecked({ preset, players: n, seed: sd });
          if (game.state.phase === PHASE_GAME_OVER) finished++;
        }),
        { numRuns: RUNS, seed: 2026 + preset.length },
      );
      expect(finished).toBeGreaterThan(0);
    },
    TIMEOUT,
  );

  it(
    'the same under a mix of the options no preset switches on',
    () => {
      fc.assert(
        fc.property(fc.constantFrom(...PRESET_NAMES), OPTION_MIX, players, seed, (preset, rules, n, sd) => {
          playChecked({ preset, rules, players: n, seed: sd });
        }),
        { numRuns: RUNS * 3, seed: 7 },
      );
    },
    TIMEOUT,
  );

  it(
    'the same seed gives the same game',
    () => {
      fc.assert(
        fc.property(fc.constantFrom(...PRESET_NAMES), players, seed, (preset, n, sd) => {
          const spec = { preset, players: n, seed: sd, choose: chooser(sd), maxTurns: MAX_TURNS };
          const a = playGame(spec);
          const b = playGame({ ...spec, choose: chooser(sd) });
          expect(b.record).toEqual(a.record);
          expect(Array.from(b.state.totals)).toEqual(Array.from(a.state.totals));
        }),
        { numRuns: RUNS * 2, seed: 11 },
      );
    },
    TIMEOUT,
  );

  it(
    'export then replay gives the same result, round by round, and the same final position',
    () => {
      fc.assert(
        fc.property(
          fc.constantFrom(...PRESET_NAMES),
          fc.option(OPTION_MIX),
          players,
          seed,
          fc.option(fc.integer({ min: 1, max: 400 })),
          (preset, rules, n, sd, cap) => {
            const rounds = roundResults();
            const game = playGame({
              preset,
              rules: rules ?? {},
              players: n,
              seed: sd,
              choose: chooser(sd, rounds.see),
              maxTurns: cap ?? MAX_TURNS,
            });
            const played = rounds.finish(game.state);
            const { result, state } = replay(parseRecord(JSON.stringify(game.record)));
            if (!result.ok) throw new Error(`replay failed: ${result.error}`);
            const finished = game.state.phase === PHASE_BETWEEN_ROUNDS || game.state.phase === PHASE_GAME_OVER;
            expect(result.rounds).toHaveLength(game.record.rounds.length);
            expect(result.rounds.at(-1)?.outcome === 'unfinished').toBe(!finished);
            expect(result.rounds.filter((r) => r.outcome !== 'unfinished')).toEqual(played.map((r) => structuredClone(r)));
            expect(result.totals).toEqual(Array.from(game.state.totals));
            expect(result.active).toEqual(Array.from(game.state.active).flatMap((a, seat) => (a ? [seat] : [])));
            expect(result.gameOver).toBe(game.state.phase === PHASE_GAME_OVER);
            expect(result.winner).toBe(game.state.phase === PHASE_GAME_OVER ? game.state.winner : null);
            expect(positionOf(state)).toEqual(positionOf(game.state));
          },
        ),
        { numRuns: RUNS * 3, seed: 13 },
      );
    },
    TIMEOUT,
  );
});

/** Collects each round's result as the game goes: a chooser sees the last result when the next round starts. */
function roundResults() {
  const results: RoundResult[] = [];
  let round = 0;
  return {
    see: (s: GameState): void => {
      if (s.round === round) return;
      if (round > 0) results.push(s.lastResult as RoundResult);
      round = s.round;
    },
    finish: (s: GameState): RoundResult[] => {
      if (s.lastResult && (s.phase === PHASE_BETWEEN_ROUNDS || s.phase === PHASE_GAME_OVER)) results.push(s.lastResult);
      return results;
    },
  };
}

/** What a replay must reproduce: every hand, the deck in order, the pile as cards, the previous group in order. */
function positionOf(s: GameState) {
  return {
    phase: s.phase,
    round: s.round,
    current: s.current,
    turn: s.turn,
    winner: s.winner,
    totals: Array.from(s.totals),
    active: Array.from(s.active),
    yanivWins: Array.from(s.yanivWins),
    hands: Array.from({ length: s.players }, (_, seat) => text(sorted(handOf(s, seat)))),
    handValues: Array.from({ length: s.players }, (_, seat) => handValue(s, seat)),
    deck: text(s.deck.subarray(0, s.deckLength)),
    pile: text(sorted(s.pile.subarray(0, s.pileLength))),
    prev: text(s.prev.subarray(0, s.prevLength)),
  };
}

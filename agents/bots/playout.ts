/**
 * Fast playout policies that play a sampled world on, straight on the engine's buffers (no
 * views, no allocation per turn). `playoutRound` is greedy: call Yaniv when allowed, lay the
 * group with the most points, take a previous card worth at most 2, else draw.
 * `playoutRoundStrong` plays a state-level version of the strong bot (below), and
 * `playoutRoundLight` strong's moves for the first turns, then quick ones.
 */
import {
  DiscardList,
  GROUP_CAP,
  type GameState,
  HAND_CAP,
  KIND_COUNT,
  PHASE_AFTER_DRAW,
  PHASE_DRAW,
  PHASE_TURN,
  bestGroupPoints,
  canCallYaniv,
  canDrawFromDeck,
  canQuickDiscard,
  canSlapDown,
  handValue,
  legalDiscards,
} from '../../env/index.js';
import { STRONG_DEFAULTS, type StrongConfig } from './strong.js';
// The engine's unchecked transitions, for playouts that only ever apply legal moves.
import { callYaniv, drawFromDeck, drawFromPrevious, layGroup, passAfterDraw, quickDiscard, slapDown } from '../../env/rules/engine.js';
import { stallPenalty } from './tactics.js';

const list = new DiscardList();

/** One seat's choices in a playout; the loop applies them to whoever is to move. */
interface PlayoutMoves {
  /** Whether to call when the hand is allowed to (it is worth at most the threshold). */
  call(s: GameState): boolean;
  lay(s: GameState): void;
  draw(s: GameState): void;
}

/** Plays turns with the given choices until the round ends or `maxTurns` turns have passed; returns the turns played. */
function playout(s: GameState, maxTurns: number, moves: PlayoutMoves): number {
  let turns = 0;
  while (turns < maxTurns) {
    const phase = s.phase;
    if (phase === PHASE_TURN) {
      if (canCallYaniv(s) && moves.call(s)) {
        callYaniv(s);
        return turns;
      }
      moves.lay(s);
    } else if (phase === PHASE_DRAW) {
      moves.draw(s);
      turns++;
    } else if (phase === PHASE_AFTER_DRAW) {
      if (canSlapDown(s)) slapDown(s);
      else if (canQuickDiscard(s)) quickDiscard(s);
      else passAfterDraw(s);
    } else {
      return turns;
    }
  }
  return turns;
}

const GREEDY: PlayoutMoves = { call: () => true, lay: layHighest, draw: drawGreedy };

/** Plays greedy turns until the round ends or `maxTurns` turns have passed; returns the turns played. */
export function playoutRound(s: GameState, maxTurns = 200): number {
  return playout(s, maxTurns, GREEDY);
}

function layHighest(s: GameState): void {
  legalDiscards(s, list);
  let best = 0;
  let bestPoints = -1;
  for (let i = 0; i < list.count; i++) {
    const points = list.points(i, s.values);
    if (points > bestPoints || (points === bestPoints && list.length[i] > list.length[best])) {
      best = i;
      bestPoints = points;
    }
  }
  layGroup(s, list.cards, list.length[best], list.groupType(best), best * GROUP_CAP);
}

function drawGreedy(s: GameState): void {
  let cheapest = -1;
  for (let i = 0; i < s.prevLength; i++) {
    if ((s.prevPickable >> i) & 1 && (cheapest < 0 || s.values[s.prev[i]] < s.values[cheapest])) cheapest = s.prev[i];
  }
  if (cheapest >= 0 && (s.values[cheapest] <= 2 || !canDrawFromDeck(s))) drawFromPrevious(s, cheapest);
  else drawFromDeck(s);
}

// ---------------------------------------------------------------- the strong-like playout policy

/**
 * Settings of the strong-like playout policy (`playoutRoundStrong`): strong's `lookahead`, and
 * its `callRisk` as the highest risk proxy at which a seat calls Yaniv.
 */
export type PlayoutPolicy = Pick<StrongConfig, 'lookahead' | 'callRisk'>;

/** Strong's own settings. */
export const STRONG_PLAYOUT: PlayoutPolicy = { lookahead: STRONG_DEFAULTS.lookahead, callRisk: STRONG_DEFAULTS.callRisk };

/** Per rule set (keyed by the shared composition table): the tables the strong playout reads. */
interface PlayoutTables {
  /** `sumAtMost[n * SUM_SPAN + t]`: chance that n cards dealt from the full decks add up to at most t. */
  sumAtMost: Float64Array;
  /** `expectedMax[b]`: the expectation of max(b, value of a card dealt from the full decks). */
  expectedMax: Float64Array;
  /** The mean value of a card of the decks. */
  mean: number;
}

const SUM_SPAN = 128;
const MAX_UNKNOWN = 8;
const tablesByComposition = new WeakMap<Uint8Array, PlayoutTables>();

/** Exact tables over the full decks (no card removed): drawing without replacement, counted by a subset DP. */
export function playoutTables(values: Uint8Array, composition: Uint8Array): PlayoutTables {
  let tables = tablesByComposition.get(composition);
  if (tables) return tables;
  // ways[n][s]: subsets of n physical cards with sum s.
  const ways = Array.from({ length: MAX_UNKNOWN + 1 }, () => new Float64Array(SUM_SPAN));
  ways[0][0] = 1;
  let total = 0;
  let sum = 0;
  for (let kind = 0; kind < composition.length; kind++) {
    for (let copy = 0; copy < composition[kind]; copy++) {
      const v = values[kind];
      total++;
      sum += v;
      for (let n = MAX_UNKNOWN; n >= 1; n--) for (let s = SUM_SPAN - 1; s >= v; s--) ways[n][s] += ways[n - 1][s - v];
    }
  }
  const sumAtMost = new Float64Array((MAX_UNKNOWN + 1) * SUM_SPAN);
  for (let n = 0; n <= MAX_UNKNOWN; n++) {
    let all = 0;
    for (let s = 0; s < SUM_SPAN; s++) all += ways[n][s];
    let running = 0;
    for (let s = 0; s < SUM_SPAN; s++) {
      running += ways[n][s];
      sumAtMost[n * SUM_SPAN + s] = all > 0 ? running / all : 0;
    }
  }
  const expectedMax = new Float64Array(SUM_SPAN);
  for (let b = 0; b < SUM_SPAN; b++) {
    let acc = 0;
    for (let kind = 0; kind < composition.length; kind++) acc += composition[kind] * Math.max(b, values[kind]);
    expectedMax[b] = total > 0 ? acc / total : b;
  }
  tables = { sumAtMost, expectedMax, mean: total > 0 ? sum / total : 0 };
  tablesByComposition.set(composition, tables);
  return tables;
}

/**
 * The strong bot's calling rule on a state, cheaply: the chance that some other active seat
 * holds no more than the mover, each opponent's hand being the cards it was seen taking plus
 * its other cards as if dealt from the full decks.
 */
export function callRiskProxy(s: GameState, tables: PlayoutTables): number {
  if (!s.rules.assaf) return 0;
  const seat = s.current;
  const mine = handValue(s, seat);
  let safe = 1;
  for (let p = 0; p < s.players; p++) {
    if (p === seat || !s.active[p]) continue;
    let knownPoints = 0;
    let knownCount = 0;
    const base = p * KIND_COUNT;
    for (let k = 0; k < KIND_COUNT; k++) {
      const c = s.known[base + k];
      if (c > 0) {
        knownCount += c;
        knownPoints += c * s.values[k];
      }
    }
    const unknown = Math.min(MAX_UNKNOWN, s.handLength[p] - knownCount);
    const room = mine - knownPoints;
    const low = room < 0 ? 0 : tables.sumAtMost[unknown * SUM_SPAN + Math.min(room, SUM_SPAN - 1)];
    safe *= 1 - low;
  }
  return 1 - safe;
}

const scratch = new Uint8Array(HAND_CAP + 1);

/** Points of the best group `scratch[0 .. length)` could lay. */
function bestGroup(s: GameState, length: number): number {
  return bestGroupPoints(scratch, 0, length, s.rules, s.values);
}

/** The card `bestDrawAfter` chose: one of the previous group, or -1 for the deck (a variable, not an object a call: playouts make millions). */
let bestDrawCard = -1;

/**
 * Strong's planning score of the hand `scratch[0 .. length)` after its best draw (lower is
 * better; the draw is left in `bestDrawCard`): the deck as points + mean card − lookahead ×
 * E[max(best group, card)], a pickable card c of the previous group as the hand with c, less
 * lookahead × its best group, plus strong's progress term in a stalled round (stallPenalty).
 */
function bestDrawAfter(s: GameState, length: number, points: number, tables: PlayoutTables, policy: PlayoutPolicy): number {
  let card = -1;
  let score = Infinity;
  let seats = 0;
  for (let p = 0; p < s.players; p++) seats += s.active[p];
  const stall = stallPenalty(s.turn, seats);
  if (canDrawFromDeck(s))
    score = points + tables.mean - policy.lookahead * tables.expectedMax[Math.min(bestGroup(s, length), SUM_SPAN - 1)];
  outer: for (let i = 0; i < s.prevLength; i++) {
    if (!((s.prevPickable >> i) & 1)) continue;
    const taken = s.prev[i];
    for (let j = 0; j < i; j++) if ((s.prevPickable >> j) & 1 && s.prev[j] === taken) continue outer;
    scratch[length] = taken;
    const takenScore = points + s.values[taken] - policy.lookahead * bestGroup(s, length + 1) + stall;
    if (takenScore < score) {
      score = takenScore;
      card = taken;
    }
  }
  bestDrawCard = card;
  return score;
}

const turnList = new DiscardList();
/**
 * The sets of hand positions already scored this turn (marked with the turn's stamp): the same
 * cards laid in another order leave the same hand, so each is scored once.
 */
const scoredTurn = new Uint32Array(1 << HAND_CAP);
let turnStamp = 0;

/** The strong-like discard: the group leaving the best hand after the best draw (the first such group listed). */
function layStrong(s: GameState, tables: PlayoutTables, policy: PlayoutPolicy): void {
  legalDiscards(s, turnList);
  const base = s.current * HAND_CAP;
  const length = s.handLength[s.current];
  turnStamp = (turnStamp + 1) >>> 0 || 1;
  let best = 0;
  let bestScore = Infinity;
  for (let i = 0; i < turnList.count; i++) {
    // The hand less group i, in scratch; `laidAt`: the hand positions it takes.
    let rest = 0;
    let points = 0;
    let removed = 0;
    let laidAt = 0;
    const g = i * GROUP_CAP;
    const glen = turnList.length[i];
    for (let h = 0; h < length; h++) {
      const card = s.hands[base + h];
      let inGroup = false;
      for (let j = 0; j < glen; j++)
        if (((removed >> j) & 1) === 0 && turnList.cards[g + j] === card) {
          removed |= 1 << j;
          inGroup = true;
          break;
        }
      if (inGroup) laidAt |= 1 << h;
      else {
        scratch[rest++] = card;
        points += s.values[card];
      }
    }
    // An order of a group already scored leaves the same hand: it cannot score lower.
    if (scoredTurn[laidAt] === turnStamp) continue;
    scoredTurn[laidAt] = turnStamp;
    const score = bestDrawAfter(s, rest, points, tables, policy);
    if (score < bestScore) {
      bestScore = score;
      best = i;
    }
  }
  layGroup(s, turnList.cards, turnList.length[best], turnList.groupType(best), best * GROUP_CAP);
}

/** The strong-like draw: the deck or a pickable card, whichever leaves the better hand. */
function drawStrong(s: GameState, tables: PlayoutTables, policy: PlayoutPolicy): void {
  const base = s.current * HAND_CAP;
  const length = s.handLength[s.current];
  let points = 0;
  for (let h = 0; h < length; h++) {
    scratch[h] = s.hands[base + h];
    points += s.values[scratch[h]];
  }
  bestDrawAfter(s, length, points, tables, policy);
  if (bestDrawCard >= 0) drawFromPrevious(s, bestDrawCard);
  else drawFromDeck(s);
}

/**
 * Plays turns with a state-level version of the strong bot until the round ends or `maxTurns`
 * turns have passed: Yaniv when the hand may call and `callRiskProxy` is at most
 * `policy.callRisk`; the discard and draw by strong's planning score; slapdowns and quick
 * discards whenever offered. Returns the turns played.
 */
export function playoutRoundStrong(s: GameState, maxTurns = 200, policy: PlayoutPolicy = STRONG_PLAYOUT): number {
  const tables = playoutTables(s.values, s.composition);
  return playout(s, maxTurns, {
    call: (t) => t.handLength[t.current] === 0 || callRiskProxy(t, tables) <= policy.callRisk,
    lay: (t) => layStrong(t, tables, policy),
    draw: (t) => drawStrong(t, tables, policy),
  });
}

/** Strong's hand score of a seat in a state: points less lookahead × its best group. */
export function handScoreOf(s: GameState, seat: number, lookahead: number): number {
  const base = seat * HAND_CAP;
  const length = s.handLength[seat];
  let points = 0;
  for (let h = 0; h < length; h++) {
    scratch[h] = s.hands[base + h];
    points += s.values[scratch[h]];
  }
  return points - lookahead * bestGroup(s, length);
}

/**
 * Strong's moves for the first `strongTurns` whole turns (the replies to the move being weighed),
 * then quick ones to the round's end: strong's calling rule (`callRiskProxy`), the greedy lay
 * and draw. Measured against the strong playout to the end (96 worlds, positions of strong's
 * games at 2–6 seats, `strongTurns` = the table size): the same chance to win within ±0.2
 * points on average, for a third to a half of the time (docs/design.md, "Advice throughput").
 */
export function playoutRoundLight(s: GameState, strongTurns: number, maxTurns = 200, policy: PlayoutPolicy = STRONG_PLAYOUT): number {
  const tables = playoutTables(s.values, s.composition);
  const call = (t: GameState) => t.handLength[t.current] === 0 || callRiskProxy(t, tables) <= policy.callRisk;
  const turns = playout(s, Math.min(strongTurns, maxTurns), {
    call,
    lay: (t) => layStrong(t, tables, policy),
    draw: (t) => drawStrong(t, tables, policy),
  });
  if (s.phase > PHASE_AFTER_DRAW) return turns;
  return turns + playout(s, maxTurns - turns, { call, lay: layHighest, draw: drawGreedy });
}

/**
 * The legal-discard generator: every legal group a hand can lay, each in every laid order
 * that matters for which cards stay pickable (and, with quick discards, which side a card
 * can join), each once. Written for the hot path: no allocation per call.
 */
import { type Card, JOKER, KIND_COUNT, RANK_COUNT, RANK_OF, SUIT_COUNT, SUIT_OF, cardOf } from './cards.js';
import { GROUP_CAP, type GroupType, type PickRules, RUN, SET, SINGLE, runEndsMatter, setEndsMatter } from './groups.js';

/** More than any hand of at most 7 cards can lay (the densest, 2 decks and 8 jokers, stays far below). */
export const MAX_DISCARDS = 1024;
const MIN_RUN = 3;

/** Discard groups in fixed-stride buffers: group i is `cards[i*GROUP_CAP .. +length[i]]`. */
export class DiscardList {
  count = 0;
  readonly cards = new Uint8Array(MAX_DISCARDS * GROUP_CAP);
  readonly length = new Uint8Array(MAX_DISCARDS);
  readonly type = new Uint8Array(MAX_DISCARDS);

  /** Group i as an array of cards in laid order. */
  group(i: number): Card[] {
    return Array.from(this.cards.subarray(i * GROUP_CAP, i * GROUP_CAP + this.length[i]));
  }

  groupType(i: number): GroupType {
    return this.type[i] as GroupType;
  }

  /** Index of the group with exactly these cards in this order, or -1. */
  indexOf(cards: readonly Card[]): number {
    outer: for (let i = 0; i < this.count; i++) {
      if (this.length[i] !== cards.length) continue;
      const base = i * GROUP_CAP;
      for (let j = 0; j < cards.length; j++) if (this.cards[base + j] !== cards[j]) continue outer;
      return i;
    }
    return -1;
  }

  /** Points of group i under a value table. */
  points(i: number, values: Uint8Array): number {
    let sum = 0;
    for (let j = i * GROUP_CAP, end = j + this.length[i]; j < end; j++) sum += values[this.cards[j]];
    return sum;
  }

  push(type: GroupType, cards: ArrayLike<Card>, length: number): void {
    if (this.count >= MAX_DISCARDS) throw new RangeError('more discard groups than MAX_DISCARDS');
    const base = this.count * GROUP_CAP;
    for (let j = 0; j < length; j++) this.cards[base + j] = cards[j];
    this.length[this.count] = length;
    this.type[this.count] = type;
    this.count++;
  }
}

// Scratch space: generation is synchronous and never re-entered.
const counts = new Uint8Array(KIND_COUNT);
const rankCounts = new Uint8Array(RANK_COUNT + 1);
const suitRanks = new Uint16Array(SUIT_COUNT);
const sorted = new Uint8Array(GROUP_CAP);
const laid = new Uint8Array(GROUP_CAP);
const taken = new Uint8Array(SUIT_COUNT);

/** Fills `out` with every legal discard of `hand[offset .. offset+length]`. */
export function generateDiscards(hand: Uint8Array, offset: number, length: number, rules: PickRules, out: DiscardList): void {
  out.count = 0;
  for (let i = 0; i < length; i++) {
    const card = hand[offset + i];
    counts[card]++;
    rankCounts[RANK_OF[card]]++;
    if (card !== JOKER) suitRanks[SUIT_OF[card]] |= 1 << (RANK_OF[card] - 1);
  }
  pushSingles(hand, offset, length, out);
  pushSets(rules, out);
  pushRuns(rules, out);
  for (let i = 0; i < length; i++) {
    const card = hand[offset + i];
    counts[card] = 0;
    rankCounts[RANK_OF[card]] = 0;
  }
  suitRanks.fill(0);
}

/** One single per kind held, in kind order. */
function pushSingles(hand: Uint8Array, offset: number, length: number, out: DiscardList): void {
  let previous = -1;
  for (;;) {
    let next = KIND_COUNT;
    for (let i = 0; i < length; i++) {
      const card = hand[offset + i];
      if (card > previous && card < next) next = card;
    }
    if (next === KIND_COUNT) return;
    laid[0] = next;
    out.push(SINGLE, laid, 1);
    previous = next;
  }
}

function pushSets(rules: PickRules, out: DiscardList): void {
  const jokers = counts[JOKER];
  for (let rank = 1; rank <= RANK_COUNT; rank++) {
    const naturals = rankCounts[rank];
    if (naturals === 0 || naturals + jokers < 2) continue;
    pushSetsOfRank(rank, 0, 0, jokers, rules, out);
  }
  for (let j = 2; j <= jokers; j++) {
    for (let i = 0; i < j; i++) sorted[i] = JOKER;
    pushSetOrders(j, rules, out);
  }
}

/** Chooses how many of each suit (0..count) to lay, then adds 0..jokers jokers. */
function pushSetsOfRank(rank: number, suit: number, naturals: number, jokers: number, rules: PickRules, out: DiscardList): void {
  if (suit === SUIT_COUNT) {
    if (naturals === 0) return;
    let n = 0;
    for (let s = 0; s < SUIT_COUNT; s++) for (let c = 0; c < taken[s]; c++) sorted[n++] = cardOf(s, rank);
    for (let j = 0; j <= jokers && n + j <= GROUP_CAP - 1; j++) {
      if (n + j < 2) {
        sorted[n + j] = JOKER;
        continue;
      }
      pushSetOrders(n + j, rules, out);
      sorted[n + j] = JOKER;
    }
    return;
  }
  const available = counts[cardOf(suit, rank)];
  for (let c = 0; c <= available; c++) {
    taken[suit] = c;
    pushSetsOfRank(rank, suit + 1, naturals + c, jokers, rules, out);
  }
  taken[suit] = 0;
}

/** `sorted[0..n)` is a set in kind order; lays it once, or once per choice of ends where ends matter. */
function pushSetOrders(n: number, rules: PickRules, out: DiscardList): void {
  if (!setEndsMatter(rules) || (n === 2 && !rules.quickDiscard)) {
    out.push(SET, sorted, n);
    return;
  }
  for (let a = 0; a < n; a++) {
    if (a > 0 && sorted[a] === sorted[a - 1]) continue;
    for (let b = 0; b < n; b++) {
      if (b === a || (b > 0 && sorted[b] === sorted[b - 1] && b - 1 !== a)) continue;
      if (!rules.quickDiscard && sorted[a] > sorted[b]) continue;
      laid[0] = sorted[a];
      laid[n - 1] = sorted[b];
      let k = 1;
      for (let i = 0; i < n; i++) if (i !== a && i !== b) laid[k++] = sorted[i];
      out.push(SET, laid, n);
    }
  }
}

function pushRuns(rules: PickRules, out: DiscardList): void {
  const jokers = counts[JOKER];
  const everyPlacement = runEndsMatter(rules);
  for (let suit = 0; suit < SUIT_COUNT; suit++) {
    const ranks = suitRanks[suit];
    if ((ranks & (ranks - 1)) === 0) continue;
    for (let chosen = ranks; chosen !== 0; chosen = (chosen - 1) & ranks) {
      const naturals = popcount(chosen);
      if (naturals < 2) continue;
      const lo = lowestRank(chosen);
      const hi = highestRank(chosen);
      const span = hi - lo + 1;
      const gaps = span - naturals;
      for (let extra = Math.max(0, MIN_RUN - span); gaps + extra <= jokers; extra++) {
        const length = span + extra;
        if (length > RANK_COUNT || length > GROUP_CAP - 1) break;
        const first = Math.max(1, hi - length + 1);
        const last = everyPlacement ? Math.min(lo, RANK_COUNT + 1 - length) : first;
        for (let start = first; start <= last; start++) {
          for (let i = 0; i < length; i++) {
            const rank = start + i;
            laid[i] = (chosen >> (rank - 1)) & 1 ? cardOf(suit, rank) : JOKER;
          }
          out.push(RUN, laid, length);
        }
      }
    }
  }
}

/** The lowest rank in a mask of ranks (bit r − 1 for rank r). */
function lowestRank(ranks: number): number {
  return 32 - Math.clz32(ranks & -ranks);
}

/** The highest rank in a mask of ranks. */
function highestRank(ranks: number): number {
  return 32 - Math.clz32(ranks);
}

function popcount(x: number): number {
  let n = 0;
  for (; x !== 0; x &= x - 1) n++;
  return n;
}

/**
 * Points of the best group `hand[offset .. offset+length)` can lay (0 for an empty hand): the
 * most points among the groups `generateDiscards` lists, found without listing them (the laid
 * order never changes the points, and with values of 0 or more a bigger group of the same
 * cards is never worth less). The playouts ask this several times a turn; test/env/rules checks
 * it against the listing on random hands and values under every preset.
 */
export function bestGroupPoints(hand: Uint8Array, offset: number, length: number, rules: PickRules, values: Uint8Array): number {
  let best = 0;
  let jokers = 0;
  for (let i = offset; i < offset + length; i++) {
    const card = hand[i];
    if (values[card] > best) best = values[card];
    if (card === JOKER) jokers++;
    else {
      rankCounts[RANK_OF[card]]++;
      rankSums[RANK_OF[card]] += values[card];
      suitRanks[SUIT_OF[card]] |= 1 << (RANK_OF[card] - 1);
    }
  }
  const jokerValue = values[JOKER];
  if (jokers >= 2) best = Math.max(best, jokers * jokerValue);
  // Each rank and suit once: its entry is cleared once it has been weighed.
  for (let i = offset; i < offset + length; i++) {
    const card = hand[i];
    if (card === JOKER) continue;
    const rank = RANK_OF[card];
    if (rankCounts[rank] > 0) {
      best = Math.max(best, bestSetPoints(hand, offset, length, rank, jokers, jokerValue, values));
      rankCounts[rank] = 0;
      rankSums[rank] = 0;
    }
    const suit = SUIT_OF[card];
    if (suitRanks[suit] !== 0) {
      best = Math.max(best, bestRunPoints(suit, jokers, jokerValue, values));
      suitRanks[suit] = 0;
    }
  }
  return best;
}

const rankSums = new Uint16Array(RANK_COUNT + 1);
/** More cards than any hand holds (a hand with its drawn card). */
const rankValues = new Uint8Array(16);

/** The best set of a rank (`pushSetsOfRank`): k ≥ 1 of its naturals, the highest first, and as many jokers as fit. */
function bestSetPoints(
  hand: Uint8Array,
  offset: number,
  length: number,
  rank: number,
  jokers: number,
  jokerValue: number,
  values: Uint8Array,
): number {
  const naturals = rankCounts[rank];
  if (naturals + jokers < 2) return 0;
  // Every natural and every joker when they fit in a group: the common case.
  if (naturals + jokers <= GROUP_CAP - 1) return rankSums[rank] + jokers * jokerValue;
  let n = 0;
  for (let i = offset; i < offset + length; i++) {
    const card = hand[i];
    if (card === JOKER || RANK_OF[card] !== rank) continue;
    // Insertion in descending order of value.
    let at = n++;
    while (at > 0 && rankValues[at - 1] < values[card]) rankValues[at] = rankValues[--at];
    rankValues[at] = values[card];
  }
  let best = 0;
  let sum = 0;
  for (let k = 1; k <= n && k <= GROUP_CAP - 1; k++) {
    sum += rankValues[k - 1];
    const j = Math.min(jokers, GROUP_CAP - 1 - k);
    if (k + j >= 2) best = Math.max(best, sum + j * jokerValue);
  }
  return best;
}

/** The best run of a suit (`pushRuns`): per choice of its naturals, the longest run the jokers allow. */
function bestRunPoints(suit: number, jokers: number, jokerValue: number, values: Uint8Array): number {
  const ranks = suitRanks[suit];
  if ((ranks & (ranks - 1)) === 0) return 0;
  let best = 0;
  for (let chosen = ranks; chosen !== 0; chosen = (chosen - 1) & ranks) {
    const naturals = popcount(chosen);
    if (naturals < 2) continue;
    const span = highestRank(chosen) - lowestRank(chosen) + 1;
    const longest = Math.min(naturals + jokers, RANK_COUNT, GROUP_CAP - 1);
    if (longest < Math.max(span, MIN_RUN)) continue;
    let points = (longest - naturals) * jokerValue;
    for (let rest = chosen; rest !== 0; rest &= rest - 1) points += values[cardOf(suit, lowestRank(rest))];
    best = Math.max(best, points);
  }
  return best;
}

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
      const lo = 32 - Math.clz32(chosen & -chosen);
      const hi = 32 - Math.clz32(chosen);
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

function popcount(x: number): number {
  let n = 0;
  for (; x !== 0; x &= x - 1) n++;
  return n;
}

const bestList = new DiscardList();

/** Points of the best group `hand[offset .. offset+length)` can lay (0 for an empty hand). */
export function bestGroupPoints(hand: Uint8Array, offset: number, length: number, rules: PickRules, values: Uint8Array): number {
  if (length === 0) return 0;
  generateDiscards(hand, offset, length, rules, bestList);
  let best = 0;
  for (let i = 0; i < bestList.count; i++) best = Math.max(best, bestList.points(i, values));
  return best;
}

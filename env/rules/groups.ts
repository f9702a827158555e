/**
 * Discard groups (RULES.md, "Legal discard groups" and "Which cards of the previous
 * group may be taken"): what a laid group is, its canonical laid order, which of its
 * cards the next player may take, and how a quick discard extends it.
 */
import { type Card, JOKER, RANK_OF, SUIT_OF, formatCards } from './cards.js';
import type { Rules } from './rules.js';

export const SINGLE = 1;
export const SET = 2;
export const RUN = 3;
export type GroupType = typeof SINGLE | typeof SET | typeof RUN;
export type GroupTypeName = 'single' | 'set' | 'run';
export const GROUP_TYPE_NAMES: Readonly<Record<GroupType, GroupTypeName>> = { [SINGLE]: 'single', [SET]: 'set', [RUN]: 'run' };
const GROUP_TYPES = Object.fromEntries(Object.entries(GROUP_TYPE_NAMES).map(([type, name]) => [name, Number(type)])) as Record<
  GroupTypeName,
  GroupType
>;

/** The type a name stands for (GROUP_TYPE_NAMES read backwards). */
export function groupTypeOf(name: GroupTypeName): GroupType {
  return GROUP_TYPES[name];
}

/** A hand never exceeds 7 cards, and a quick discard adds one to a group. */
export const GROUP_CAP = 8;

export type PickRules = Pick<Rules, 'pickFromSet' | 'pickFromRun' | 'quickDiscard'>;

/** Whether the order of a set's cards matters: only its ends may be taken. */
export function setEndsMatter(rules: PickRules): boolean {
  return rules.pickFromSet === 'ends';
}

/** Whether a run's jokers may sit at more than one place with the same cards and still differ. */
export function runEndsMatter(rules: PickRules): boolean {
  return rules.pickFromRun === 'ends' || rules.quickDiscard;
}

/** Bit i set: the card at position i may be taken by the next player. */
export function pickableMask(type: GroupType, length: number, rules: PickRules): number {
  const all = (1 << length) - 1;
  const ends = 1 | (1 << (length - 1));
  if (type === SINGLE) return 1;
  if (type === SET) return rules.pickFromSet === 'any' ? all : ends;
  return rules.pickFromRun === 'any' ? all : ends;
}

export type Classified = { type: GroupType; cards: Card[] } | { error: string };

/**
 * Reads a group as laid and returns its type with the canonical laid order (runs ascending;
 * sets sorted, keeping the ends where they matter), or why it is not a legal group.
 */
export function classifyLaid(laid: readonly Card[], rules: PickRules): Classified {
  if (laid.length === 0) return { error: 'a discard needs at least one card' };
  if (laid.length === 1) return { type: SINGLE, cards: [laid[0]] };
  const naturals = laid.filter((c) => c !== JOKER);
  if (naturals.every((c) => RANK_OF[c] === RANK_OF[naturals[0] ?? JOKER])) {
    return { type: SET, cards: canonicalSetOrder(laid, rules) };
  }
  const run = readRun(laid);
  if (typeof run === 'string') return { error: `${formatCards(laid)} is not a legal group: ${run}` };
  return { type: RUN, cards: canonicalRunOrder(run, rules) };
}

/** Sets: cards sorted by kind, jokers last; where only ends may be taken, the laid ends stay ends. */
export function canonicalSetOrder(laid: readonly Card[], rules: PickRules): Card[] {
  if (!setEndsMatter(rules)) return [...laid].sort((a, b) => a - b);
  let first = laid[0];
  let last = laid[laid.length - 1];
  // Without quick discards the two ends are interchangeable; with them the first one stays an end.
  if (!rules.quickDiscard && first > last) [first, last] = [last, first];
  return [first, ...laid.slice(1, -1).sort((a, b) => a - b), last];
}

/**
 * Runs: ascending. Where a run's ends do not matter, jokers beyond the naturals sit as low as
 * the ranks allow, so that runs of the same cards have one laid order.
 */
export function canonicalRunOrder(ascending: readonly Card[], rules: PickRules): Card[] {
  if (runEndsMatter(rules)) return [...ascending];
  const naturals = ascending.filter((c) => c !== JOKER);
  const highest = RANK_OF[naturals[naturals.length - 1]];
  const start = Math.max(1, highest - ascending.length + 1);
  const byRank = new Map(naturals.map((c) => [RANK_OF[c], c]));
  return ascending.map((_, i) => byRank.get(start + i) ?? JOKER);
}

/** Returns the run in ascending order, or why the cards are not one. */
function readRun(laid: readonly Card[]): Card[] | string {
  if (laid.length < 3) return 'two cards of different ranks are not a set, and a run needs three';
  const positions: number[] = [];
  laid.forEach((c, i) => {
    if (c !== JOKER) positions.push(i);
  });
  const suit = SUIT_OF[laid[positions[0]]];
  if (positions.some((i) => SUIT_OF[laid[i]] !== suit)) return 'a run needs cards of one suit';
  const [i0, i1] = positions;
  const step = (RANK_OF[laid[i1]] - RANK_OF[laid[i0]]) / (i1 - i0);
  if (step !== 1 && step !== -1) return 'not a legal run: ranks must follow each other, jokers filling the gaps';
  const startRank = RANK_OF[laid[i0]] - step * i0;
  for (const i of positions) {
    if (RANK_OF[laid[i]] !== startRank + step * i) return 'not a legal run: ranks must follow each other, jokers filling the gaps';
  }
  const endRank = startRank + step * (laid.length - 1);
  if (Math.min(startRank, endRank) < 1 || Math.max(startRank, endRank) > 13) {
    return 'not a legal run: every position must be a rank from A to K (ace is low, no wrap-around)';
  }
  return step === 1 ? [...laid] : [...laid].reverse();
}

/** Rank of the first natural card of a set or single, 0 when it has none. */
export function setRank(cards: ArrayLike<Card>, length: number): number {
  for (let i = 0; i < length; i++) if (cards[i] !== JOKER) return RANK_OF[cards[i]];
  return 0;
}

/** Lowest rank of an ascending run. */
export function runStartRank(cards: ArrayLike<Card>, length: number): number {
  for (let i = 0; i < length; i++) if (cards[i] !== JOKER) return RANK_OF[cards[i]] - i;
  return 0;
}

export const EXTEND_NONE = 0;
export const EXTEND_START = 1;
export const EXTEND_END = 2;

/** Where a card drawn from the deck may join the group just laid (quick discard), if anywhere. */
export function quickExtension(type: GroupType, cards: ArrayLike<Card>, length: number, drawn: Card): number {
  if (drawn === JOKER) return EXTEND_NONE;
  if (type !== RUN) {
    const rank = setRank(cards, length);
    return rank !== 0 && RANK_OF[drawn] === rank ? EXTEND_END : EXTEND_NONE;
  }
  let suit = -1;
  for (let i = 0; i < length; i++)
    if (cards[i] !== JOKER) {
      suit = SUIT_OF[cards[i]];
      break;
    }
  if (SUIT_OF[drawn] !== suit) return EXTEND_NONE;
  const lo = runStartRank(cards, length);
  if (RANK_OF[drawn] === lo - 1) return EXTEND_START;
  if (RANK_OF[drawn] === lo + length) return EXTEND_END;
  return EXTEND_NONE;
}

/**
 * The exact chance that a Yaniv call now is Assaf'ed, from what the caller's view knows: the
 * probability that some active opponent's hand is worth no more than the caller's (RULES.md,
 * "Showdown and scoring a round": a tie is an Assaf too); 0 under `assaf: false`.
 *
 * The model is determinisation's (env/rules/determinize.ts): the opponents' unknown cards are
 * disjoint uniform draws without replacement from the unseen cards (`unseenCounts`), the cards
 * each opponent was seen taking stay in its hand. Only values matter, so the unseen cards are
 * counted per value. An opponent with known points K and k unknown cards is *low* when its k
 * cards are worth at most t = callerValue − K; the call is Assaf'ed when some opponent is low.
 *
 * Method (exact): with B the event that opponents i+1… are all not low,
 *   P(opponents i… all not low | pool) = P(B | pool) − Σ_h P(opponent i holds h | pool) · P(B | pool − h),
 * the sum over the *low* hands h of opponent i (value vectors of k cards worth at most t, few:
 * only cards worth at most t can be in one). P(B | pool) ignores opponent i's draw, which is
 * exact because the draws are exchangeable: the other hands are uniform from the pool whatever
 * opponent i holds, when nothing about it is conditioned on. The same argument drops opponents
 * that cannot be low (known cards above the caller's value) from the start. The recursion is
 * memoised on (opponent, pool), the pool changing only in the low values, and P(h | pool) is a
 * multivariate hypergeometric probability. No sampling: the same view always gives the same risk.
 */
import { MAX_CARD_VALUE, binomial } from './cards.js';
import { randomInt, seededRng } from './random.js';
import { HAND_CAP, ruleTables } from './state.js';
import { type PlayerView, unseenCounts } from './view.js';

/** What the risk depends on: per opponent its unknown cards and the points they may total at most to be low. */
interface Opponent {
  readonly unknown: number;
  readonly budget: number;
}

/** The chance of Assaf, and whether it is exact (see `EXACT_WORK_LIMIT`). */
export interface AssafRisk {
  readonly risk: number;
  readonly exact: boolean;
}

/**
 * The exact count visits up to this many low hands (a few milliseconds). Past it, which only big
 * tables with a high threshold reach (8 players, threshold 15: up to seconds exactly), the risk is
 * the share of Assafs in `SAMPLED_DEALS` deals from a fixed seed: still the same for the same view,
 * within ±0.016 (two standard errors) of the exact one.
 */
export const EXACT_WORK_LIMIT = 20_000;
export const SAMPLED_DEALS = 4096;

/**
 * The last view asked and its risk: an explained advice asks three times for the same view's (the
 * bot's call, the advice's `assaf`, the call's reason), one after the other, and a view is not
 * changed once made. One slot, not a WeakMap keyed by view (V8 keeps a WeakMap's young keys and
 * values through young-generation collections: each request's view would be promoted).
 */
let last: { view: PlayerView; risk: AssafRisk } | undefined;

/** The chance that calling Yaniv from `view` (its seat calling, with `view.hand`) is Assaf'ed. */
export function assafRisk(view: PlayerView): AssafRisk {
  if (last?.view === view) return last.risk;
  const risk = riskOf(view);
  last = { view, risk };
  return risk;
}

function riskOf(view: PlayerView): AssafRisk {
  const table = callTable(view);
  if ('risk' in table) return table;
  const safe = new NoneLow(table.opponents, table.counts, table.total).probability();
  if (safe === null) return { risk: sampledRisk(table.opponents, table.counts), exact: false };
  return { risk: clamp01(1 - safe), exact: true };
}

/**
 * Whether the chance that a call from `view` is Assaf'ed is at most `bound`: what a bot deciding
 * whether to call needs, mostly without the whole count. The risk is at least the likeliest
 * opponent's own chance of being low and at most the sum of those chances (the union bound), each
 * one opponent's exact count (a few low hands); only between the two is the risk counted as
 * `assafRisk` counts it. The same answer as comparing `assafRisk(view).risk`, but where the exact
 * count would sample (8 seats with a high threshold): there the bounds answer exactly, the sample
 * within its ±0.016.
 */
export function assafRiskAtMost(view: PlayerView, bound: number): boolean {
  if (last?.view === view) return last.risk.risk <= bound;
  const table = callTable(view);
  if ('risk' in table) return table.risk <= bound;
  let likeliest = 0;
  let sum = 0;
  for (const opponent of table.opponents) {
    const alone = new NoneLow([opponent], table.counts, table.total).probability();
    if (alone === null) return assafRisk(view).risk <= bound;
    const low = clamp01(1 - alone);
    likeliest = Math.max(likeliest, low);
    sum += low;
  }
  if (likeliest > bound) return false;
  if (sum <= bound) return true;
  return assafRisk(view).risk <= bound;
}

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

/** The opponents that may be low with the unseen pool by value, or the risk when it needs no count (0 or 1). */
function callTable(view: PlayerView): AssafRisk | { opponents: Opponent[]; counts: number[]; total: number } {
  if (!view.rules.assaf) return { risk: 0, exact: true };
  const values = ruleTables(view.rules).values;
  const unseen = unseenCounts(view);
  const opponents: Opponent[] = [];
  let unknownSlots = 0;
  let certain = false;
  for (let seat = 0; seat < view.players; seat++) {
    if (seat === view.seat || !view.active[seat]) continue;
    const unknown = view.handSizes[seat] - view.known[seat].length;
    if (unknown < 0)
      throw new RangeError(
        `the view is inconsistent: seat ${seat} holds ${view.handSizes[seat]} cards but ${view.known[seat].length} are known`,
      );
    unknownSlots += unknown;
    let known = 0;
    for (const card of view.known[seat]) known += values[card];
    const budget = view.handValue - known;
    if (budget < 0) continue; // never low: drop it (exchangeability)
    if (budget >= unknown * MAX_CARD_VALUE) certain = true; // low whatever it holds
    opponents.push({ unknown, budget });
  }
  const pool = poolByValue(unseen, values);
  if (pool.total < unknownSlots)
    throw new RangeError(`the view is inconsistent: ${unknownSlots} unknown cards in the opponents' hands but only ${pool.total} unseen`);
  if (certain) return { risk: 1, exact: true };
  opponents.sort((a, b) => b.budget - a.budget);
  return { opponents, counts: pool.counts, total: pool.total };
}

/** The share of `SAMPLED_DEALS` deals (from a fixed seed) in which some opponent is low. */
function sampledRisk(opponents: readonly Opponent[], counts: readonly number[]): number {
  const pool = counts.flatMap((count, value) => new Array<number>(count).fill(value));
  const rng = seededRng(0);
  let assafs = 0;
  for (let deal = 0; deal < SAMPLED_DEALS; deal++) {
    let drawn = 0;
    const low = opponents.some(({ unknown, budget }) => {
      let points = 0;
      for (let i = 0; i < unknown; i++, drawn++) {
        const j = randomInt(rng, drawn, pool.length - 1);
        [pool[drawn], pool[j]] = [pool[j], pool[drawn]];
        points += pool[drawn];
      }
      return points <= budget;
    });
    if (low) assafs++;
  }
  return assafs / SAMPLED_DEALS;
}

/** Unseen cards per value (index = points), and how many in all. */
function poolByValue(unseen: Uint8Array, values: Uint8Array): { counts: number[]; total: number } {
  const counts = new Array<number>(MAX_CARD_VALUE + 1).fill(0);
  let total = 0;
  unseen.forEach((count, kind) => {
    counts[values[kind]] += count;
    total += count;
  });
  return { counts, total };
}

/** binomial(n, k) for every count of one value in a pool (n < 64: 2 decks hold 32 cards worth 10) and every hand size k. */
const CHOOSE_K = HAND_CAP + 1;
const CHOOSE = Float64Array.from({ length: 64 * CHOOSE_K }, (_, i) => binomial(Math.floor(i / CHOOSE_K), i % CHOOSE_K));

/** A low hand of an opponent: how many cards of each value (0 … its budget), and its step in a pool's memo key. */
interface LowHand {
  readonly counts: Int8Array;
  readonly keyStep: number;
}

/** P(no opponent is low), by the memoised recursion of the header. */
class NoneLow {
  /** Mixed-radix place of each value's count in a pool's memo key (low values in the low digits). */
  private readonly place: number[] = [];
  /** The low hands of each opponent, feasible in the starting pool. */
  private readonly hands: LowHand[][];
  private readonly memo = new Map<number, number>();

  /** `opponents` sorted by budget, highest first: then each level's memo key needs only the values up to its budget. */
  constructor(
    private readonly opponents: readonly Opponent[],
    private readonly counts: readonly number[],
    private readonly total: number,
  ) {
    let radix = 1;
    for (const count of counts) {
      this.place.push(radix);
      radix *= count + 1;
    }
    this.place.push(radix);
    this.hands = opponents.map((o) => this.lowHands(o));
  }

  /** Low hands listed and visited so far; past `EXACT_WORK_LIMIT` the count stops (a deterministic test: the same view visits the same hands). */

  private work = 0;

  /** P(no opponent is low), or null when that takes more than `EXACT_WORK_LIMIT` low hands. */
  probability(): number | null {
    if (this.opponents.length === 0) return 1;
    if (this.work > EXACT_WORK_LIMIT) return null;
    const low = this.counts.slice();
    const p = this.from(
      0,
      low,
      this.total,
      low.reduce((key, count, w) => key + count * this.place[w], 0),
    );
    return this.work > EXACT_WORK_LIMIT ? null : p;
  }

  /** Every value vector of `unknown` cards worth at most `budget` that the starting pool can supply. */
  private lowHands({ unknown, budget }: Opponent): LowHand[] {
    const hands: LowHand[] = [];
    const top = Math.min(budget, this.counts.length - 1);
    const counts = new Int8Array(top + 1);
    const visit = (w: number, cardsLeft: number, pointsLeft: number, keyStep: number) => {
      if (cardsLeft === 0) {
        hands.push({ counts: counts.slice(), keyStep });
        this.work++;
        return;
      }
      if (w > top || this.work > EXACT_WORK_LIMIT) return;
      const most = Math.min(this.counts[w], cardsLeft, w === 0 ? cardsLeft : Math.floor(pointsLeft / w));
      for (let a = most; a >= 0; a--) {
        counts[w] = a;
        visit(w + 1, cardsLeft - a, pointsLeft - a * w, keyStep + a * this.place[w]);
      }
      counts[w] = 0;
    };
    visit(0, unknown, budget, 0);
    return hands;
  }

  /** P(opponents i… are not low) when the low values' counts are `low`, the pool holds `total` cards and has memo key `key`. */
  private from(i: number, low: number[], total: number, key: number): number {
    const last = i === this.opponents.length - 1;
    const level = this.opponents[i];
    const digits = Math.min(level.budget + 1, this.counts.length);
    const memoKey = (i * (this.total + 1) + total) * this.place[this.counts.length] + (key % this.place[digits]);
    const cached = this.memo.get(memoKey);
    if (cached !== undefined) return cached;
    if (this.work > EXACT_WORK_LIMIT) return NaN;
    this.work += this.hands[i].length;
    const hands = binomial(total, level.unknown);
    let p = last ? 1 : this.from(i + 1, low, total, key);
    for (const hand of this.hands[i]) {
      let ways = 1;
      for (let w = 0; w < hand.counts.length && ways > 0; w++) ways *= CHOOSE[low[w] * CHOOSE_K + hand.counts[w]];
      if (ways === 0) continue;
      if (last) {
        p -= ways / hands;
        continue;
      }
      for (let w = 0; w < hand.counts.length; w++) low[w] -= hand.counts[w];
      p -= (ways / hands) * this.from(i + 1, low, total - level.unknown, key - hand.keyStep);
      for (let w = 0; w < hand.counts.length; w++) low[w] += hand.counts[w];
    }
    this.memo.set(memoKey, p);
    return p;
  }
}

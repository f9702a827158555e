/**
 * The rollout critic of `--critic rollout` (issue 44 item 2): at each of the learner's decisions
 * the actor plays the round out `--critic-rollouts` times from a copy of the TRUE state — every
 * hand and the deck in its real order — with the state-level strong playout at every seat
 * (agents/bots/playout.ts), each whole turn played at random with probability ROLLOUT_EPSILON,
 * and values each end as the "equity" reward does: the seat's equity at the next starter (1 or 0
 * once the game is over) less its equity when the round began. The mean is the decision's value,
 * recorded in the `rolloutValues` trajectory column; the policy never reads it.
 *
 * Why ε: with the real deck and a deterministic policy every rollout replays one future, which the
 * real players (the network samples; opponents differ from the playout) rarely follow; random turns
 * spread the rollouts over the futures near it. Measured offline (docs/training.md, "A rollout
 * critic, probed offline"): ε = 0.1 with 16 rollouts explained the most of the return.
 */
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { playoutRoundStrong } from '../agents/bots/playout.js';
import { type GameEquity, tableEquities } from '../env/gym/equity.js';
import { DiscardList } from '../env/rules/discards.js';
import {
  canDrawFromDeck,
  canQuickDiscard,
  canSlapDown,
  drawFromDeck,
  drawFromPrevious,
  layGroup,
  legalDiscards,
  passAfterDraw,
  quickDiscard,
  slapDown,
} from '../env/rules/engine.js';
import { GROUP_CAP } from '../env/rules/groups.js';
import { type Rng, randomInt, seededRng } from '../env/rules/random.js';
import { type GameState, PHASE_AFTER_DRAW, PHASE_TURN, cloneState, isRoundOver } from '../env/rules/state.js';

/** The chance that a rollout's turn is played at random (the rest: the strong playout's). */
export const ROLLOUT_EPSILON = 0.1;

/** Turns after which a rollout that has not ended its round is given up (valued 0). */
const MAX_TURNS = 200;

const list = new DiscardList();

/** One whole turn of uniformly random moves: a legal discard, then the deck or a card on offer. */
function randomTurn(s: GameState, rng: Rng): void {
  legalDiscards(s, list);
  const pick = randomInt(rng, 0, list.count - 1);
  layGroup(s, list.cards, list.length[pick], list.groupType(pick), pick * GROUP_CAP);
  const offered: number[] = [];
  for (let i = 0; i < s.prevLength; i++) if ((s.prevPickable >> i) & 1) offered.push(s.prev[i]);
  const choice = randomInt(rng, 0, offered.length + (canDrawFromDeck(s) ? 1 : 0) - 1);
  if (choice < offered.length) drawFromPrevious(s, offered[choice]);
  else drawFromDeck(s);
}

/** Plays the round out in place: each turn random with probability `epsilon`, else the strong playout's; after-draw steps as the playout takes them. */
export function playRoundOut(s: GameState, epsilon: number, rng: Rng): void {
  for (let turns = 0; turns < MAX_TURNS && !isRoundOver(s);) {
    if (s.phase === PHASE_AFTER_DRAW) {
      if (canSlapDown(s)) slapDown(s);
      else if (canQuickDiscard(s)) quickDiscard(s);
      else passAfterDraw(s);
    } else if (s.phase === PHASE_TURN && epsilon > 0 && uniformFloat64(rng) < epsilon) {
      randomTurn(s, rng);
      turns++;
    } else {
      turns += Math.max(1, playoutRoundStrong(s, 1));
    }
  }
}

/** How one decision's rollouts are played. */
export interface RolloutOptions {
  rollouts: number;
  epsilon: number;
  /** Shuffle the deck below its next `keepTop` cards in each rollout (a fresh reshuffle seed too); null: the deck as dealt. */
  shuffleBelow: number | null;
}

const equities = new Float64Array(8);

/**
 * Each rollout's value of the seat to move in `state` (a round under way): its equity after the
 * round played out less its equity when the round began (the state's totals and starter, as the
 * episode's reward takes them). `state` is left untouched.
 */
export function rolloutValues(state: GameState, equity: GameEquity, options: RolloutOptions, seed: number): Float64Array {
  const seat = state.current;
  tableEquities(equity, state, state.starter, equities);
  const start = equities[seat];
  const out = new Float64Array(options.rollouts);
  for (let k = 0; k < options.rollouts; k++) {
    const rng = seededRng(seed + k * 0x9e3779b1);
    const s = cloneState(state);
    if (options.shuffleBelow !== null) shuffleBelow(s, options.shuffleBelow, rng);
    playRoundOut(s, options.epsilon, rng);
    if (!isRoundOver(s)) continue;
    tableEquities(equity, s, s.nextStarter, equities);
    out[k] = equities[seat] - start;
  }
  return out;
}

function shuffleBelow(s: GameState, keepTop: number, rng: Rng): void {
  const below = Math.max(0, s.deckLength - keepTop);
  for (let i = below - 1; i > 0; i--) {
    const j = randomInt(rng, 0, i);
    [s.deck[i], s.deck[j]] = [s.deck[j], s.deck[i]];
  }
  s.rng = seededRng(randomInt(rng, 0, 0x7fffffff));
}

/** The rollout critic's value of the seat to move: the mean of `rollouts` rollouts at ROLLOUT_EPSILON, the deck as dealt. */
export function rolloutValue(state: GameState, equity: GameEquity, rollouts: number, seed: number): number {
  const values = rolloutValues(state, equity, { rollouts, epsilon: ROLLOUT_EPSILON, shuffleBelow: null }, seed);
  return values.reduce((a, b) => a + b, 0) / rollouts;
}

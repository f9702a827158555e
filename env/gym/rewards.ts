/**
 * The reward schemes of the environment, one entry each: its description and what a seat
 * loses. Episode.endRound looks the configured scheme up here; the env option's enum, its
 * description and the docs' reward table are all read from this table.
 */
import type { RoundResult } from '../rules/state.js';

/** The round that just ended, as a reward scheme reads it. */
export interface EndedRound {
  readonly players: number;
  readonly result: RoundResult;
  /** Each seat's total when the round began. */
  readonly startTotals: ArrayLike<number>;
  /** Whether the episode is a whole game (else one round). */
  readonly wholeGame: boolean;
  /** The game's winner once it is over, else −1. */
  readonly gameWinner: number;
  /** Each seat's game equity (P(win), env/gym/equity.ts) when the round began and after it, where the episode has the equity. */
  readonly equity?: { readonly start: ArrayLike<number>; readonly end: ArrayLike<number> };
}

/**
 * At every round end, each seat of the round (`points` not null) gets
 * −(what it lost − baseline) × rewardScale, the baseline being 0 or the mean loss of the
 * round's seats (then the round's rewards sum to 0).
 */
interface PerRoundScheme {
  readonly description: string;
  readonly per: 'round';
  readonly lost: (end: EndedRound, seat: number) => number;
  readonly baseline: 'zero' | 'mean';
  /** Paid as it is, not multiplied by rewardScale (it is already in its own units). */
  readonly unscaled?: true;
}

/**
 * At the episode's end only, unscaled: `lost(seat)` is what the seat loses, −1 for a winner;
 * `null` for a seat outside the episode's last round that the scheme leaves at 0.
 */
interface PerEpisodeScheme {
  readonly description: string;
  readonly per: 'episode';
  readonly lost: (end: EndedRound, seat: number) => number | null;
}

export type RewardSchemeEntry = PerRoundScheme | PerEpisodeScheme;

const roundPoints = (end: EndedRound, seat: number) => end.result.points[seat] as number;

/** The winner of the episode: of the game in game mode, of the round in round mode. */
const episodeWinner = (end: EndedRound) => (end.wholeGame ? end.gameWinner : end.result.winner);

/** The seats an episode-end reward goes to: every seat of a game, the seats of a round. */
const inEpisode = (end: EndedRound, seat: number) => end.wholeGame || end.result.points[seat] !== null;

function winLossLost(end: EndedRound, seat: number): number | null {
  if (!inEpisode(end, seat)) return null;
  const winner = episodeWinner(end);
  if (seat === winner) return -1;
  let losers = 0;
  for (let other = 0; other < end.players; other++) if (other !== winner && inEpisode(end, other)) losers++;
  return 1 / losers;
}

function equityLost(end: EndedRound, seat: number): number {
  if (!end.equity) throw new Error('reward "equity": the episode has no game equity');
  return end.equity.start[seat] - end.equity.end[seat];
}

export const REWARD_TABLE = {
  roundPenalty: {
    description: "−(the seat's round points) × rewardScale (the points before milestones, RULES.md; the round sums to ≤ 0).",
    per: 'round',
    lost: roundPoints,
    baseline: 'zero',
  },
  zeroSum: {
    description: "−(the seat's round points − the mean points of the round's seats) × rewardScale; the round sums to 0.",
    per: 'round',
    lost: roundPoints,
    baseline: 'mean',
  },
  zeroSumTotals: {
    description:
      "as zeroSum, with the seat's change of total over the round (milestones and robbery included) in place of its points: over a whole game a seat's rewards sum to −(its final total − the mean final total) × rewardScale.",
    per: 'round',
    lost: (end, seat) => end.result.totals[seat] - end.startTotals[seat],
    baseline: 'mean',
  },
  winLoss: {
    description:
      "+1 to the episode's winner (the round winner in round mode, the game winner in game mode) and −1/(n−1) to each of the n−1 other seats (the round's, or all the game's), unscaled; the rewards sum to 0.",
    per: 'episode',
    lost: winLossLost,
  },
  equity: {
    description:
      "the change of the seat's game equity (its probability of winning the game, env/gym/equity.ts) over the round, unscaled: over a game a seat's rewards sum to its outcome (1 or 0) minus its equity when the game began. Heads-up, with the solved equity of the rules (Episode's `equity`).",
    per: 'round',
    lost: equityLost,
    baseline: 'zero',
    unscaled: true,
  },
} as const satisfies Record<string, RewardSchemeEntry>;

export type RewardScheme = keyof typeof REWARD_TABLE;
export const REWARD_SCHEMES = Object.keys(REWARD_TABLE) as [RewardScheme, ...RewardScheme[]];

const isScaled = (entry: RewardSchemeEntry) => entry.per === 'round' && entry.unscaled !== true;
const perRound = REWARD_SCHEMES.filter((name) => isScaled(REWARD_TABLE[name]));
const unscaledSchemes = REWARD_SCHEMES.filter((name) => !isScaled(REWARD_TABLE[name]));

/** What rewardScale does, from the table (the env option's and the trainer's flag's description). */
export const REWARD_SCALE_DESCRIPTION = `Multiplies the per-round rewards (${perRound.join(', ')}), not the others (${unscaledSchemes.join(', ')}).`;

/** When a scheme pays, in words. */
export const PAID_AT: Record<RewardSchemeEntry['per'], string> = { round: 'at each round end', episode: 'at the end of the episode only' };

/** Every scheme in one sentence each, for an option's description. */
export function describeRewardSchemes(): string {
  return REWARD_SCHEMES.map((name) => `"${name}" (${PAID_AT[REWARD_TABLE[name].per]}): ${REWARD_TABLE[name].description}`).join(' ');
}

/**
 * Writes each seat's reward for the round that just ended into `rewards[offset + seat]`
 * (left as they are for seats the scheme does not reward); `episodeOver`: this round ends the
 * episode.
 */
export function writeRoundRewards(
  scheme: RewardScheme,
  scale: number,
  end: EndedRound,
  episodeOver: boolean,
  rewards: Float32Array,
  offset: number,
): void {
  const entry: RewardSchemeEntry = REWARD_TABLE[scheme];
  const { players, result } = end;
  if (entry.per === 'episode') {
    if (!episodeOver) return;
    for (let seat = 0; seat < players; seat++) {
      const lost = entry.lost(end, seat);
      if (lost !== null) rewards[offset + seat] = -lost;
    }
    return;
  }
  let mean = 0;
  if (entry.baseline === 'mean') {
    let sum = 0;
    let seats = 0;
    for (let seat = 0; seat < players; seat++) {
      if (result.points[seat] === null) continue;
      sum += entry.lost(end, seat);
      seats++;
    }
    mean = sum / seats;
  }
  for (let seat = 0; seat < players; seat++) {
    if (result.points[seat] !== null) rewards[offset + seat] = -(entry.lost(end, seat) - mean) * (entry.unscaled ? 1 : scale);
  }
}

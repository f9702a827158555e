/**
 * Ratings from finishing orders: a Plackett–Luce model (each place goes to one of the players not
 * yet placed with probability proportional to its strength γ = exp θ), which for two seats is
 * Bradley–Terry, so heads-up and multi-seat ratings share one scale: Elo points, 400·log10 γ,
 * with one agent anchored at a stated rating. Players who share a place (equal ranks) are taken
 * together, Breslow's way: each of them is placed from the same set of players left.
 *
 * The fit is the maximum of the likelihood (with a weak Gaussian prior, σ = 1000 Elo points,
 * so that an unbeaten agent still has a finite rating) by Newton's method. The intervals are
 * Wald intervals from a cluster-robust (sandwich) covariance H⁻¹·(Σ_g s_g s_gᵀ)·H⁻¹, clustered
 * by duplicate deal: the rotations of one deal share their cards, so their results are not
 * independent, and the sandwich counts how much they vary together (the plain observed
 * information H⁻¹ would assume they were independent).
 */

/** z for a two-sided 95% interval. */
const Z95 = 1.959963984540054;
/** Elo points per unit of θ = ln γ. */
export const ELO_PER_NAT = 400 / Math.LN10;
/** The prior's standard deviation, in Elo points. */
const PRIOR_ELO = 1000;

export interface RatedGame {
  /** The agent at each seat. */
  readonly seats: readonly string[];
  /** Each seat's place, 0 best; equal numbers share a place. */
  readonly ranks: readonly number[];
  /** The duplicate-deal group the game belongs to (games of one group are not independent). */
  readonly group: number;
}

export interface RatingOptions {
  /** The agent whose rating is fixed. */
  anchor: string;
  /** Its rating. */
  anchorRating: number;
}

export interface AgentRating {
  agent: string;
  rating: number;
  /** The 95% interval (the anchor's is its rating). */
  low: number;
  high: number;
  /** Standard error, in rating points, relative to the anchor. */
  standardError: number;
  games: number;
  /** Games it finished first in (alone or shared). */
  firsts: number;
}

export interface RatingFit {
  /** "bradley-terry" when every game had two seats, else "plackett-luce". */
  model: 'bradley-terry' | 'plackett-luce';
  anchor: string;
  anchorRating: number;
  /** The agents, best first. */
  ratings: AgentRating[];
  games: number;
  /** Duplicate-deal groups, the clusters of the intervals. */
  groups: number;
  /** Newton iterations to convergence. */
  iterations: number;
}

/** The ratings of `agents` from `games` (every seat must name one of them). */
export function fitRatings(agents: readonly string[], games: readonly RatedGame[], options: RatingOptions): RatingFit {
  const index = new Map(agents.map((name, i) => [name, i]));
  if (!index.has(options.anchor)) throw new Error(`the anchor ${options.anchor} is not one of the agents ${agents.join(', ')}`);
  const seatIndices = games.map((game) =>
    game.seats.map((name) => {
      const i = index.get(name);
      if (i === undefined) throw new Error(`a game seats ${name}, not one of the agents ${agents.join(', ')}`);
      return i;
    }),
  );
  const anchor = index.get(options.anchor) as number;
  // The free parameters: every agent but the anchor, whose θ is 0.
  const free = agents.map((_, i) => i).filter((i) => i !== anchor);
  const slot = new Map(free.map((agent, k) => [agent, k]));
  const theta = new Float64Array(agents.length);
  const prior = 1 / (PRIOR_ELO / ELO_PER_NAT) ** 2;

  // The log-likelihood is concave (and the prior strictly so): Newton's steps converge from θ = 0.
  const posterior = () => {
    const { groupScores, information } = accumulate(theta, seatIndices, games, slot, free.length);
    const gradient = free.map((agent, k) => groupScores.reduce((sum, score) => sum + score[k], -prior * theta[agent]));
    free.forEach((_, k) => (information[k][k] += prior));
    return { gradient, information, groupScores };
  };
  let iterations = 0;
  for (; iterations < 100; iterations++) {
    const { gradient, information } = posterior();
    const step = solve(information, gradient);
    // Damped to 2 nats (350 points) a step, should a far start overshoot.
    const scale = Math.min(1, 2 / Math.max(1e-300, ...step.map(Math.abs)));
    free.forEach((agent, k) => (theta[agent] += scale * step[k]));
    if (Math.max(0, ...step.map(Math.abs)) < 1e-10) break;
  }
  const { information, groupScores } = posterior();
  const covariance = sandwich(information, groupScores);

  const counts = agents.map(() => ({ games: 0, firsts: 0 }));
  games.forEach((game, g) =>
    seatIndices[g].forEach((agent, seat) => {
      counts[agent].games++;
      if (game.ranks[seat] === Math.min(...game.ranks)) counts[agent].firsts++;
    }),
  );
  const ratings = agents.map((agent, i): AgentRating => {
    const k = slot.get(i);
    const standardError = k === undefined ? 0 : ELO_PER_NAT * Math.sqrt(Math.max(0, covariance[k][k]));
    const rating = options.anchorRating + ELO_PER_NAT * theta[i];
    return { agent, rating, low: rating - Z95 * standardError, high: rating + Z95 * standardError, standardError, ...counts[i] };
  });
  ratings.sort((a, b) => b.rating - a.rating || a.agent.localeCompare(b.agent));
  return {
    model: games.every((game) => game.seats.length === 2) ? 'bradley-terry' : 'plackett-luce',
    anchor: options.anchor,
    anchorRating: options.anchorRating,
    ratings,
    games: games.length,
    groups: new Set(games.map((game) => game.group)).size,
    iterations,
  };
}

/**
 * Calls `visit` with each stage of a game: the seats placed together at that stage, the seats
 * still to place (those included), and each of those seats' share of the remaining strength.
 */
function forEachStage(
  theta: Float64Array,
  seats: readonly number[],
  ranks: readonly number[],
  visit: (placed: number[], remaining: number[], shares: number[]) => void,
): void {
  const order = seats.map((_, seat) => seat).sort((a, b) => ranks[a] - ranks[b]);
  let start = 0;
  while (start < order.length) {
    let end = start + 1;
    while (end < order.length && ranks[order[end]] === ranks[order[start]]) end++;
    const remaining = order.slice(start);
    // Those left all placed together (the last place) is no choice: it says nothing.
    if (remaining.length > end - start) {
      const top = Math.max(...remaining.map((seat) => theta[seats[seat]]));
      const weights = remaining.map((seat) => Math.exp(theta[seats[seat]] - top));
      const total = weights.reduce((a, b) => a + b, 0);
      visit(
        order.slice(start, end),
        remaining,
        weights.map((w) => w / total),
      );
    }
    start = end;
  }
}

/**
 * The observed information (the negative Hessian of the log-likelihood) over the free parameters,
 * and the gradient as each duplicate-deal group's share (the groups' scores; their sum is the gradient).
 */
function accumulate(
  theta: Float64Array,
  seatIndices: readonly (readonly number[])[],
  games: readonly RatedGame[],
  slot: ReadonlyMap<number, number>,
  size: number,
): { groupScores: number[][]; information: number[][] } {
  const byGroup = new Map<number, number[]>();
  const information = Array.from({ length: size }, () => new Array<number>(size).fill(0));
  games.forEach((game, g) => {
    let score = byGroup.get(game.group);
    if (!score) byGroup.set(game.group, (score = new Array<number>(size).fill(0)));
    const seats = seatIndices[g];
    forEachStage(theta, seats, game.ranks, (placed, remaining, shares) => {
      const d = placed.length;
      for (const seat of placed) addAt(score, slot.get(seats[seat]), 1);
      remaining.forEach((a, x) => {
        const ka = slot.get(seats[a]);
        addAt(score, ka, -d * shares[x]);
        if (ka === undefined) return;
        remaining.forEach((b, y) => {
          const kb = slot.get(seats[b]);
          if (kb !== undefined) information[ka][kb] += d * ((x === y ? shares[x] : 0) - shares[x] * shares[y]);
        });
      });
    });
  });
  return { groupScores: [...byGroup.values()], information };
}

function addAt(vector: number[], k: number | undefined, value: number): void {
  if (k !== undefined) vector[k] += value;
}

/** H⁻¹·(Σ s sᵀ)·H⁻¹. */
function sandwich(hessian: number[][], scores: readonly number[][]): number[][] {
  const size = hessian.length;
  const meat = Array.from({ length: size }, () => new Array<number>(size).fill(0));
  for (const s of scores) for (let i = 0; i < size; i++) for (let j = 0; j < size; j++) meat[i][j] += s[i] * s[j];
  const inverse = invert(hessian);
  return multiply(multiply(inverse, meat), inverse);
}

function multiply(a: number[][], b: number[][]): number[][] {
  return a.map((row) => b[0].map((_, j) => row.reduce((sum, x, k) => sum + x * b[k][j], 0)));
}

/** x with A·x = b, by Gaussian elimination with partial pivoting (A is small and positive definite). */
function solve(matrix: readonly number[][], vector: readonly number[]): number[] {
  const size = vector.length;
  const a = matrix.map((row, i) => [...row, vector[i]]);
  for (let col = 0; col < size; col++) {
    let pivot = col;
    for (let row = col + 1; row < size; row++) if (Math.abs(a[row][col]) > Math.abs(a[pivot][col])) pivot = row;
    [a[col], a[pivot]] = [a[pivot], a[col]];
    for (let row = col + 1; row < size; row++) {
      const factor = a[row][col] / a[col][col];
      for (let k = col; k <= size; k++) a[row][k] -= factor * a[col][k];
    }
  }
  const x = new Array<number>(size).fill(0);
  for (let row = size - 1; row >= 0; row--) {
    let sum = a[row][size];
    for (let k = row + 1; k < size; k++) sum -= a[row][k] * x[k];
    x[row] = sum / a[row][row];
  }
  return x;
}

function invert(matrix: readonly number[][]): number[][] {
  const size = matrix.length;
  const columns = Array.from({ length: size }, (_, j) =>
    solve(
      matrix,
      matrix.map((_, i) => (i === j ? 1 : 0)),
    ),
  );
  return Array.from({ length: size }, (_, i) => columns.map((column) => column[i]));
}

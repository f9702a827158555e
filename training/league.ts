/**
 * The league the learner plays against: its latest weights ("self": every seat of the game is the
 * learner), past snapshots of itself ("past": a snapshot drawn uniformly from the pool holds the
 * other seats), and any agent of the registry ("strong", "intermediate", "rollout?samples=8", a
 * fixed "neural:PATH"…). `--opponents` gives the mix as spec=weight pairs: each game draws one
 * entry by weight for all the seats the learner does not hold, so the policy never meets only one
 * kind of opponent and does not collapse onto it.
 */
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { AgentSpecError, parseAgentSpec } from '../agents/registry.js';
import { createAgentFor, resolveAgent } from '../agents/resolve.js';
import { PANEL, isPanelAgent } from '../agents/tournament/panel.js';
import type { Agent } from '../env/gym/agent.js';
import type { Rng } from '../env/rules/random.js';

export const SELF = 'self';
export const PAST = 'past';

export interface OpponentShare {
  /** "self", "past", or an agent spec. */
  readonly spec: string;
  /** Its share of the games (the shares sum to 1). */
  readonly weight: number;
}

/** Thrown for a mix that cannot be read; the message names the entry. */
export class OpponentMixError extends Error {
  override name = 'OpponentMixError';
}

/**
 * Reads `spec=weight,…` (the weight after the last "=", so `rollout?samples=8=0.1` works). Weights
 * are non-negative numbers with a positive sum, normalised to shares; agent specs must exist.
 */
export function parseOpponentMix(text: string): OpponentShare[] {
  const entries = text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  if (entries.length === 0) throw new OpponentMixError('--opponents is empty: give spec=weight pairs such as self=0.5,strong=0.5');
  const parsed = entries.map((entry) => {
    const at = entry.lastIndexOf('=');
    const spec = at < 0 ? '' : entry.slice(0, at).trim();
    const weightText = at < 0 ? '' : entry.slice(at + 1).trim();
    const weight = Number(weightText);
    if (spec === '' || weightText === '' || !Number.isFinite(weight) || weight < 0) {
      throw new OpponentMixError(`--opponents entry ${JSON.stringify(entry)} is not spec=weight with a weight ≥ 0 (e.g. strong=0.3)`);
    }
    if (isPanelAgent(spec))
      throw new OpponentMixError(
        `--opponents entry ${JSON.stringify(entry)}: ${PANEL.join(' and ')} are the held-out panel (yaniv bench --panel), never training opponents`,
      );
    if (spec !== SELF && spec !== PAST) {
      try {
        parseAgentSpec(spec);
      } catch (error) {
        if (error instanceof AgentSpecError)
          throw new OpponentMixError(`--opponents entry ${JSON.stringify(entry)}: ${error.message} (or self, past)`);
        throw error;
      }
    }
    return { spec, weight };
  });
  const specs = parsed.map((p) => p.spec);
  if (new Set(specs).size !== specs.length) throw new OpponentMixError(`--opponents names an opponent twice: ${text}`);
  const total = parsed.reduce((sum, p) => sum + p.weight, 0);
  if (!(total > 0)) throw new OpponentMixError(`--opponents weights sum to 0: ${text}`);
  return parsed.filter((p) => p.weight > 0).map((p) => ({ spec: p.spec, weight: p.weight / total }));
}

/** Draws an entry by weight; "past" with an empty pool counts as "self". */
export function drawOpponent(mix: readonly OpponentShare[], rng: Rng, pastAvailable: boolean): string {
  let u = uniformFloat64(rng);
  let spec = mix[mix.length - 1].spec;
  for (const share of mix) {
    u -= share.weight;
    if (u < 0) {
      spec = share.spec;
      break;
    }
  }
  return spec === PAST && !pastAvailable ? SELF : spec;
}

/** The learner's recent results against each opponent spec: wins and games over its last `window` games (older ones fade in halves). */
export class LeagueResults {
  private readonly tallies = new Map<string, { games: number; wins: number }>();
  constructor(readonly window = 2000) {}

  add(spec: string, won: boolean): void {
    const tally = this.tallies.get(spec) ?? { games: 0, wins: 0 };
    tally.games++;
    if (won) tally.wins++;
    if (tally.games > this.window) {
      tally.games /= 2;
      tally.wins /= 2;
    }
    this.tallies.set(spec, tally);
  }

  /** The learner's win rate against `spec`, Laplace-smoothed ((wins + 1) / (games + 2): ½ before any game). */
  winRate(spec: string): number {
    const tally = this.tallies.get(spec) ?? { games: 0, wins: 0 };
    return (tally.wins + 1) / (tally.games + 2);
  }
}

/**
 * Prioritised fictitious self-play (AlphaStar's league): each opponent's share weighted by
 * (1 − the learner's win rate against it)^power, renormalised, so the opponents the learner still
 * loses to are met more often and those it beats fade (never to 0 with the smoothing). "self" has
 * no result of its own and keeps its share.
 */
export function prioritisedMix(mix: readonly OpponentShare[], results: LeagueResults, power: number): OpponentShare[] {
  const weighted = mix.map((share) => ({
    spec: share.spec,
    weight: share.spec === SELF ? share.weight : share.weight * (1 - results.winRate(share.spec)) ** power,
  }));
  const total = weighted.reduce((sum, share) => sum + share.weight, 0);
  return weighted.map((share) => ({ spec: share.spec, weight: share.weight / total }));
}

/** A past version of the learner's weights. */
export interface Snapshot {
  /** Unique within the run: the weights version it was taken at. */
  readonly id: number;
  readonly episodes: number;
  readonly weights: Float32Array;
}

/**
 * The pool of past snapshots, oldest first; a full pool drops its oldest but one (the very first
 * snapshot, taken right after the warm start, stays as an anchor).
 */
export class SnapshotPool {
  readonly snapshots: Snapshot[] = [];
  constructor(readonly capacity: number) {}

  /** Adds a snapshot; returns the ids dropped to make room. */
  add(snapshot: Snapshot): number[] {
    if (this.capacity === 0) return [];
    const dropped: number[] = [];
    while (this.snapshots.length >= this.capacity) {
      const at = this.snapshots.length > 1 ? 1 : 0;
      dropped.push(this.snapshots[at].id);
      this.snapshots.splice(at, 1);
    }
    this.snapshots.push(snapshot);
    return dropped;
  }
}

/** The key of the agent an opponent spec seats at tables of one size (a spec may play another model at another size). */
export function opponentKey(spec: string, players: number): string {
  return `${spec}@${players}`;
}

/**
 * The agents of a mix's agent entries, one per table size as each resolves there (agents/resolve.ts:
 * plain `neural` plays the shipped model for the run's rules and each size), keyed by opponentKey;
 * a spec that plays the same at every size is one agent.
 */
export async function opponentAgents(
  opponents: readonly OpponentShare[],
  table: { preset: string; rules: Record<string, unknown>; sizes: readonly number[] },
): Promise<Map<string, Agent>> {
  const byResolved = new Map<string, Agent>();
  const agents = new Map<string, Agent>();
  for (const { spec } of opponents) {
    if (spec === SELF || spec === PAST) continue;
    for (const players of table.sizes) {
      const kind = { preset: table.preset, rules: table.rules, players };
      // What it plays at this size names the agent; the same (spec, kind) resolves to that same value when made.
      const played = resolveAgent(spec, kind).spec;
      let agent = byResolved.get(played);
      if (!agent) byResolved.set(played, (agent = await createAgentFor(spec, kind)));
      agents.set(opponentKey(spec, players), agent);
    }
  }
  return agents;
}

/** What a tournament plays: its agents, table size, games, seed and rules (run.ts runs it; dispatch.ts plays its games). */
import type { RuleChoice } from '../../env/index.js';
import type { EpisodeMode } from '../../env/gym/episode.js';

/** The rules: a preset and overrides (`RuleChoice`), the same as every command's rule flags. */
export interface TournamentConfig extends RuleChoice {
  agents: string[];
  games: number;
  players: number;
  seed: number;
  episode: EpisodeMode;
  /** Worker threads of the default dispatcher. */
  workers: number;
  /** Turns after which a game stops unfinished (default: playMatch's). */
  maxTurns?: number;
  saveRecords?: string;
  /** One table named seat by seat (its agents among `agents`, `players` long), instead of every lineup of `agents`. */
  lineup?: string[];
}

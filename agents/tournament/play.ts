// Plays scheduled tournament games one after the other in this thread (a worker thread, a bench
// worker's process, or the main thread), each from the seeds its place in the schedule gives it.
import type { Agent } from '../../env/gym/agent.js';
import { resolveRules } from '../../env/index.js';
import { createAgentFor } from '../resolve.js';
import { type MatchResult, playMatch } from './match.js';
import type { TournamentConfig } from './tournamentConfig.js';
import type { ScheduledGame } from './schedule.js';
import { mixSeed } from '../../env/rules/random.js';

const DEAL = 1;
const AGENT = 2;

/** Reports each game's result (with its record when `config.saveRecords` is set: the caller writes it). */
export async function playScheduled(
  config: TournamentConfig,
  games: readonly ScheduledGame[],
  report: (index: number, result: MatchResult) => void | Promise<void>,
): Promise<void> {
  const rules = resolveRules({ preset: config.preset, rules: config.rules, players: config.players });
  const pool = new Map<string, Agent[]>();
  const agentsFor = async (seats: readonly string[]): Promise<Agent[]> => {
    const agents: Agent[] = [];
    for (const [seat, name] of seats.entries()) {
      let list = pool.get(name);
      if (!list) pool.set(name, (list = []));
      const copy = seats.slice(0, seat).filter((n) => n === name).length;
      while (list.length <= copy) list.push(await createAgentFor(name, config));
      agents.push(list[copy]);
    }
    return agents;
  };
  for (const game of games) {
    const result = playMatch({
      rules,
      preset: config.preset,
      overrides: config.rules,
      agents: await agentsFor(game.seats),
      episode: config.episode,
      record: config.saveRecords !== undefined,
      dealSeed: mixSeed(config.seed, DEAL, game.deal),
      agentSeed: mixSeed(config.seed, AGENT, game.index),
      maxTurns: config.maxTurns,
    });
    await report(game.index, result);
  }
}

// How often a round ends before a seat's next turn, against what strong's milestone play
// assumed (agents/bots/strong.ts roundEndChance) and against the chance that some opponent could
// call now, its unknown cards dealt uniformly from the unseen ones (`assafRisk` of a hand at the
// threshold). Records each draw decision of strong at every seat, standard rules.
//   node dist/scripts/callChance.js GAMES SIZE...   (e.g. 2000 2 4 6) → JSON on stdout
import { Episode, parseEnvOptions } from '../env/gym/episode.js';
import { Table } from '../env/gym/table.js';
import type { Agent } from '../env/gym/agent.js';
import { assafRisk } from '../env/rules/assafRisk.js';
import type { PlayerView } from '../env/rules/view.js';
import { ruleTables } from '../env/rules/state.js';
import { stallPenalty, seatsInPlay } from '../agents/bots/tactics.js';
import { mixSeed } from '../env/rules/random.js';
import { ruleAgent } from '../agents/bots/ruleAgent.js';
import { roundEndChance, strongBot } from '../agents/bots/strong.js';

const [gamesText, ...sizes] = process.argv.slice(2);
const games = Number(gamesText);
if (!Number.isInteger(games) || games < 1 || sizes.length === 0) {
  process.stderr.write('usage: node dist/scripts/callChance.js GAMES SIZE...\n');
  process.exit(2);
}
interface Pending {
  round: number;
  rough: string;
  uniform: number;
}
const BINS = 20;
type Tally = { n: number[]; ended: number[]; sum: number[] };
const tally = (): Tally => ({
  n: new Array<number>(BINS).fill(0),
  ended: new Array<number>(BINS).fill(0),
  sum: new Array<number>(BINS).fill(0),
});
const out: Record<number, { rough: Record<string, [number, number]>; uniform: Tally }> = {};

/** The rough chance strong assumed, the fewest unknown cards of an opponent that may be low, and whether the round has stalled. */
function roughKey(view: PlayerView): string {
  let fewest = 9;
  const values = ruleTables(view.rules).values;
  for (let seat = 0; seat < view.players; seat++) {
    if (seat === view.seat || !view.active[seat]) continue;
    const known = view.known[seat].reduce((sum, card) => sum + values[card], 0);
    if (known <= view.rules.yanivThreshold) fewest = Math.min(fewest, view.handSizes[seat] - view.known[seat].length);
  }
  return `${roundEndChance(view)} k${fewest}${stallPenalty(view.turn, seatsInPlay(view)) > 0 ? ' stalled' : ''}`;
}

function couldCall(view: PlayerView): number {
  return assafRisk({ ...view, handValue: view.rules.yanivThreshold }).risk;
}

for (const players of sizes.map(Number)) {
  const rough: Record<string, [number, number]> = {};
  const uniform = tally();
  const resolve = (p: Pending, ended: boolean) => {
    const r = (rough[p.rough] ??= [0, 0]);
    r[0]++;
    if (ended) r[1]++;
    const bin = Math.min(BINS - 1, Math.floor(p.uniform * BINS));
    uniform.n[bin]++;
    uniform.sum[bin] += p.uniform;
    if (ended) uniform.ended[bin]++;
  };
  const table = new Table(new Episode(parseEnvOptions({ preset: 'standard', players, episode: 'game', maxTurns: 20_000 })));
  let pending: (Pending | null)[] = [];
  const watched = (agent: Agent, seat: number): Agent => ({
    ...agent,
    act(input) {
      const { view } = input;
      const mine = pending[seat];
      if (mine && (view.phase === 'turn' || mine.round !== view.round)) {
        resolve(mine, mine.round !== view.round);
        pending[seat] = null;
      }
      if (view.phase === 'draw') pending[seat] = { round: view.round, rough: roughKey(view), uniform: couldCall(view) };
      return agent.act(input);
    },
  });
  for (let game = 0; game < games; game++) {
    pending = new Array<Pending | null>(players).fill(null);
    const agents = Array.from({ length: players }, (_, seat) => watched(ruleAgent('strong', strongBot()), seat));
    agents.forEach((agent, seat) => agent.reset(mixSeed(game, seat)));
    table.reset({ seed: mixSeed(7, game), dealSeeds: (round) => mixSeed(mixSeed(7, game), round) });
    table.play(agents);
    for (const p of pending) if (p) resolve(p, true);
  }
  out[players] = { rough, uniform };
  process.stderr.write(`${players} seats: ${games} games\n`);
}
console.log(JSON.stringify(out));

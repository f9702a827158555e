// agents section of `npm run bench`: the time each served agent takes to decide one position, as
// the server's advisor and opponents ask it (Agent.act, one position at a time): decisions/s, the
// mean and the 99th percentile, over the positions of heads-up and four-player games played by strong.
// Each agent is resolved for the table size (agents/resolve.ts): the row names the model it plays.
import { isAgentName } from '../agents/registry.js';
import { createAgentFor, modelFolder, seatAgents } from '../agents/resolve.js';
import type { DecisionInput } from '../env/gym/agent.js';
import { YanivEnv } from '../env/gym/yanivEnv.js';
import { playerView } from '../env/rules/view.js';

const POSITIONS = Number(process.env.BENCH_AGENT_POSITIONS ?? 4000);

/** Positions of games strong plays against itself, each as the seat to move sees it. */
async function positions(players: number, count: number): Promise<DecisionInput[]> {
  const strong = await createAgentFor('strong', { players });
  const out: DecisionInput[] = [];
  for (let game = 0; out.length < count; game++) {
    const env = new YanivEnv({ players, maxTurns: 400 });
    let { observation, info } = env.reset({ seed: 1000 + game });
    while (info.currentPlayer >= 0 && out.length < count) {
      const input = { observation: observation.slice(), mask: info.actionMask.slice(), view: playerView(env.state, info.currentPlayer) };
      out.push(input);
      ({ observation, info } = env.step(strong.act(input).action));
    }
  }
  return out;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

export async function run(): Promise<void> {
  const agents = ['strong', ...(isAgentName('neural') ? ['neural'] : []), 'intermediate'];
  console.log(`\n| agent | players | positions | decisions/s | mean µs | p99 µs |\n| --- | --- | --- | --- | --- | --- |`);
  for (const players of [2, 4]) {
    const inputs = await positions(players, POSITIONS);
    for (const spec of agents) {
      const {
        resolved,
        agents: [agent],
      } = await seatAgents(spec, { players });
      const model = modelFolder(resolved);
      for (const input of inputs.slice(0, 200)) agent.act(input);
      const times: number[] = [];
      for (const input of inputs) {
        const start = performance.now();
        agent.act(input);
        times.push((performance.now() - start) * 1000);
      }
      const total = times.reduce((sum, t) => sum + t, 0);
      times.sort((a, b) => a - b);
      const rate = Math.round((inputs.length / total) * 1e6).toLocaleString('en');
      console.log(
        `| ${model === null ? spec : `${spec} (${model})`} | ${players} | ${inputs.length} | ${rate} | ${(total / inputs.length).toFixed(0)} | ${percentile(times, 0.99).toFixed(0)} |`,
      );
    }
  }
}

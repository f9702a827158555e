// Which model an agent plays, from what it does: the policy it gives on positions of a table size,
// against the policy of a shipped model folder played as such (`neural:<folder>`). A caller that
// resolved its agent for the table plays the catalog's model for it (agents/resolve.ts).
import { createAgentFor } from '../../agents/resolve.js';
import type { Agent, DecisionInput } from '../../env/gym/agent.js';
import { YanivEnv } from '../../env/gym/yanivEnv.js';
import { playerView } from '../../env/rules/view.js';

/** Positions of games strong plays at this many seats, each as the seat to move sees it. */
async function positions(players: number, count: number): Promise<DecisionInput[]> {
  const strong = await createAgentFor('strong', { players });
  const out: DecisionInput[] = [];
  for (let game = 0; out.length < count; game++) {
    const env = new YanivEnv({ players, maxTurns: 400 });
    let { observation, info } = env.reset({ seed: 500 + game });
    while (info.currentPlayer >= 0 && out.length < count) {
      const view = playerView(env.state, info.currentPlayer);
      out.push({ observation: observation.slice(), mask: info.actionMask.slice(), view, explain: true });
      ({ observation, info } = env.step(strong.act({ ...out[out.length - 1], explain: false }).action));
    }
  }
  return out;
}

/** The policy an agent gives at each position (its ranked actions and their scores). */
function policies(agent: Agent, inputs: readonly DecisionInput[]): string[] {
  agent.reset(1);
  return inputs.map((input) => {
    const { action, policy } = agent.act(input);
    return JSON.stringify([action, policy?.actions, policy?.scores.map((score) => score.toFixed(6))]);
  });
}

/** Whether the agent gives the same policy as the model in `folder` on positions of a table of this size. */
export async function playsModel(agent: Agent, folder: string, players: number): Promise<boolean> {
  const inputs = await positions(players, 40);
  const model = await createAgentFor(`neural:${folder}`, { players });
  return JSON.stringify(policies(agent, inputs)) === JSON.stringify(policies(model, inputs));
}

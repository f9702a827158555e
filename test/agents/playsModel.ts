// Which model an agent plays, from what it does: the policy it gives on positions of a table size,
// against the policy of a shipped model folder played as such (`neural:<folder>`). A caller that
// resolved its agent for the table plays the catalog's model for it (agents/resolve.ts).
import { createAgentFor } from '../../agents/resolve.js';
import { ACTION_COUNT } from '../../env/gym/actionLayout.js';
import { MaskScratch, writeActionMask } from '../../env/gym/actionMask.js';
import type { Agent, DecisionInput } from '../../env/gym/agent.js';
import { encodeView } from '../../env/gym/observation.js';
import { playerView } from '../../env/rules/view.js';
import { randomPositions } from '../env/gym/envPositions.js';

/** Positions reached by random play at this many seats (test/env/gym/envPositions.ts), each as the seat to move sees it. */
function positions(players: number, count: number): DecisionInput[] {
  const scratch = new MaskScratch();
  const moving = randomPositions({ players }, 500 + players, 2 * count).filter((s) => s.phase < 3);
  return moving.slice(0, count).map((s) => {
    const mask = new Uint8Array(ACTION_COUNT);
    writeActionMask(s, scratch, mask, 0);
    const view = playerView(s, s.current);
    return { observation: encodeView(view), mask, view, explain: true };
  });
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
  const inputs = positions(players, 40);
  const model = await createAgentFor(`neural:${folder}`, { players });
  return JSON.stringify(policies(agent, inputs)) === JSON.stringify(policies(model, inputs));
}

/** Agents by name, for the CLI, tournaments and the server. */
import type { Agent } from './agent.js';
import { intermediate } from './intermediate.js';
import { novice } from './novice.js';
import { randomAgent } from './random.js';
import { rolloutAgent } from './rollout.js';
import { ruleAgent } from './ruleAgent.js';
import { strongBot } from './strong.js';

const FACTORIES = {
  random: () => randomAgent(),
  novice: () => ruleAgent('novice', novice),
  intermediate: () => ruleAgent('intermediate', intermediate),
  strong: () => ruleAgent('strong', strongBot()),
  rollout: () => rolloutAgent(),
} satisfies Record<string, () => Agent>;

export type AgentName = keyof typeof FACTORIES;
export const AGENT_NAMES = Object.keys(FACTORIES) as AgentName[];

export function isAgentName(name: string): name is AgentName {
  return Object.hasOwn(FACTORIES, name);
}

export function createAgent(name: string): Agent {
  if (!isAgentName(name)) throw new Error(`unknown agent ${JSON.stringify(name)}; the agents are ${AGENT_NAMES.join(', ')}`);
  return FACTORIES[name]();
}

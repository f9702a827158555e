/** Wraps a rule-based bot (readable actions from the seat's view) as an Agent over action ids. */
import { actionToMove, moveToAction } from '../env/gym/actionMoves.js';
import { legalActionIds } from '../env/gym/actionMask.js';
import { type Rng, seededRng } from '../env/rules/random.js';
import type { Agent, Decision, DecisionInput } from '../env/gym/agent.js';
import type { RuleBot } from './ruleBot.js';

export function ruleAgent(name: string, bot: RuleBot): Agent {
  let rng: Rng = seededRng(0);
  return {
    name,
    reset(seed: number) {
      rng = seededRng(seed);
    },
    act({ mask, view }: DecisionInput): Decision {
      const ids = legalActionIds(mask);
      const legal = ids.map((id) => actionToMove(view, id));
      const action = moveToAction(view, bot({ view, legal, rng }));
      if (!mask[action]) throw new Error(`${name} chose an illegal action ${action}`);
      return { action };
    },
  };
}

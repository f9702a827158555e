/** Wraps a rule-based bot (readable actions from the seat's view) as an Agent over action ids. */
import { actionToMove, moveToAction } from '../../env/gym/actionMoves.js';
import { legalActionIds } from '../../env/gym/actionMask.js';
import { type Rng, seededRng } from '../../env/rules/random.js';
import type { Agent, Decision, DecisionInput } from '../../env/gym/agent.js';
import type { RuleBot, RuleExplainer } from './ruleBot.js';

/** `explain`, when given, answers inputs that ask for the policy (`input.explain`); it must pick what `bot` picks. */
export function ruleAgent(name: string, bot: RuleBot, explain?: RuleExplainer): Agent {
  let rng: Rng = seededRng(0);
  return {
    name,
    reset(seed: number) {
      rng = seededRng(seed);
    },
    act({ mask, view, explain: wanted }: DecisionInput): Decision {
      const ids = legalActionIds(mask);
      const legal = ids.map((id) => actionToMove(view, id));
      if (wanted && explain) {
        const { ranked, value } = explain({ view, legal, rng });
        const actions = ranked.map((r) => moveToAction(view, r.action));
        if (actions.some((id) => !mask[id])) throw new Error(`${name} ranked an illegal action`);
        return { action: actions[0], policy: { actions, scores: ranked.map((r) => r.score), ...(value !== undefined ? { value } : {}) } };
      }
      const action = moveToAction(view, bot({ view, legal, rng }));
      if (!mask[action]) throw new Error(`${name} chose an illegal action ${action}`);
      return { action };
    },
  };
}

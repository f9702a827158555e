/**
 * `suggest`: plays what the advisor suggests when the table's model evaluates the moves itself
 * (agents/equity/headOutlook.ts): the agent's pick unless its q head rates another of the moves
 * worth weighing higher by more than its margin (`judgeMeans`), the moves the advice lists
 * (`outlookCandidates`). What a player who always follows the advice plays: benched against the
 * agent alone, it says whether the evaluation is worth showing (models/README.md).
 */
import { explaining, type Agent, type DecisionInput } from '../../env/gym/agent.js';
import { legalActionIds } from '../../env/gym/actionMask.js';
import { equityForTable } from './equityPlayouts.js';
import { type TableHead, headValues } from './headOutlook.js';
import { judgeMeans, outlookCandidates } from './moveOutlook.js';
import { roundStartEquity } from './qHead.js';

/** `margin`: the head's own when not given. */
export function suggestAgent(inner: Agent, table: TableHead, margin = table.head.file.margin): Agent {
  return {
    name: `suggest(${inner.name})`,
    reset: (seed) => inner.reset(seed),
    act(input: DecisionInput) {
      const decision = inner.act(explaining(input));
      const { view } = input;
      const legal = legalActionIds(input.mask);
      const { equity } = equityForTable(view.rules, view.players);
      if (!equity || legal.length < 2) return decision;
      const candidates = outlookCandidates(view, legal, decision.action, decision.policy?.actions ?? []);
      const { win } = headValues(table, view, input.observation, roundStartEquity(view, equity), candidates);
      const action = candidates[judgeMeans(win, margin).indexOf('suggested')];
      return action === decision.action ? decision : { action };
    },
  };
}

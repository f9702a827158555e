/**
 * One agent for a game's opening and another for its duel: once only two seats are left in play,
 * the duellist decides. A model trained at a larger table plays while more seats are in play,
 * the heads-up model the two-seat end that decides most games (`neural?duel=FOLDER`).
 */
import type { Agent, Decision, DecisionInput } from '../env/gym/agent.js';
import { seatsInPlay } from './tactics.js';

const inDuel = (input: DecisionInput) => seatsInPlay(input.view) === 2;

/** `main` while more than two seats are in play, `duellist` once two are left. */
export function withDuellist(main: Agent, duellist: Agent): Agent {
  const decideEach = (agent: Agent, inputs: readonly DecisionInput[]): Decision[] =>
    agent.actBatch ? agent.actBatch(inputs) : inputs.map((input) => agent.act(input));
  return {
    name: main.name,
    reset(seed: number) {
      main.reset(seed);
      duellist.reset(seed);
    },
    act: (input) => (inDuel(input) ? duellist : main).act(input),
    actBatch(inputs) {
      const duels = inputs.filter(inDuel);
      if (duels.length === 0) return decideEach(main, inputs);
      if (duels.length === inputs.length) return decideEach(duellist, inputs);
      const fromDuellist = decideEach(duellist, duels)[Symbol.iterator]();
      const fromMain = decideEach(
        main,
        inputs.filter((input) => !inDuel(input)),
      )[Symbol.iterator]();
      return inputs.map((input) => (inDuel(input) ? fromDuellist : fromMain).next().value as Decision);
    },
  };
}

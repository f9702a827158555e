/**
 * One agent for a game's opening and another for its duel: once only two seats are left in play,
 * the duellist decides (`neural?duel=FOLDER`). Tried with the heads-up model after the three-seat
 * one, it measured no gain (models/README.md), so plain `neural` plays one model a table.
 */
import { type Agent, type Decision, type DecisionInput, decideAll } from '../../env/gym/agent.js';
import { seatsInPlay } from './tactics.js';

const inDuel = (input: DecisionInput) => seatsInPlay(input.view) === 2;

/** `main` while more than two seats are in play, `duellist` once two are left. */
export function withDuellist(main: Agent, duellist: Agent): Agent {
  return {
    name: main.name,
    reset(seed: number) {
      main.reset(seed);
      duellist.reset(seed);
    },
    act: (input) => (inDuel(input) ? duellist : main).act(input),
    actBatch(inputs) {
      const duel = inputs.map(inDuel);
      const decided = (forDuel: boolean) =>
        decideAll(
          forDuel ? duellist : main,
          inputs.filter((_, i) => duel[i] === forDuel),
        ).values();
      const [fromMain, fromDuellist] = [decided(false), decided(true)];
      return duel.map((d) => (d ? fromDuellist : fromMain).next().value as Decision);
    },
  };
}

/** Rule-based bots decide on readable actions from the seat's own view and the legal actions of the phase. */
import type { Action, PlayerView } from '../env/index.js';
import type { Rng } from '../env/rules/random.js';

export interface RuleContext {
  readonly view: PlayerView;
  /** The legal actions of this phase (never empty while the seat is to act). */
  readonly legal: readonly Action[];
  /** The bot's own seeded randomness. */
  readonly rng: Rng;
}

export type RuleBot = (context: RuleContext) => Action;

export function legalOfType<T extends Action['type']>(legal: readonly Action[], type: T): Extract<Action, { type: T }>[] {
  return legal.filter((a): a is Extract<Action, { type: T }> => a.type === type);
}

/** The afterDraw choice every rule-based bot makes: a slapdown wins the round; a quick discard only sheds points. */
export function afterDraw(legal: readonly Action[]): Action {
  return legal.find((a) => a.type === 'slapdown') ?? legal.find((a) => a.type === 'quick') ?? { type: 'pass' };
}

/** Rule-based bots decide on readable actions from the seat's own view and the legal actions of the phase. */
import type { Action, PlayerView } from '../../env/index.js';
import type { Rng } from '../../env/rules/random.js';

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

/** A legal action with the bot's score for it (higher is better). */
export interface RankedAction {
  readonly action: Action;
  readonly score: number;
}

/** Why a bot plays what it plays: every legal action of the phase, its choice first, and its value estimate. */
export interface RuleExplanation {
  readonly ranked: readonly RankedAction[];
  readonly value?: number;
}

/** Explains the decision the matching RuleBot makes with the same context (same rng state). */
export type RuleExplainer = (context: RuleContext) => RuleExplanation;

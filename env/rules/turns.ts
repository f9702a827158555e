/**
 * Whole turns, as game records write them: a Yaniv call, or a discard with its draw and
 * an optional quick discard or slapdown (RECORD.md, "moves").
 */
import { type Card, cardName } from './cards.js';
import { type Action, applyAction, legalActions } from './actions.js';
import { IllegalMoveError, reshuffleIfEmpty } from './engine.js';
import { type GameState, type Phase, PHASE_AFTER_DRAW, PHASE_DRAW, PHASE_TURN, cloneState } from './state.js';

/** The parts every turn has (a pass is the absence of an extra). */
type TurnPart = 'yaniv' | 'discard' | 'draw' | 'pass';

/**
 * The after-draw actions a turn records as a flag of its own (RECORD.md, "moves": `"quick": true`,
 * `"slapdown": true`), with their words. Keyed by every other engine action type, so a new one
 * does not compile until it is placed here: the record's move keys are the action types.
 */
export const TURN_EXTRAS = { quick: 'a quick discard', slapdown: 'a slapdown' } as const satisfies Record<
  Exclude<Action['type'], TurnPart>,
  string
>;
export type TurnExtra = keyof typeof TURN_EXTRAS;
export const TURN_EXTRA_NAMES = Object.keys(TURN_EXTRAS) as TurnExtra[];

export function isTurnExtra(type: string): type is TurnExtra {
  return Object.hasOwn(TURN_EXTRAS, type);
}

export type TurnExtraFlags = { [K in TurnExtra]?: boolean };
export type TurnMove = { yaniv: true } | ({ discard: Card[]; draw: 'deck' | Card } & TurnExtraFlags);

/** The extras a turn states. */
export function turnExtras(move: TurnExtraFlags): TurnExtra[] {
  return TURN_EXTRA_NAMES.filter((extra) => move[extra] === true);
}

/** The flag of one extra (or none), as a turn states it. */
export function turnExtraFlag(extra: TurnExtra | null): { [K in TurnExtra]?: true } {
  return extra === null ? {} : { [extra]: true };
}

export interface TurnOptions {
  /** The new deck order (top first) when the draw finds the deck empty; by default the state's PRNG shuffles. */
  reshuffleOrder?: (cards: Card[]) => readonly Card[];
}

export interface PlayedTurn {
  state: GameState;
  /** The deck order a reshuffle during this turn produced (top first), or null. */
  reshuffled: Card[] | null;
}

/** Plays a whole turn on a copy of the state; an illegal turn throws IllegalMoveError and changes nothing. */
export function playTurn(s: GameState, move: TurnMove, options: TurnOptions = {}): PlayedTurn {
  const next = cloneState(s);
  if ('yaniv' in move) {
    applyAction(next, { type: 'yaniv' });
    return { state: next, reshuffled: null };
  }
  const extras = turnExtras(move);
  if (extras.length > 1) throw new IllegalMoveError(`a turn cannot have both ${extras.map((e) => TURN_EXTRAS[e]).join(' and ')}`);
  applyAction(next, { type: 'discard', cards: move.discard });
  if (next.phase !== PHASE_DRAW) throw new IllegalMoveError('the round ended after the discard: no card could be drawn');
  const reshuffled = move.draw === 'deck' ? reshuffleIfEmpty(next, options.reshuffleOrder) : null;
  applyAction(next, { type: 'draw', source: move.draw });
  if (extras.length) applyAction(next, { type: extras[0] });
  else if ((next.phase as Phase) === PHASE_AFTER_DRAW) applyAction(next, { type: 'pass' });
  return { state: next, reshuffled };
}

/** Why the whole turn is illegal now, or null. */
export function turnError(s: GameState, move: TurnMove): string | null {
  try {
    playTurn(s, move);
    return null;
  } catch (error) {
    if (error instanceof IllegalMoveError) return error.message;
    throw error;
  }
}

/** Every legal whole turn now, each distinct outcome once (for tests, tools and search). */
export function legalTurns(s: GameState): TurnMove[] {
  if (s.phase !== PHASE_TURN) return [];
  const turns: TurnMove[] = [];
  for (const action of legalActions(s)) {
    if (action.type === 'yaniv') {
      turns.push({ yaniv: true });
      continue;
    }
    if (action.type !== 'discard') continue;
    const afterDiscard = cloneState(s);
    applyAction(afterDiscard, action);
    for (const draw of legalActions(afterDiscard)) {
      if (draw.type !== 'draw') continue;
      const afterDraw = cloneState(afterDiscard);
      applyAction(afterDraw, draw);
      const base = { discard: action.cards, draw: draw.source };
      turns.push(base);
      for (const extra of legalActions(afterDraw)) {
        if (isTurnExtra(extra.type)) turns.push({ ...base, ...turnExtraFlag(extra.type) });
      }
    }
  }
  return turns;
}

/** A draw as records name it: "deck" or the card taken. */
export function drawName(draw: 'deck' | Card): string {
  return draw === 'deck' ? 'deck' : cardName(draw);
}

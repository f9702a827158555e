/**
 * Whole turns, as game records write them: a Yaniv call, or a discard with its draw and
 * an optional quick discard or slapdown (RECORD.md, "moves").
 */
import { type Card, cardName } from './cards.js';
import { applyAction, legalActions } from './actions.js';
import { IllegalMoveError, reshuffleIfEmpty } from './engine.js';
import { type GameState, type Phase, PHASE_AFTER_DRAW, PHASE_DRAW, PHASE_TURN, cloneState } from './state.js';

export type TurnMove = { yaniv: true } | { discard: Card[]; draw: 'deck' | Card; quick?: boolean; slapdown?: boolean };

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
  if (move.quick && move.slapdown) throw new IllegalMoveError('a turn cannot have both a quick discard and a slapdown');
  applyAction(next, { type: 'discard', cards: move.discard });
  if (next.phase !== PHASE_DRAW) throw new IllegalMoveError('the round ended after the discard: no card could be drawn');
  const reshuffled = move.draw === 'deck' ? reshuffleIfEmpty(next, options.reshuffleOrder) : null;
  applyAction(next, { type: 'draw', source: move.draw });
  if (move.quick) applyAction(next, { type: 'quick' });
  else if (move.slapdown) applyAction(next, { type: 'slapdown' });
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
        if (extra.type === 'quick') turns.push({ ...base, quick: true });
        if (extra.type === 'slapdown') turns.push({ ...base, slapdown: true });
      }
    }
  }
  return turns;
}

/** A draw as records name it: "deck" or the card taken. */
export function drawName(draw: 'deck' | Card): string {
  return draw === 'deck' ? 'deck' : cardName(draw);
}

/**
 * Actions: the steps of a turn as data, with the pure `step(state, action) → state`,
 * validation with reasons, and the list of legal actions in any position.
 */
import type { Card } from './cards.js';
import { DiscardList } from './discards.js';
import {
  IllegalMoveError,
  afterDrawError,
  callYaniv,
  canDrawFromDeck,
  canQuickDiscard,
  canSlapDown,
  checkDiscard,
  drawError,
  drawFromDeck,
  drawFromPrevious,
  layGroup,
  legalDiscards,
  passAfterDraw,
  pickableCards,
  quickDiscard,
  slapDown,
  yanivError,
} from './engine.js';
import { type GameState, PHASE_AFTER_DRAW, PHASE_DRAW, PHASE_NAMES, PHASE_TURN, cloneState } from './state.js';

export type Action =
  | { type: 'yaniv' }
  | { type: 'discard'; cards: Card[] }
  | { type: 'draw'; source: 'deck' | Card }
  | { type: 'quick' }
  | { type: 'slapdown' }
  /** Declines a quick discard or slapdown on offer. */
  | { type: 'pass' };

/** Why the action is illegal now, or null. */
export function actionError(s: GameState, action: Action): string | null {
  switch (action.type) {
    case 'yaniv':
      return yanivError(s);
    case 'discard': {
      const checked = checkDiscard(s, action.cards);
      return 'error' in checked ? checked.error : null;
    }
    case 'draw':
      return drawError(s, action.source);
    case 'quick':
    case 'slapdown':
      return afterDrawError(s, action.type);
    case 'pass':
      return s.phase === PHASE_AFTER_DRAW ? null : `there is nothing to pass in phase ${PHASE_NAMES[s.phase]}`;
  }
}

/** Applies an action to the state in place; an illegal one throws IllegalMoveError with the reason. */
export function applyAction(s: GameState, action: Action): void {
  if (action.type === 'discard') {
    const checked = checkDiscard(s, action.cards);
    if ('error' in checked) throw new IllegalMoveError(checked.error);
    return layGroup(s, checked.cards, checked.cards.length, checked.type);
  }
  const error = actionError(s, action);
  if (error !== null) throw new IllegalMoveError(error);
  switch (action.type) {
    case 'yaniv':
      return callYaniv(s);
    case 'draw':
      return action.source === 'deck' ? drawFromDeck(s) : drawFromPrevious(s, action.source);
    case 'quick':
      return quickDiscard(s);
    case 'slapdown':
      return slapDown(s);
    case 'pass':
      return passAfterDraw(s);
  }
}

/** The pure transition: a new state, the given one untouched. */
export function step(s: GameState, action: Action): GameState {
  const next = cloneState(s);
  applyAction(next, action);
  return next;
}

const scratchDiscards = new DiscardList();

/** Every legal action now (readable form; the env uses the buffers directly). */
export function legalActions(s: GameState): Action[] {
  const actions: Action[] = [];
  if (s.phase === PHASE_TURN) {
    if (yanivError(s) === null) actions.push({ type: 'yaniv' });
    const list = scratchDiscards;
    legalDiscards(s, list);
    for (let i = 0; i < list.count; i++) actions.push({ type: 'discard', cards: list.group(i) });
  } else if (s.phase === PHASE_DRAW) {
    if (canDrawFromDeck(s)) actions.push({ type: 'draw', source: 'deck' });
    for (const card of pickableCards(s)) actions.push({ type: 'draw', source: card });
  } else if (s.phase === PHASE_AFTER_DRAW) {
    actions.push({ type: 'pass' });
    if (canQuickDiscard(s)) actions.push({ type: 'quick' });
    if (canSlapDown(s)) actions.push({ type: 'slapdown' });
  }
  return actions;
}

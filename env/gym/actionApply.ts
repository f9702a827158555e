/**
 * The fast path from an action id to the engine: the id is decoded against the mover's hand
 * straight into the engine's transition, with no readable move in between. Legality is the
 * mask's business (Episode.step checks it first). `actionToMove` + `applyAction` is the
 * readable path to the same transitions; a test keeps the two in agreement.
 */
import type { Card } from '../rules/cards.js';
import {
  callYaniv,
  drawFromDeck,
  drawFromPrevious,
  layGroup,
  passAfterDraw,
  quickDiscard,
  reshuffleIfEmpty,
  slapDown,
} from '../rules/engine.js';
import { GROUP_CAP, type GroupType } from '../rules/groups.js';
import { type GameState, PHASE_AFTER_DRAW, PHASE_DRAW, PHASE_TURN } from '../rules/state.js';
import { DRAW_DECK_ACTION, HandSlots, QUICK_ACTION, SLAPDOWN_ACTION, TAKE_START, YANIV_ACTION, decodeDiscard } from './actionLayout.js';
import type { GameHistory } from './position.js';

// Scratch for decoding a discard id, shared by every episode (applying is synchronous and never
// re-entered): per-episode copies would be more memory to pull into the cache at each step of a big batch.
const discardSlots = new HandSlots();
const discardGroup = new Uint8Array(GROUP_CAP);

/** Applies a legal action id to the state, telling `history` (when kept) each step of the turn. */
export function applyActionId(s: GameState, id: number, history: GameHistory | null): void {
  if (s.phase === PHASE_TURN) {
    if (id === YANIV_ACTION) {
      history?.yaniv();
      return callYaniv(s);
    }
    discardSlots.loadSeat(s, s.current);
    const packed = decodeDiscard(discardSlots, id, s.rules, discardGroup);
    const length = packed & 15;
    history?.laid(discardGroup, length);
    return layGroup(s, discardGroup, length, (packed >> 4) as GroupType);
  }
  if (s.phase === PHASE_DRAW) {
    if (id === DRAW_DECK_ACTION) {
      // The history needs the order a reshuffle makes; without one, drawFromDeck reshuffles by itself.
      const reshuffled: Card[] | null = history ? reshuffleIfEmpty(s) : null;
      history?.drew('deck', reshuffled);
      drawFromDeck(s);
    } else {
      history?.drew(id - TAKE_START, null);
      drawFromPrevious(s, id - TAKE_START);
    }
    if ((s.phase as number) !== PHASE_AFTER_DRAW) history?.endTurn(null);
    return;
  }
  if (id === QUICK_ACTION) {
    history?.endTurn('quick');
    return quickDiscard(s);
  }
  if (id === SLAPDOWN_ACTION) {
    history?.endTurn('slapdown');
    return slapDown(s);
  }
  history?.endTurn(null);
  return passAfterDraw(s);
}

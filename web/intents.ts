/**
 * What the player means — pick a card, lay the picked cards, draw from the deck, take a card,
 * call (Yaniv, a quick discard, a slapdown, a pass), turn the advisor on or off — and what the
 * page does about it, as pure functions of the table as the page shows it. Keys (keyboard.ts)
 * and clicks (tableView.ts) both go through `resolveIntent`; session.ts carries out the effect.
 */
import { sortForDisplay } from './cards.js';
import type { Outgoing } from './link.js';
import type { LegalAction, Msg } from '../client/protocol.js';
import { legalDiscardFor } from './selection.js';

/** The moves that are one button or one key each. */
export const CALL_KINDS = ['yaniv', 'quick', 'slapdown', 'pass'] as const satisfies readonly LegalAction['kind'][];
export type CallKind = (typeof CALL_KINDS)[number];

export function isCall(action: LegalAction): action is LegalAction & { readonly kind: CallKind } {
  return (CALL_KINDS as readonly string[]).includes(action.kind);
}

export type Intent =
  | { readonly type: 'pick'; readonly index: number }
  | { readonly type: 'lay' }
  | { readonly type: 'draw' }
  /** A card of the previous group; null (the T key): the one on offer, or among several the next one (Enter takes it). */
  | { readonly type: 'take'; readonly card: string | null }
  | { readonly type: 'call'; readonly kind: CallKind }
  | { readonly type: 'advise' }
  | { readonly type: 'clear' };

/** What to draw once the picked cards are laid (a click on the deck or a pickable card does both). */
export type PlannedDraw = { readonly kind: 'deck' } | { readonly kind: 'take'; readonly card: string };

/** A move as `act` sends it: a legal id, or a discard by its cards (which the server refuses with its reason). */
export type ActMove = { readonly action: number } | { readonly cards: string[] };

/** The table as the page shows it when the player means something. */
export interface Moment {
  /** The client seat's latest state, or null before the deal. */
  readonly state: Msg<'state'> | null;
  /** Positions in the hand as shown (sortForDisplay), in the order picked. */
  readonly selected: readonly number[];
  /** A round result waits to be dismissed: only Escape (dismiss) does anything. */
  readonly resultShown: boolean;
  /** A move for this state was sent and its reply is awaited. */
  readonly sending: boolean;
  /** The card of the previous group chosen with T among several (Enter takes it), or null. */
  readonly takeChoice?: string | null;
}

export type Effect =
  | { readonly type: 'none' }
  | { readonly type: 'select'; readonly selected: readonly number[] }
  | { readonly type: 'act'; readonly move: ActMove; readonly then: PlannedDraw | null }
  | { readonly type: 'notice'; readonly text: string }
  | { readonly type: 'toggleAdvisor' }
  | { readonly type: 'dismissResult' }
  /** T among several pickable cards: this one is chosen (T again: the next; Enter: take it). */
  | { readonly type: 'chooseTake'; readonly card: string };

const NONE: Effect = { type: 'none' };

export function resolveIntent(intent: Intent, moment: Moment): Effect {
  if (moment.resultShown) return intent.type === 'clear' ? { type: 'dismissResult' } : NONE;
  switch (intent.type) {
    case 'advise':
      return { type: 'toggleAdvisor' };
    case 'clear':
      return { type: 'select', selected: [] };
    case 'pick':
      return pick(moment, intent.index);
    case 'lay':
      return layOrTakeChosen(moment);
    case 'draw':
      return drawOrLay(moment, { kind: 'deck' });
    case 'take':
      return intent.card === null ? takeByKey(moment) : drawOrLay(moment, { kind: 'take', card: intent.card });
    case 'call':
      return play(
        moment,
        legalNow(moment).find((l) => l.kind === intent.kind),
      );
  }
}

/** After a state arrives: the draw planned with the cards just laid, or the pass when it is the only move. */
export function followUp(state: Msg<'state'>, planned: PlannedDraw | null): ActMove | null {
  const legal = state.toMove === state.seat ? state.legal : [];
  if (planned !== null && state.view.phase === 'draw') return drawOf(legal, planned);
  return legal.length === 1 && legal[0].kind === 'pass' ? { action: legal[0].action } : null;
}

/** The advise request the advisor should send for this state, or null (off, not the player's move, or nothing to choose). */
export function adviceRequest(state: Msg<'state'> | null, agent: string, planned: PlannedDraw | null): Outgoing<'advise'> | null {
  if (state === null || planned !== null || state.toMove !== state.seat || state.legal.length === 0) return null;
  if (state.legal.length === 1 && state.legal[0].kind === 'pass') return null;
  return { type: 'advise', table: state.table, agent };
}

function pick(moment: Moment, index: number): Effect {
  const hand = moment.state?.view.hand ?? [];
  if (index < 0 || index >= hand.length) return NONE;
  const chosen = moment.selected;
  return { type: 'select', selected: chosen.includes(index) ? chosen.filter((i) => i !== index) : [...chosen, index] };
}

/** The legal moves the player may send now (none while a move is on its way). */
function legalNow(moment: Moment): readonly LegalAction[] {
  const state = moment.state;
  return state !== null && state.toMove === state.seat && !moment.sending ? state.legal : [];
}

function play(moment: Moment, action: LegalAction | undefined): Effect {
  return action === undefined || moment.sending ? NONE : { type: 'act', move: { action: action.action }, then: null };
}

/** Lays the picked cards, then `then`; a pick that is no legal group goes to the server by its cards, which says why. */
function lay(moment: Moment, then: PlannedDraw | null): Effect {
  const state = moment.state;
  if (state === null || state.toMove !== state.seat || moment.sending || state.view.phase !== 'turn') return NONE;
  const hand = sortForDisplay(state.view.hand);
  const cards = moment.selected.map((i) => hand[i]);
  if (cards.length === 0) return { type: 'notice', text: 'Pick the cards to lay first.' };
  const legal = legalDiscardFor(cards, state.legal);
  return legal ? { type: 'act', move: { action: legal.action }, then } : { type: 'act', move: { cards }, then: null };
}

/** The cards of the previous group the player may take now (each name once), in the order laid. */
export function takeable(moment: Moment): string[] {
  const state = moment.state;
  if (state === null) return [];
  const phase = state.view.phase;
  const open = phase === 'draw' ? legalNow(moment).some((l) => l.kind === 'take') : phase === 'turn' && moment.selected.length > 0;
  return open ? [...new Set(state.view.previous.pickable)] : [];
}

/** T: the only card on offer is taken; among several, T chooses the next one and Enter takes it. */
function takeByKey(moment: Moment): Effect {
  const cards = takeable(moment);
  if (cards.length === 0) return NONE;
  if (cards.length === 1) return drawOrLay(moment, { kind: 'take', card: cards[0] });
  const at = moment.takeChoice == null ? -1 : cards.indexOf(moment.takeChoice);
  return { type: 'chooseTake', card: cards[(at + 1) % cards.length] };
}

/** Enter: takes the card chosen with T (laying the picked cards first, if any), else lays the picked cards. */
function layOrTakeChosen(moment: Moment): Effect {
  const chosen = moment.takeChoice;
  if (chosen != null && takeable(moment).includes(chosen)) return drawOrLay(moment, { kind: 'take', card: chosen });
  return lay(moment, null);
}

function drawOrLay(moment: Moment, planned: PlannedDraw): Effect {
  if (moment.state?.view.phase === 'turn' && moment.selected.length > 0) return lay(moment, planned);
  const move = drawOf(legalNow(moment), planned);
  return move === null ? NONE : { type: 'act', move, then: null };
}

function drawOf(legal: readonly LegalAction[], planned: PlannedDraw): ActMove | null {
  const action = legal.find((l) => (planned.kind === 'deck' ? l.kind === 'draw' : l.kind === 'take' && l.cards[0] === planned.card));
  return action === undefined ? null : { action: action.action };
}

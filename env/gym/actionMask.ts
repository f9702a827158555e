/** The legal-action mask of the player to move, written into caller-owned buffers with no allocation per step. */
import { DiscardList, generateDiscards } from '../rules/discards.js';
import { canCallYaniv, canDrawFromDeck, canQuickDiscard, canSlapDown } from '../rules/engine.js';
import { GROUP_CAP } from '../rules/groups.js';
import { type Rng, randomInt } from '../rules/random.js';
import { type GameState, HAND_CAP, PHASE_AFTER_DRAW, PHASE_DRAW, PHASE_TURN } from '../rules/state.js';
import {
  ACTION_COUNT,
  DRAW_DECK_ACTION,
  HandSlots,
  PASS_ACTION,
  QUICK_ACTION,
  SLAPDOWN_ACTION,
  TAKE_START,
  YANIV_ACTION,
  discardIdOf,
} from './actionLayout.js';

/** Reusable buffers for building masks: one per thread of play is enough. */
export class MaskScratch {
  readonly slots = new HandSlots();
  readonly found = new Int16Array(ACTION_COUNT);
  constructor(readonly discards: DiscardList = new DiscardList()) {}
}

/**
 * Writes the legal-action mask of the player to move into `mask[offset .. +ACTION_COUNT)`
 * (all zero when nobody is to move), the legal ids in increasing order into
 * `ids[idsOffset ..]` when given, and returns how many actions are legal.
 */
export function writeActionMask(...args: Parameters<typeof markLegalActions>): number {
  const [, , mask, offset] = args;
  mask.fill(0, offset, offset + ACTION_COUNT);
  return markLegalActions(...args);
}

/**
 * `writeActionMask` for a mask row known to be all 0 already: sets only the legal entries.
 * With `clearLegalActions` it keeps a batch row current without touching the rest of it.
 */
export function markLegalActions(
  s: GameState,
  scratch: MaskScratch,
  mask: Uint8Array,
  offset: number,
  ids: Int16Array | null = null,
  idsOffset = 0,
): number {
  const seat = s.current;
  const found = scratch.found;
  let count = 0;
  if (s.phase === PHASE_TURN) {
    const slots = scratch.slots;
    slots.loadSeat(s, seat);
    if (canCallYaniv(s)) {
      mask[offset + YANIV_ACTION] = 1;
      found[count++] = YANIV_ACTION;
    }
    const list = scratch.discards;
    generateDiscards(s.hands, seat * HAND_CAP, s.handLength[seat], s.rules, list);
    for (let g = 0; g < list.count; g++) {
      const id = discardIdOf(slots, list.cards, g * GROUP_CAP, list.length[g]);
      if (mask[offset + id] === 0) {
        mask[offset + id] = 1;
        found[count++] = id;
      }
    }
  } else if (s.phase === PHASE_DRAW) {
    if (canDrawFromDeck(s)) {
      mask[offset + DRAW_DECK_ACTION] = 1;
      found[count++] = DRAW_DECK_ACTION;
    }
    for (let i = 0; i < s.prevLength; i++) {
      if (!((s.prevPickable >> i) & 1)) continue;
      const id = TAKE_START + s.prev[i];
      if (mask[offset + id] === 0) {
        mask[offset + id] = 1;
        found[count++] = id;
      }
    }
  } else if (s.phase === PHASE_AFTER_DRAW) {
    mask[offset + PASS_ACTION] = 1;
    found[count++] = PASS_ACTION;
    if (canQuickDiscard(s)) {
      mask[offset + QUICK_ACTION] = 1;
      found[count++] = QUICK_ACTION;
    }
    if (canSlapDown(s)) {
      mask[offset + SLAPDOWN_ACTION] = 1;
      found[count++] = SLAPDOWN_ACTION;
    }
  }
  if (ids !== null) sortIds(scratch.found, count, ids, idsOffset);
  return count;
}

/** Zeroes the mask entries of the ids `ids[idsOffset .. +count)`: undoes `markLegalActions` given the ids it listed. */
export function clearLegalActions(mask: Uint8Array, offset: number, ids: Int16Array, idsOffset: number, count: number): void {
  for (let i = 0; i < count; i++) mask[offset + ids[idsOffset + i]] = 0;
}

/** Copies the ids found (in `scratch.found`) into `ids` in increasing order. */
function sortIds(found: Int16Array, count: number, ids: Int16Array, at: number): void {
  for (let i = 0; i < count; i++) {
    const id = found[i];
    let j = at + i;
    while (j > at && ids[j - 1] > id) {
      ids[j] = ids[j - 1];
      j--;
    }
    ids[j] = id;
  }
}

/** Ids set in `mask[offset .. +ACTION_COUNT)`, in id order. */
export function legalActionIds(mask: Uint8Array, offset = 0): number[] {
  const ids: number[] = [];
  for (let id = 0; id < ACTION_COUNT; id++) if (mask[offset + id]) ids.push(id);
  return ids;
}

/** A legal id drawn uniformly from the mask with a seeded generator; −1 when none is legal. */
export function randomLegalAction(mask: Uint8Array, rng: Rng, offset = 0): number {
  let count = 0;
  for (let id = 0; id < ACTION_COUNT; id++) count += mask[offset + id];
  if (count === 0) return -1;
  let pick = randomInt(rng, 0, count - 1);
  for (let id = 0; id < ACTION_COUNT; id++) {
    if (mask[offset + id] && pick-- === 0) return id;
  }
  return -1;
}

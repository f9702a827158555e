// The two ways from an action id to the engine agree: the episode's fast decode
// (applyActionId) and the readable path (actionToMove, then applyAction), over random
// positions of every preset and rule corner, with and without a history kept.
import { describe, expect, it } from 'vitest';
import { applyActionId } from '../../../env/gym/actionApply.js';
import { MaskScratch, writeActionMask } from '../../../env/gym/actionMask.js';
import { ACTION_COUNT } from '../../../env/gym/actionLayout.js';
import { actionToMove } from '../../../env/gym/actionMoves.js';
import { GameHistory } from '../../../env/gym/position.js';
import { applyAction } from '../../../env/rules/actions.js';
import { type GameState, cloneState } from '../../../env/rules/state.js';
import { RUNS, VARIANTS, randomPositions } from './envPositions.js';

/** Every field of the state, buffers in full (stale bytes too) and the PRNG's state, as one string. */
function snapshot(s: GameState): string {
  return JSON.stringify(
    Object.entries(s).map(([key, value]) => [
      key,
      key === 'rng' ? s.rng.getState() : ArrayBuffer.isView(value) ? Array.from(value as Uint8Array) : value,
    ]),
  );
}

function historyAt(s: GameState): GameHistory {
  const history = GameHistory.start({ preset: 'standard', rules: {}, players: s.players });
  history.beginRound(s);
  return history;
}

describe('applying an action id', () => {
  for (const { name, options } of VARIANTS) {
    it(`the fast decode and actionToMove + applyAction reach the same state (${name})`, () => {
      const mask = new Uint8Array(ACTION_COUNT);
      const ids = new Int16Array(ACTION_COUNT);
      const scratch = new MaskScratch();
      for (const s of randomPositions(options, 23, 150 * RUNS)) {
        const count = writeActionMask(s, scratch, mask, 0, ids, 0);
        for (const id of ids.subarray(0, count)) {
          const readable = cloneState(s);
          applyAction(readable, actionToMove(readable, id));
          const expected = snapshot(readable);
          for (const history of [null, historyAt(s)]) {
            const fast = cloneState(s);
            applyActionId(fast, id, history);
            expect(snapshot(fast), `id ${id}${history ? ' with history' : ''}`).toBe(expected);
          }
        }
      }
    });
  }
});

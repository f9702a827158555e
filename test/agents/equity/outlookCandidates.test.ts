// The moves the advice weighs (outlookCandidates) against the reference that reads all of strong's
// ranking: stopping once the list is full or holds every legal move changes nothing.
import { describe, expect, it } from 'vitest';
import { OUTLOOK_CANDIDATES, outlookCandidates } from '../../../agents/equity/moveOutlook.js';
import { rankDiscards } from '../../../agents/bots/strong.js';
import { actionToMove, moveToAction } from '../../../env/gym/actionMoves.js';
import { MaskScratch, legalActionIds, writeActionMask } from '../../../env/gym/actionMask.js';
import { ACTION_COUNT, YANIV_ACTION } from '../../../env/gym/actionLayout.js';
import { determinize, unseenCounts } from '../../../env/index.js';
import { randomInt, seededRng, shuffleInPlace } from '../../../env/rules/random.js';
import { type PlayerView, playerView } from '../../../env/rules/view.js';
import { PHASE_TURN } from '../../../env/rules/state.js';
import { randomPositions } from '../../env/gym/envPositions.js';

/** The candidates as chosen before the early stops: the pick, a call, the agent's two best, then every move of strong's ranking offered. */
function reference(view: PlayerView, legal: readonly number[], pick: number, ranked: readonly number[]): number[] {
  const chosen = [pick];
  const add = (id: number) => {
    if (chosen.length < OUTLOOK_CANDIDATES && legal.includes(id) && !chosen.includes(id)) chosen.push(id);
  };
  add(YANIV_ACTION);
  ranked.slice(0, 2).forEach(add);
  const moves = legal.map((id) => actionToMove(view, id));
  for (const { action } of rankDiscards(view, moves, unseenCounts(view))) add(moveToAction(view, action));
  return chosen;
}

describe('outlookCandidates', () => {
  for (const players of [2, 3, 4]) {
    it(`chooses what reading all of strong's ranking chose, in the same order (${players} seats, where Yaniv may be called and not)`, () => {
      const scratch = new MaskScratch();
      const mask = new Uint8Array(ACTION_COUNT);
      const rng = seededRng(players);
      const seen = { callable: 0, other: 0, stopped: 0 };
      for (const s of randomPositions({ players, episode: 'game' }, 70 + players, 1500 * players)) {
        if (s.phase !== PHASE_TURN) continue;
        const view = playerView(s, s.current);
        writeActionMask(determinize(view, seededRng(1)), scratch, mask, 0);
        const legal = legalActionIds(mask);
        const ranked = [...legal];
        shuffleInPlace(rng, ranked);
        const pick = legal[randomInt(rng, 0, legal.length - 1)];
        const chosen = outlookCandidates(view, legal, pick, ranked);
        expect(chosen).toEqual(reference(view, legal, pick, ranked));
        if (mask[YANIV_ACTION]) seen.callable++;
        else seen.other++;
        if (chosen.length === legal.length) seen.stopped++;
      }
      expect(seen.callable).toBeGreaterThan(15);
      expect(seen.other).toBeGreaterThan(20);
      expect(seen.stopped).toBeGreaterThan(0);
    });
  }
});

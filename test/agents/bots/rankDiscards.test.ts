// strong's ranking of a view's discards, asked again of the same view (kept: the explained advice
// asks twice), is the ranking made afresh; other settings, discards or unseen cards are ranked anew.
import { describe, expect, it } from 'vitest';
import { STRONG_DEFAULTS, rankDiscards } from '../../../agents/bots/strong.js';
import { actionToMove } from '../../../env/gym/actionMoves.js';
import { ACTION_COUNT } from '../../../env/gym/actionLayout.js';
import { MaskScratch, legalActionIds, writeActionMask } from '../../../env/gym/actionMask.js';
import { unseenCounts } from '../../../env/index.js';
import { PHASE_TURN } from '../../../env/rules/state.js';
import { playerView } from '../../../env/rules/view.js';
import { randomPositions } from '../../env/gym/envPositions.js';

describe('rankDiscards of the same view again', () => {
  it('gives the fresh ranking whatever was asked of the view before', () => {
    const scratch = new MaskScratch();
    const mask = new Uint8Array(ACTION_COUNT);
    let asked = 0;
    for (const s of randomPositions({ players: 3 }, 11, 600)) {
      if (s.phase !== PHASE_TURN) continue;
      writeActionMask(s, scratch, mask, 0);
      const view = playerView(s, s.current);
      const legal = legalActionIds(mask).map((id) => actionToMove(view, id));
      const unseen = unseenCounts(view);
      const fresh = (config = STRONG_DEFAULTS) => rankDiscards({ ...view }, legal, unseen, config);
      const other = { ...STRONG_DEFAULTS, lookahead: 0.3 };
      expect(rankDiscards(view, legal, unseen)).toEqual(fresh());
      expect(rankDiscards(view, legal, unseen, { ...STRONG_DEFAULTS })).toEqual(fresh());
      expect(rankDiscards(view, legal, unseen, other)).toEqual(fresh(other));
      const fewer = legal.filter((a, i) => a.type !== 'discard' || i % 2 === 0);
      expect(rankDiscards(view, fewer, unseen, other)).toEqual(rankDiscards({ ...view }, fewer, unseen, other));
      const none = new Uint8Array(unseen.length);
      expect(rankDiscards(view, fewer, none, other)).toEqual(rankDiscards({ ...view }, fewer, none, other));
      const ranked = rankDiscards(view, legal, unseen);
      ranked.reverse();
      expect(rankDiscards(view, legal, unseen)).toEqual(fresh());
      asked++;
    }
    expect(asked).toBeGreaterThan(50);
  });
});

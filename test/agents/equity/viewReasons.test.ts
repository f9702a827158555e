// The reasons read from the view alone (viewReasons, pickableLaid) against the engine: the discard
// played in a world drawn from the view, the cards of the group laid that the next seat may take.
import { describe, expect, it } from 'vitest';
import { pickableLaid, viewReasons } from '../../../agents/equity/moveOutlook.js';
import { actionToMove } from '../../../env/gym/actionMoves.js';
import { legalActionIds } from '../../../env/gym/actionMask.js';
import { MaskScratch, writeActionMask } from '../../../env/gym/actionMask.js';
import { ACTION_COUNT } from '../../../env/gym/actionLayout.js';
import { applyAction, determinize } from '../../../env/index.js';
import type { Card } from '../../../env/rules/cards.js';
import { pickableMask } from '../../../env/rules/groups.js';
import { seededRng } from '../../../env/rules/random.js';
import { type GameState, PHASE_DRAW, PHASE_TURN, cloneState } from '../../../env/rules/state.js';
import { playerView } from '../../../env/rules/view.js';
import { randomPositions } from '../../env/gym/envPositions.js';

/** The reference: the cards of the group laid in the world, as the engine lays it, that may be taken (each kind once). */
function pickableInWorld(world: GameState, cards: readonly Card[]): Card[] {
  const s = cloneState(world);
  applyAction(s, { type: 'discard', cards: [...cards] });
  if (s.phase !== PHASE_DRAW) return [];
  const mask = pickableMask(s.laidType, s.laidLength, s.rules);
  const out: Card[] = [];
  for (let i = 0; i < s.laidLength; i++) if ((mask >> i) & 1 && !out.includes(s.laid[i])) out.push(s.laid[i]);
  return out;
}

describe('pickableLaid', () => {
  const tables = [
    { players: 2 },
    { players: 4 },
    { players: 3, rules: { pickFromSet: 'ends', pickFromRun: 'any' } },
    { players: 2, rules: { pickFromSet: 'any', pickFromRun: 'ends' } },
  ] as const;
  for (const table of tables) {
    it(`gives the engine's pickable cards of every legal discard (${JSON.stringify(table)})`, () => {
      const scratch = new MaskScratch();
      const mask = new Uint8Array(ACTION_COUNT);
      let discards = 0;
      for (const s of randomPositions({ ...table, episode: 'game' }, 43, 1500)) {
        if (s.phase !== PHASE_TURN) continue;
        const view = playerView(s, s.current);
        const world = determinize(view, seededRng(discards));
        writeActionMask(world, scratch, mask, 0);
        for (const action of legalActionIds(mask)) {
          const move = actionToMove(view, action);
          if (move.type !== 'discard') continue;
          discards++;
          expect(pickableLaid(view, move.cards)).toEqual(pickableInWorld(world, move.cards));
          expect(viewReasons(view, action).filter((r) => r.kind === 'assaf')).toHaveLength(0);
        }
      }
      expect(discards).toBeGreaterThan(1000);
    });
  }

  it('names nothing when the round ends on an exhausted deck as the group is laid', () => {
    const s = randomPositions({ players: 2 }, 7, 400).find((p) => p.phase === PHASE_TURN && p.handLength[p.current] > 1);
    if (!s) throw new Error('no turn');
    const view = { ...playerView(s, s.current), deckSize: 0, pile: [], previous: { ...playerView(s, s.current).previous, pickable: [] } };
    expect(pickableLaid(view, [view.hand[0]])).toEqual([]);
  });

  it('refuses a group the seat cannot lay', () => {
    const s = randomPositions({ players: 2 }, 7, 400).find((p) => p.phase === PHASE_TURN);
    if (!s) throw new Error('no turn');
    const view = playerView(s, s.current);
    expect(() => pickableLaid(view, [])).toThrow(/cannot lay/);
  });
});

// The chance to win shown with advice: the game equity of the table when the round began, plus
// the value of a model trained on the "equity" reward, null where no equity ships.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { shippedEquity } from '../../agents/equity.js';
import { seatEquities } from '../../env/gym/equity.js';
import { YanivEnv, playerView } from '../../env/index.js';
import { winChance } from '../../serve/winChance.js';
import { cardMetadata, trainingRecord } from '../agents/modelFixtures.js';

const folder = mkdtempSync(path.join(tmpdir(), 'yaniv-win-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A model folder whose card says it was trained on this reward (the card is all winChance reads of it). */
function modelTrainedOn(reward: string): string {
  const dir = path.join(folder, reward);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'model.json'), '{}');
  writeFileSync(
    path.join(dir, 'metadata.json'),
    JSON.stringify(cardMetadata(trainingRecord({ players: [3], reward, returnHorizon: 'round' }))),
  );
  return `neural:${dir}`;
}

/** The view of the seat to move at the first turn of a game from these totals. */
function viewAt(totals: number[], players = 3) {
  const env = new YanivEnv({ players });
  env.reset({ seed: 3, options: { startTotals: totals } });
  return playerView(env.state, env.state.current);
}

describe('winChance', () => {
  it('is the equity of the table at the round start for heuristic agents', () => {
    const view = viewAt([40, 120, 10]);
    const expected = seatEquities(shippedEquity('standard', 3), view.totals, view.active, view.starter)[view.seat];
    expect(winChance('strong', view, -3.5)).toEqual({ probability: expected, roundStart: expected, source: 'equity' });
    expect(expected).toBeGreaterThan(0);
    expect(expected).toBeLessThan(1);
  });

  it('adds the value of a model trained on the equity reward, kept within 0..1', () => {
    const view = viewAt([40, 120, 10]);
    const start = seatEquities(shippedEquity('standard', 3), view.totals, view.active, view.starter)[view.seat];
    const spec = modelTrainedOn('equity');
    expect(winChance(spec, view, 0.05)).toEqual({ probability: start + 0.05, roundStart: start, source: 'equity+value' });
    expect(winChance(spec, view, 5)?.probability).toBe(1);
    expect(winChance(modelTrainedOn('zeroSumTotals'), view, 0.05)?.source).toBe('equity');
  });

  it('is null where no equity ships (rules other than a preset with one, or a table size without one)', () => {
    expect(winChance('strong', viewAt([0, 0, 0, 0, 0, 0, 0, 0], 8), null)).toBeNull();
  });
});

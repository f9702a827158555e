// The learning curve's spec (training/curve.ts): the win rates with their intervals above the
// losses, both on one episode axis from 0 to the last line's; lines of other kinds and losses that
// were not numbers are left out; it renders to an SVG.
import { describe, expect, it } from 'vitest';
import { curveSpec, renderCurve } from '../../training/curve.js';

const LINES = [
  { type: 'iteration', episodes: 100, phase: 'imitation', loss: 1.5 },
  { type: 'iteration', episodes: 200, phase: 'ppo', loss: 0.9, valueLoss: 0.3 },
  { type: 'iteration', episodes: 250, phase: 'ppo', loss: null, valueLoss: null },
  {
    type: 'evaluation',
    episodes: 200,
    results: [
      { opponent: 'strong', players: 2, winRate: 0.4, low: 0.3, high: 0.5, games: 100 },
      { opponent: 'strong', players: 4, winRate: 0.2, low: 0.1, high: 0.3, games: 100 },
    ],
  },
  { type: 'other', episodes: 300 },
];

describe('the learning curve', () => {
  const spec = curveSpec(LINES, 'yaniv train: x') as unknown as {
    vconcat: { data: { values: Record<string, unknown>[] }; layer?: { encoding: { x?: unknown } }[]; encoding?: { x: unknown } }[];
  };
  const [wins, losses] = spec.vconcat;

  it('plots each evaluation’s win rates by match-up, with their intervals', () => {
    expect(wins.data.values).toEqual([
      { episodes: 200, matchup: 'vs strong, heads-up', winRate: 0.4, low: 0.3, high: 0.5, games: 100 },
      { episodes: 200, matchup: 'vs 3 × strong (1 of 4 seats)', winRate: 0.2, low: 0.1, high: 0.3, games: 100 },
    ]);
  });

  it('plots the losses that were numbers, the value error under PPO', () => {
    expect(losses.data.values).toEqual([
      { episodes: 100, series: 'imitation: cross-entropy + value error', value: 1.5 },
      { episodes: 200, series: 'PPO: total loss', value: 0.9 },
      { episodes: 200, series: 'PPO: value error', value: 0.3 },
    ]);
  });

  it('puts both panels on one episode axis, from 0 to the last line', () => {
    const axis = { field: 'episodes', type: 'quantitative', title: 'episodes played', scale: { domain: [0, 300] } };
    expect(wins.layer?.[0].encoding.x).toEqual(axis);
    expect(losses.encoding?.x).toEqual(axis);
  });

  it('renders to an SVG', async () => {
    const svg = await renderCurve(LINES, 'yaniv train: x');
    expect(svg).toMatch(/^<svg/);
    expect(svg).toContain('vs 3 × strong (1 of 4 seats)');
  }, 60_000);
});

// Prioritised fictitious self-play: opponents the learner still loses to come up more often.
import { describe, expect, it } from 'vitest';
import { LeagueResults, prioritisedMix } from '../../training/league.js';

describe('the league results', () => {
  it('start at ½ and follow the wins, Laplace-smoothed', () => {
    const results = new LeagueResults();
    expect(results.winRate('strong')).toBe(0.5);
    for (let i = 0; i < 8; i++) results.add('strong', i < 2);
    expect(results.winRate('strong')).toBeCloseTo(3 / 10);
  });

  it('fade older games in halves past the window', () => {
    const results = new LeagueResults(10);
    for (let i = 0; i < 10; i++) results.add('past', true);
    for (let i = 0; i < 10; i++) results.add('past', false);
    // After the window: the first ten games count half, so the rate is below ½.
    expect(results.winRate('past')).toBeLessThan(0.5);
    expect(results.winRate('past')).toBeGreaterThan(0.2);
  });
});

describe('prioritised fictitious self-play', () => {
  const mix = [
    { spec: 'self', weight: 0.2 },
    { spec: 'strong', weight: 0.4 },
    { spec: 'intermediate', weight: 0.4 },
  ];

  it('weights each share by (1 − the win rate)^power, renormalised; self keeps its share before renormalising', () => {
    const results = new LeagueResults();
    for (let i = 0; i < 98; i++) results.add('intermediate', true); // (98 + 1) / 100: 0.99
    for (let i = 0; i < 98; i++) results.add('strong', i % 2 === 0); // (49 + 1) / 100: 0.5
    const out = prioritisedMix(mix, results, 1);
    const raw = { self: 0.2, strong: 0.4 * 0.5, intermediate: 0.4 * 0.01 };
    const total = raw.self + raw.strong + raw.intermediate;
    expect(out.map((s) => s.spec)).toEqual(['self', 'strong', 'intermediate']);
    expect(out[0].weight).toBeCloseTo(raw.self / total);
    expect(out[1].weight).toBeCloseTo(raw.strong / total);
    expect(out[2].weight).toBeCloseTo(raw.intermediate / total);
    expect(out.reduce((sum, s) => sum + s.weight, 0)).toBeCloseTo(1);
  });

  it('is the mix as given before any result, at power 0', () => {
    expect(prioritisedMix(mix, new LeagueResults(), 0).map((s) => s.weight)).toEqual(mix.map((s) => s.weight));
  });
});

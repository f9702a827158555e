// `yaniv rate` through the real entry point: a tiny tournament end to end (table, JSON, chart),
// the same seed giving the same `config` and `results` bytes whatever the workers, and bad flags
// exiting 2 with a message naming them.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuild, yaniv } from './processes.js';

let folder = '';
beforeAll(() => {
  requireBuild();
  folder = mkdtempSync(join(tmpdir(), 'yaniv-rate-'));
});
afterAll(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
});

const TINY = ['rate', '--agents', 'random,novice,intermediate', '--games', '24', '--seed', '9', '--no-progress'];

describe('yaniv rate', () => {
  it('prints the ladder, writes the chart and JSON; the same seed gives the same config and results on 1 or 2 workers', () => {
    const chart = join(folder, 'ladder.svg');
    const file = join(folder, 'rate.json');
    const table = yaniv(...TINY, '--workers', '1', '--chart', chart, '--json', file);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/24 games \(3 agents, 2 players, standard, games, seed 9\).*Bradley–Terry fit, intermediate = 1500/);
    expect(table.stdout).toMatch(/│ intermediate │ 1500 +│ anchor/);
    expect(readFileSync(chart, 'utf8')).toMatch(/^<svg[\s\S]*random[\s\S]*<\/svg>$/);
    const first = JSON.parse(readFileSync(file, 'utf8'));
    expect(first.config).toMatchObject({
      agents: ['random', 'novice', 'intermediate'],
      games: 24,
      anchor: 'intermediate',
      anchorRating: 1500,
    });
    expect(first.results.ratings.map((r: { agent: string }) => r.agent).at(-1)).toBe('random');
    expect(first.run.workers).toBe(1);

    const again = yaniv(...TINY, '--workers', '2', '--json', '-');
    expect(again.code, again.stderr).toBe(0);
    const second = JSON.parse(again.stdout);
    expect(JSON.stringify(second.config)).toBe(JSON.stringify(first.config));
    expect(JSON.stringify(second.results)).toBe(JSON.stringify(first.results));
  });

  it('rates at 4 seats by Plackett–Luce, anchored where asked', () => {
    const run = yaniv(...TINY, '--players', '4', '--anchor', 'novice', '--anchor-rating', '1000', '--workers', '1', '--json', '-');
    expect(run.code, run.stderr).toBe(0);
    const { results } = JSON.parse(run.stdout);
    expect(results).toMatchObject({ model: 'plackett-luce', anchor: 'novice', anchorRating: 1000 });
    expect(results.ratings.find((r: { agent: string }) => r.agent === 'novice')).toMatchObject({ rating: 1000, low: 1000, high: 1000 });
  });

  it.each([
    [['--anchor', 'strong'], /--anchor strong is not one of --agents \(random,novice,intermediate\)/],
    [['--games', '0'], /--games: must be an integer ≥ 1 \(got "0"\)/],
    [['--anchor-rating', 'high'], /--anchor-rating: must be a number \(got "high"\)/],
    [['--agents', 'novice'], /--agents: name at least two agents to rate/],
    [['--agents', 'novice,wizard'], /unknown agent "wizard"/],
    [['--players', '9'], /--players/],
  ])('bad flags %j exit 2 with a message naming them', (flags, message) => {
    const run = yaniv(...TINY, ...flags);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toMatch(/at .*\.js:\d+/);
  });
});

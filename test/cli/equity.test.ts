// `yaniv equity --players N` through the real entry point: at 3 seats it plays games, fits the
// learned equity and writes data the loader accepts; a table size outside 2–8 is refused.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readEquityData, solveEquityData } from '../../agents/equity/equity.js';
import { seatEquities } from '../../env/gym/equity.js';
import { scratchFolder, yanivWithin } from './processes.js';

const folder = scratchFolder('yaniv-equity-cli-');

const run = (...flags: string[]) => yanivWithin(120_000, 'equity', ...flags);

describe('yaniv equity', () => {
  it('fits the learned equity at 3 seats and writes it', () => {
    const out = join(folder(), 'standard-3.json');
    const { code, stdout } = run('--players', '3', '--games', '6', '--seed', '2', '--out', out);
    expect(code).toBe(0);
    expect(stdout).toMatch(/6 games of strong at 3 seats \(standard\): \d+ tables between rounds/);
    expect(stdout).toMatch(/3 seats in: \d+ tables; winner cross-entropy/);
    const data = readEquityData(out);
    expect(data).toMatchObject({ players: 3, preset: 'standard', agent: 'strong', games: 6 });
    const equity = solveEquityData(data);
    expect(seatEquities(equity, [0, 0, 0], [true, true, true], 0).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
  }, 180_000);

  it('plays the catalog’s model for the table: neural at four seats the four-seat model', () => {
    const { code, stdout, stderr } = run('--agent', 'neural', '--players', '4', '--games', '2');
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(/yaniv equity: neural plays models\/standard-4 \(trained for standard at 4 seats\)/);
    expect(stdout).toMatch(/2 games of neural at 4 seats \(standard\)/);
  }, 120_000);

  it('refuses a table size outside 2–8', () => {
    const { code, stderr } = run('--players', '9');
    expect(code).toBe(2);
    expect(stderr).toMatch(/--players: must be an integer from 2 to 8 \(got "9"\)/);
  });

  it('refuses heads-up rules the equity does not model before simulating a round', () => {
    const { code, stdout, stderr } = run('--players', '2', '--rounds', '40000', '--rule', 'milestoneRobbery=true');
    expect(code).toBe(2);
    expect(stderr).toMatch(/game equity does not model milestoneRobbery/);
    expect(stdout).not.toMatch(/rounds of strong/);
  });
});

// How many new house-rule sets an address may have the chance to win measured on
// (serve/ruleSetBudget.ts): one at a time, `perMinute` a minute, a set asked before always, a
// preset as it is never counted; each address on its own.
import { describe, expect, it } from 'vitest';
import { RuleSetBudget, ruleSetKey } from '../../serve/ruleSetBudget.js';

describe('RuleSetBudget', () => {
  it('measures one new set at a time and perMinute a minute per address; sets asked before and presets go free', () => {
    let now = 0;
    const budget = new RuleSetBudget(2, () => now);
    const take = (address: string, limit: number) => budget.take(address, 'standard', { eliminationLimit: limit }, 3);
    const first = take('a', 100);
    expect(first).toHaveProperty('done');
    expect(take('a', 101)).toMatchObject({ unmeasured: expect.stringMatching(/being measured for another request/) });
    expect(take('b', 101)).toHaveProperty('done');
    if ('done' in first) first.done();
    const second = take('a', 101);
    expect(second).toHaveProperty('done');
    if ('done' in second) second.done();
    expect(take('a', 102)).toMatchObject({ unmeasured: expect.stringMatching(/2 new house-rule sets this minute/) });
    expect(take('a', 100)).toHaveProperty('done');
    expect(budget.take('a', 'dutch', {}, 3)).toHaveProperty('done');
    now += 60_000;
    expect(take('a', 102)).toHaveProperty('done');
  });

  it('keeps each set as a digest: a set as large as a message holds a few bytes, and sets stay apart', () => {
    const large = { eliminationLimit: 300, note: 'x'.repeat(60_000) };
    expect(ruleSetKey('standard', large, 3)).toHaveLength(43);
    expect(ruleSetKey('standard', large, 3)).toBe(ruleSetKey('standard', { ...large }, 3));
    const others = [ruleSetKey('standard', large, 4), ruleSetKey('dutch', large, 3), ruleSetKey('standard', { eliminationLimit: 300 }, 3)];
    expect(new Set([ruleSetKey('standard', large, 3), ...others]).size).toBe(4);
  });
});

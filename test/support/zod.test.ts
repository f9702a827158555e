import { describe, expect, it } from 'vitest';
import { VecEnv } from '../../env/gym/vecEnv.js';
import { YanivEnv } from '../../env/gym/yanivEnv.js';
import { resolveRules } from '../../env/rules/rules.js';
import { preview } from '../../support/zod.js';

describe('environment options', () => {
  it.each([
    [{ players: 9 }, 'env option "players" must be an integer from 2 to 8 (got 9)'],
    [{}, 'env option "players" must be an integer from 2 to 8 (missing)'],
    [
      { players: 2, reward: 'x' },
      'env option "reward" must be one of "roundPenalty", "zeroSum", "zeroSumTotals", "winLoss", "equity" (got "x")',
    ],
    [{ players: 2, rewardScale: 0 }, 'env option "rewardScale" must be a positive number (got 0)'],
    [{ players: 2, frob: 1 }, 'unknown env option "frob"; the env options are preset, rules, players'],
  ])('%j is refused, naming the option and what it takes', (options, message) => {
    expect(() => new YanivEnv(options as never)).toThrow(message);
  });
});

// Rule options given as objects reach the rules by every path: resolveRules itself, the env
// options (YanivEnv, VecEnv), records and positions (record.test.ts, position.test.ts). An
// option named after an Object.prototype member is unknown like any other, "__proto__"
// included (JSON.parse makes it an own key).
describe('rule options named after Object.prototype members', () => {
  const NAMES = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'];
  const rulesWith = (name: string) => JSON.parse(`{${JSON.stringify(name)}: {"yanivThreshold": 3}}`) as Record<string, unknown>;

  it.each(NAMES)('%s is refused by resolveRules, the env and the vector env', (name) => {
    const message = new RegExp(`unknown rule option "${name}"; the rule options are decks, `);
    expect(Object.keys(rulesWith(name))).toEqual([name]);
    expect(() => resolveRules({ rules: rulesWith(name), players: 2 })).toThrow(message);
    expect(() => new YanivEnv({ players: 2, rules: rulesWith(name) })).toThrow(message);
    expect(() => new VecEnv({ num: 2, players: 2, rules: rulesWith(name) })).toThrow(message);
  });
});

describe('error messages preview the value they name', () => {
  it('small values as compact JSON, large or deep ones cut short', () => {
    expect(preview(31)).toBe('31');
    expect(preview('x')).toBe('"x"');
    expect(
      preview([
        [50, 25],
        [100, 50],
      ]),
    ).toBe('[[50,25],[100,50]]');
    expect(preview({ a: [1, { b: 2 }] })).toBe('{"a":[1,{"b":2}]}');
    expect(preview({ a: { b: { c: { d: 1 } } } })).toBe('{"a":{"b":{"c":{…}}}}');
    expect(preview(Array.from({ length: 20 }, (_, i) => i))).toBe('[0,1,2,3,4,5,6,7,…]');
    expect(preview('y'.repeat(100))).toBe(`"${'y'.repeat(40)}…"`);
    expect(preview(NaN)).toBe('NaN');
    expect(preview(Array.from({ length: 8 }, () => 'z'.repeat(40))).length).toBe(80);
  });

  it('a value too deep for JSON.stringify', () => {
    let deep: unknown = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(() => JSON.stringify(deep)).toThrow(RangeError);
    expect(preview(deep)).toBe('[[[[…]]]]');
    expect(() => new YanivEnv({ players: 2, rules: { milestones: deep } })).toThrow(
      'rule option "milestones[0]" must be a list of [at, to] pairs of integers (got [[[[…]]]])',
    );
    expect(() => resolveRules({ rules: deep, players: 2 })).toThrow('rules must be an object of rule options (got [[[[…]]]])');
  });
});

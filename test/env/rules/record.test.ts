// Reading records (RECORD.md): documents that are not valid records are refused with a
// RecordError naming the field, whatever they hold — deep nesting anywhere, or keys that are
// names of Object.prototype. test/cli/replay.test.ts checks the same through `yaniv replay`.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RecordError, parseRecord } from '../../../env/rules/record.js';

const EXAMPLE = JSON.stringify(JSON.parse(readFileSync(new URL('../../../examples/standard-3p.json', import.meta.url), 'utf8')));

/** Written as text: JSON.stringify of such a value would itself overflow the stack. */
const deepArray = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const deepObject = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

/** The example with `from` replaced by `to` (which must change it). */
function edited(from: string | RegExp, to: string): string {
  const text = EXAMPLE.replace(from, to);
  if (text === EXAMPLE) throw new Error(`test setup: ${String(from)} is not in the example`);
  return text;
}

function refusal(text: string): RecordError {
  try {
    parseRecord(text);
  } catch (error) {
    if (error instanceof RecordError) return error;
    throw error;
  }
  throw new Error('the record was accepted');
}

describe('parseRecord on deeply nested documents', () => {
  it.each([
    [
      'in a move',
      edited('"moves":[', `"moves":[${deepArray(100_000)},`),
      'rounds[0].moves[0]',
      /^must be a move: .*\(got \[\[\[\[…\]\]\]\]\)$/,
    ],
    [
      'as a card',
      edited('"hands":[[', `"hands":[[${deepObject(100_000)},`),
      'rounds[0].hands[0][0]',
      /^must be a card name .*\(got \{"a":\{"a":\{"a":\{…\}\}\}\}\)$/,
    ],
    ['as a deck', edited('"deck":[', `"deck":${deepObject(100_000)},"x":[`), 'rounds[0].deck', /^must be a list of cards, top first/],
    [
      'as a rule option',
      edited('"rules":{}', `"rules":{"milestones":${deepArray(100_000)}}`),
      'rules',
      /^rule option "milestones\[0\]" must be a list of \[at, to\] pairs of integers \(got \[\[\[\[…\]\]\]\]\)$/,
    ],
    [
      'as an object rule option',
      edited('"rules":{}', `"rules":{"yanivThreshold":${deepObject(100_000)}}`),
      'rules',
      /^rule option "yanivThreshold" must be an integer from 0 to 30 \(got \{"a":\{"a":\{"a":\{…\}\}\}\}\)$/,
    ],
    ['as the rules', edited('"rules":{}', `"rules":${deepArray(100_000)}`), 'rules', /^must be an object of rule options$/],
    [
      'as the player count',
      edited('"players":3', `"players":${deepObject(100_000)}`),
      'players',
      /^must be an integer from 2 to 8 \(got \{"a":/,
    ],
    ['under an unknown field', edited('{"format"', `{"deep":${deepArray(100_000)},"format"`), '', /^unknown field "deep"$/],
    ['as the whole document', deepArray(100_000), '', /^a record is a JSON object .*\(got an array\)$/],
  ])('%s: a RecordError naming the field, with a short preview of the value', (_where, text, field, problem) => {
    const error = refusal(text);
    expect(error.field).toBe(field);
    expect(error.problem).toMatch(problem);
    expect(error.message.length).toBeLessThan(400);
  });

  it('a huge value is previewed, not copied into the message', () => {
    const error = refusal(edited('"players":3', `"players":[${'"x",'.repeat(100_000)}"x"]`));
    expect(error.message).toBe('players: must be an integer from 2 to 8 (got ["x","x","x","x","x","x","x","x",…])');
  });
});

describe('parseRecord on keys that are names of Object.prototype', () => {
  // JSON.parse creates "__proto__" as an own key; copying it by assignment would set a prototype instead.
  it.each(['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'])(
    'a rule option %s is unknown, with an object or a number',
    (name) => {
      for (const value of ['{"yanivThreshold":3}', '5']) {
        const error = refusal(edited('"rules":{}', `"rules":{${JSON.stringify(name)}:${value}}`));
        expect(error.field).toBe('rules');
        expect(error.problem).toMatch(new RegExp(`^unknown rule option "${name}"; the rule options are decks, jokersPerDeck, `));
      }
    },
  );

  it.each([
    ['the record', '{"format"', '{"__proto__":{},"format"', ''],
    ['a round', '"rounds":[{', '"rounds":[{"__proto__":{},', 'rounds[0]'],
    ['a move', '"moves":[{', '"moves":[{"__proto__":{"yaniv":true},', 'rounds[0].moves[0]'],
  ])('a "__proto__" field in %s is unknown', (_where, from, to, field) => {
    const error = refusal(edited(from, to));
    expect(error.field).toBe(field);
    expect(error.problem).toBe('unknown field "__proto__"');
  });

  it('the rules of a parsed record are a copy with the options as given', () => {
    const rules = { yanivThreshold: 5 };
    const record = parseRecord({ ...JSON.parse(EXAMPLE), rules });
    expect(record.rules).toEqual(rules);
    expect(record.rules).not.toBe(rules);
    expect(record.settledRules.yanivThreshold).toBe(5);
  });
});
